// Package gtpengine serves bgbot over Gamemill's backgammon command set
// (package protocol): an Engine implements bgcmd.Engine and
// bgcmd.Evaluator on top of a bgbot.Bot. cmd/bgbot wraps it in a
// process speaking on stdin and stdout; the ringmaster runs it in-process
// ("builtin" players) through NewServer and in-memory pipes. Both parse the
// engine's options with ParseArgs.
package gtpengine

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sync"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/bgstate"
)

// Name and Version are what the engine answers to name and version.
const (
	Name    = "bgbot"
	Version = "1.0"
)

// Options configure an Engine.
type Options struct {
	Level     bgbot.Level
	Plies     int
	CubePlies int // cube decisions at least this deep (see bgbot.Config.CubePlies)
	// DoubleMargin, MoneyDoubleMargin and PassMargin shift the cube
	// decisions (see bgbot.Config.DoubleMargin).
	DoubleMargin, PassMargin float64
	MoneyDoubleMargin        float64
	// JanowskiOneWay is bgbot.Config.JanowskiOneWay.
	JanowskiOneWay bool
	// MoneyCubeEfficiency is bgbot.Config.MoneyCubeEfficiency.
	MoneyCubeEfficiency float64
	Noise               float64
	Seed                uint64
	WeightsFile         string         // weights file for the net level; "" uses the embedded default
	Weights             *bgbot.Weights // already loaded weights; overrides WeightsFile
	// BearoffFile is a bearoff database written by bgtrain makebearoff
	// (such as the 15-checker one, with gammons); "" uses the database of
	// BearoffCheckers.
	BearoffFile string
	// BearoffCheckers is the size of the one-sided bearoff database when
	// no BearoffFile is named: 15 (DefaultOptions) covers every race with
	// all checkers home, gammons included; 0 means
	// bgbot.DefaultBearoffCheckers (10, no gammons), built at start-up.
	BearoffCheckers int
	// CacheDir keeps the bearoff database between processes (see
	// bgbot.CachedBearoff): the 15-checker one takes about 2 s of CPU to
	// build and tens of milliseconds to read. "" builds it every time.
	CacheDir string
	// Warn, when not nil, is told of trouble that does not stop the
	// engine, such as a cache it could not write.
	Warn func(error)
	// Bearoff2 is the checkers a side of a two-sided bearoff database to
	// build at start-up (0: none; 6 takes about half a second).
	Bearoff2 int
	// Bearoff2DB is a two-sided database to share between engines; it
	// overrides Bearoff2.
	Bearoff2DB *bgbot.Bearoff2
	// Bearoff is a bearoff database to share between engines (the net
	// level builds its own, a few hundred milliseconds, when nil).
	Bearoff *bgbot.Bearoff
	// NoPrune has a searching net judge every reply with the network;
	// by default a pruner (PrunerFile, else the embedded one) picks the
	// few it judges (bgbot.Config.Pruner).
	NoPrune    bool
	PrunerFile string
	Pruner     *bgbot.Pruner // an already loaded pruner; overrides PrunerFile
	// PruneRoot, when above 0, has the pruner narrow the legal moves of
	// every decision to that many before the network judges them
	// (bgbot.Config.RootKeep), at any depth.
	PruneRoot int
	// CubeWeightsFiles are more networks whose judgement is averaged with
	// the main network's in 0-ply cube decisions (bgbot.Config.CubeWeights);
	// CubeWeights, when set, are already loaded ones and override them.
	CubeWeightsFiles []string
	CubeWeights      []*bgbot.Weights
	// CubeAlone judges 0-ply cube decisions by the cube networks alone,
	// without the main network (bgbot.Config.CubeAlone).
	CubeAlone bool
	// MoveWeightsFiles are more networks that, at 0 ply, score again the
	// MoveKeep moves the main network scores best, by the mean of all
	// (bgbot.Config.MoveWeights); MoveWeights, when set, are already
	// loaded ones and override them.
	MoveWeightsFiles []string
	MoveWeights      []*bgbot.Weights
	MoveKeep         int
	// NoSecond turns off the default player's second network. The
	// default player (the net level with the embedded weights, no
	// --weights) asks the embedded second network
	// (bgbot.DefaultSecondWeights) for a second opinion on its best moves
	// and its 0-ply cube decisions, where --move-weights and
	// --cube-weights name no others. Second, when set, is that network
	// already loaded.
	NoSecond bool
	Second   *bgbot.Weights
	// NoWindow has the default player judge its cube decisions by the
	// main and second networks, as before the window networks, in place
	// of the embedded networks of the doubling window
	// (bgbot.DefaultWindowWeights) alone. Window, when set, are those
	// networks already loaded.
	NoWindow bool
	Window   []*bgbot.Weights
	// CubefulMoves chooses moves by the cubeful equity the opponent faces
	// after them (bgbot.Config.CubefulMoves); on by default since it
	// brought bgbot's chequer play level with gnubg 0-ply's in gnubg's
	// verdict on five-point matches (docs/bgbot.md).
	CubefulMoves bool
	// RaceGammons counts race gammons from one-sided distributions
	// (bgbot.Config.RaceGammons); on by default since it took 0.17 mEMG
	// off each race decision of the race move set (docs/bgbot.md).
	RaceGammons bool
	// CubelessClasses are the class names (contact, crashed, race) of the
	// positions in which moves are chosen cubeless even with CubefulMoves
	// (bgbot.Config.CubelessClasses).
	CubelessClasses []string
}

// DefaultDoubleMargin is the engine's --double-margin. 0-ply cube
// decisions, ours and gnubg's alike, double too early by gnubg's 2-ply
// judgement. On the recorded positions of 2,000 matches a margin of 0.03
// cut bgbot's doubling error the most, but in games it held the cube
// into positions the records lack and its own cube error in all did not
// fall; 0.01 cut gnubg's verdict of its cube error
// per decision with its cube error in all unchanged, and 0.02 with the
// window networks cut it again, by 0.29 [0.07, 0.51]
// mEMG a decision over 2,000 matches, its error in all unchanged and
// gnubg 0-ply's risen (docs/results/2026-11-26-bgbot-cube.md).
const DefaultDoubleMargin = 0.02

// DefaultMoneyDoubleMargin is the engine's --money-double-margin: none,
// because in money play the cube efficiency of contact positions
// (bgbot.MoneyContactCubeEfficiency, 0.76)
// holds the doubles back instead, which gave up 0.48 [0.16, 0.81] mEMG a
// close decision less than 0.68 with the margin on 1,000 money games that
// did not choose it (docs/bgbot.md, The money cube efficiency).
const DefaultMoneyDoubleMargin = 0

// DefaultOptions are the options with no flags given: the net at 0-ply,
// no noise, seed 1, cubeful chequer play, race gammons counted, doubles
// only beyond DefaultDoubleMargin in matches and DefaultMoneyDoubleMargin
// in money play.
func DefaultOptions() Options {
	return Options{Level: bgbot.LevelNet, Seed: 1, BearoffCheckers: EngineBearoffCheckers, CacheDir: bgbot.DefaultCacheDir(), CubefulMoves: true, RaceGammons: true,
		DoubleMargin: DefaultDoubleMargin, MoneyDoubleMargin: DefaultMoneyDoubleMargin}
}

// EngineBearoffCheckers is the bearoff database the engine uses by
// default: all 15 checkers, with gammon distributions. On the strength study's
// 3,000 decisions it gives up 0.35 mEMG a race decision where the
// 10-checker one gives up 0.48 (docs/bgbot.md).
const EngineBearoffCheckers = 15

// loadBearoff reads or builds the one-sided bearoff database the options
// ask for.
func (o *Options) loadBearoff() (*bgbot.Bearoff, error) {
	if o.BearoffFile != "" {
		return bgbot.ReadBearoffFile(o.BearoffFile)
	}
	return bgbot.CachedBearoff(o.CacheDir, o.bearoffCheckers(), o.Warn)
}

// bearoffCheckers is the size of the database when no file is named, 0
// standing for bgbot.DefaultBearoffCheckers.
func (o *Options) bearoffCheckers() int {
	if o.BearoffCheckers == 0 {
		return bgbot.DefaultBearoffCheckers
	}
	return o.BearoffCheckers
}

// bearoffKey says which database loadBearoff gives, for sharing it.
func (o *Options) bearoffKey() string {
	if o.BearoffFile != "" {
		return "file:" + o.BearoffFile
	}
	return fmt.Sprintf("checkers:%d", o.bearoffCheckers())
}

// FlagSet returns a flag set that fills o: --level, --plies, --cube-plies, --noise, --bearoff,
// --seed and --weights.
func FlagSet(name string, o *Options) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.Var((*levelValue)(&o.Level), "level", "evaluation level: random, heuristic or net")
	fs.IntVar(&o.Plies, "plies", o.Plies, fmt.Sprintf("search depth, 0..%d", bgbot.MaxPlies))
	fs.IntVar(&o.CubePlies, "cube-plies", o.CubePlies, fmt.Sprintf("least depth of the cube decisions, 0..%d (they use the deeper of --plies and this)", bgbot.MaxPlies))
	fs.Float64Var(&o.DoubleMargin, "double-margin", o.DoubleMargin, "in matches, double only where doubling beats not doubling by more than this, in equity normalised to the cube and converted to match winning chances at the score (--money-double-margin in money play); 0: the cube model's own decision")
	fs.Float64Var(&o.MoneyDoubleMargin, "money-double-margin", o.MoneyDoubleMargin, "--double-margin for money play, where the cube efficiency of contact positions (--money-cube-efficiency) already holds the doubles back; 0: the cube model's own decision")
	fs.Float64Var(&o.PassMargin, "pass-margin", o.PassMargin, "pass where double/take is within this of double/pass for the doubler, in the same units (negative: take more); 0: the model's decision")
	fs.BoolVar(&o.JanowskiOneWay, "janowski-one-way", o.JanowskiOneWay, "in matches, judge a cube that only one side can still use (the other wins the match with any win at its value) with the position's Janowski cube efficiency (bgbot's rule until 2026-11-27) instead of as fully live")
	fs.Float64Var(&o.MoneyCubeEfficiency, "money-cube-efficiency", o.MoneyCubeEfficiency, fmt.Sprintf("Janowski cube efficiency of contact positions in money play, 0..1 (0: %g; gnubg's is %g)", bgbot.MoneyContactCubeEfficiency, bgbot.CubeEfficiency))
	fs.Float64Var(&o.Noise, "noise", o.Noise, "standard deviation of the Gaussian noise added to each evaluation, in equity")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the random moves and the noise")
	fs.StringVar(&o.WeightsFile, "weights", o.WeightsFile, "network weights file (default: the embedded weights)")
	fs.IntVar(&o.Bearoff2, "bearoff2", o.Bearoff2, fmt.Sprintf("build a two-sided bearoff database of up to this many checkers a side, 0..%d (exact races and money cube decisions there; 0: none)", bgbot.MaxBearoff2Checkers))
	fs.StringVar(&o.BearoffFile, "bearoff", o.BearoffFile, "bearoff database file from bgtrain makebearoff (default: the database of --bearoff-checkers)")
	fs.IntVar(&o.BearoffCheckers, "bearoff-checkers", o.BearoffCheckers, "checkers a side of the one-sided bearoff database when --bearoff names no file, 1..15 (15 includes gammons; it is built once, about 2 s, and kept in --cache-dir)")
	fs.StringVar(&o.CacheDir, "cache-dir", o.CacheDir, "directory that keeps the bearoff database between runs (\"\": build it at every start)")
	fs.BoolVar(&o.NoPrune, "no-prune", o.NoPrune, "in searches (--plies or --cube-plies above 0) judge every reply with the network, not only those the pruning network ranks best")
	fs.IntVar(&o.PruneRoot, "prune-root", o.PruneRoot, "let the pruning network narrow each decision's legal moves to this many before the network judges them (0: judge them all)")
	fs.StringSliceVar(&o.CubeWeightsFiles, "cube-weights", o.CubeWeightsFiles, "more network weights files (comma-separated or repeated) whose probabilities are averaged with the main network's for cube decisions at 0 ply")
	fs.StringSliceVar(&o.MoveWeightsFiles, "move-weights", o.MoveWeightsFiles, "more network weights files (comma-separated or repeated) whose probabilities are averaged with the main network's for the moves it scores best, at 0 ply")
	fs.IntVar(&o.MoveKeep, "move-keep", o.MoveKeep, fmt.Sprintf("how many moves --move-weights score again (0: %d)", bgbot.DefaultMoveKeep))
	fs.BoolVar(&o.CubeAlone, "cube-alone", o.CubeAlone, "judge 0-ply cube decisions by the --cube-weights networks alone, leaving the main network out (for networks fitted to the doubling window)")
	fs.BoolVar(&o.NoWindow, "no-window", o.NoWindow, "judge the default player's 0-ply cube decisions by the main and second networks (bgbot's rule until 2026-11-26) not by the embedded networks of the doubling window alone (--cube-weights and --no-second set the window networks aside too)")
	fs.BoolVar(&o.NoSecond, "no-second", o.NoSecond, "the default network alone: without it, and without --weights, the embedded second network joins the 0-ply choice among the best moves and the 0-ply cube decisions (unless --move-weights or --cube-weights name others)")
	fs.BoolVar(&o.CubefulMoves, "cubeful-moves", o.CubefulMoves, "choose moves by the cubeful equity the opponent faces after them (cube ownership, the Jacoby rule), as gnubg does; --cubeful-moves=false chooses by cubeless equity (dead-cube match winning chances in matches)")
	fs.BoolVar(&o.RaceGammons, "race-gammons", o.RaceGammons, "in races where a side has all 15 checkers on the board and the other is home, take the gammon chances from its rolls to its first checker off and the other side's rolls to finish (the 15-checker bearoff database and a short one-sided search) instead of the network; --race-gammons=false keeps the network's")
	fs.StringSliceVar(&o.CubelessClasses, "cubeless-classes", o.CubelessClasses, "with --cubeful-moves, choose moves by cubeless equity all the same when the position before the move is of these classes (contact, crashed, race; comma-separated or repeated)")
	fs.StringVar(&o.PrunerFile, "pruner", o.PrunerFile, "pruning network file from bgtrain makepruner (default: the embedded one, distilled from the default weights)")
	return fs
}

type levelValue bgbot.Level

func (l *levelValue) String() string { return bgbot.Level(*l).String() }
func (l *levelValue) Type() string   { return "level" }
func (l *levelValue) Set(s string) error {
	v, err := bgbot.ParseLevel(s)
	if err != nil {
		return err
	}
	*l = levelValue(v)
	return nil
}

// ParseArgs parses an engine argument list (without a program name) into
// options, starting from DefaultOptions. Positional arguments are errors;
// --help returns an error wrapping pflag.ErrHelp.
func ParseArgs(args []string) (Options, error) {
	o := DefaultOptions()
	fs := FlagSet(Name, &o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return Options{}, fmt.Errorf("bgbot arguments: %w", err)
	}
	if fs.NArg() > 0 {
		return Options{}, fmt.Errorf("bgbot arguments: unexpected argument %q", fs.Arg(0))
	}
	if o.Plies < 0 || o.Plies > bgbot.MaxPlies {
		return Options{}, fmt.Errorf("bgbot arguments: --plies %d out of range 0..%d", o.Plies, bgbot.MaxPlies)
	}
	if o.Bearoff2 < 0 || o.Bearoff2 > bgbot.MaxBearoff2Checkers {
		return Options{}, fmt.Errorf("bgbot arguments: --bearoff2 %d out of range 0..%d", o.Bearoff2, bgbot.MaxBearoff2Checkers)
	}
	if o.BearoffCheckers < 1 || o.BearoffCheckers > 15 {
		return Options{}, fmt.Errorf("bgbot arguments: --bearoff-checkers %d out of range 1..15", o.BearoffCheckers)
	}
	if o.CubePlies < 0 || o.CubePlies > bgbot.MaxPlies {
		return Options{}, fmt.Errorf("bgbot arguments: --cube-plies %d out of range 0..%d", o.CubePlies, bgbot.MaxPlies)
	}
	if slices.Contains(o.CubeWeightsFiles, "") {
		return Options{}, fmt.Errorf("bgbot arguments: --cube-weights names an empty file")
	}
	if slices.Contains(o.MoveWeightsFiles, "") {
		return Options{}, fmt.Errorf("bgbot arguments: --move-weights names an empty file")
	}
	if o.MoveKeep < 0 {
		return Options{}, fmt.Errorf("bgbot arguments: --move-keep %d must be at least 0", o.MoveKeep)
	}
	if o.PruneRoot < 0 {
		return Options{}, fmt.Errorf("bgbot arguments: --prune-root %d must be at least 0", o.PruneRoot)
	}
	if _, err := bgbot.ParseClasses(o.CubelessClasses); err != nil {
		return Options{}, fmt.Errorf("bgbot arguments: --cubeless-classes: %w", err)
	}
	if !(o.MoneyCubeEfficiency >= 0 && o.MoneyCubeEfficiency <= 1) {
		return Options{}, fmt.Errorf("bgbot arguments: --money-cube-efficiency %v out of range 0..1", o.MoneyCubeEfficiency)
	}
	if !(o.Noise >= 0) || math.IsInf(o.Noise, 0) {
		return Options{}, fmt.Errorf("bgbot arguments: --noise %v must be a finite number >= 0", o.Noise)
	}
	for _, m := range []struct {
		flag  string
		value float64
	}{{"--double-margin", o.DoubleMargin}, {"--money-double-margin", o.MoneyDoubleMargin}, {"--pass-margin", o.PassMargin}} {
		if !(math.Abs(m.value) <= 1) {
			return Options{}, fmt.Errorf("bgbot arguments: %s %v out of range -1..1", m.flag, m.value)
		}
	}
	return o, nil
}

// Engine is the protocol adapter. It is for one connection at a time (the
// protocol server calls it one command at a time).
type Engine struct {
	bot *bgbot.Bot
	bgstate.Keeper
}

// New builds an engine, loading the weights the options name.
func New(opts Options) (*Engine, error) {
	w := opts.Weights
	if w == nil && opts.WeightsFile != "" {
		var err error
		if w, err = readWeightsFile(opts.WeightsFile); err != nil {
			return nil, fmt.Errorf("bgbot: %w", err)
		}
	}
	db := opts.Bearoff
	if db == nil && opts.Level == bgbot.LevelNet {
		var err error
		if db, err = opts.loadBearoff(); err != nil {
			return nil, fmt.Errorf("bgbot: %w", err)
		}
	}
	db2 := opts.Bearoff2DB
	if db2 == nil && opts.Bearoff2 > 0 && opts.Level == bgbot.LevelNet {
		var err error
		if db2, err = bgbot.NewBearoff2(opts.Bearoff2); err != nil {
			return nil, fmt.Errorf("bgbot: %w", err)
		}
	}
	cubeWeights, err := loadWeightsFiles(opts.CubeWeights, opts.CubeWeightsFiles, nil)
	if err != nil {
		return nil, err
	}
	moveWeights, err := loadWeightsFiles(opts.MoveWeights, opts.MoveWeightsFiles, nil)
	if err != nil {
		return nil, err
	}
	// The window networks judge the cube alone unless other cube networks
	// are named. Factory.share sets opts.Window (and opts.Weights, after
	// which defaultPlayer is false) for the default player.
	cubeAlone, window := opts.CubeAlone, opts.Window
	if window == nil && opts.windowCube() {
		if window, err = bgbot.DefaultWindowWeights(); err != nil {
			return nil, fmt.Errorf("bgbot: %w", err)
		}
	}
	if len(window) > 0 && len(cubeWeights) == 0 {
		cubeWeights, cubeAlone = window, true
	}
	second := opts.Second
	if second == nil && opts.defaultPlayer() {
		if second, err = bgbot.DefaultSecondWeights(); err != nil {
			return nil, fmt.Errorf("bgbot: %w", err)
		}
	}
	if second != nil {
		if len(cubeWeights) == 0 {
			cubeWeights = []*bgbot.Weights{second}
		}
		if len(moveWeights) == 0 {
			moveWeights = []*bgbot.Weights{second}
		}
	}
	pruner := opts.Pruner
	if pruner == nil && opts.prunes() {
		var err error
		if pruner, err = readPruner(opts.PrunerFile); err != nil {
			return nil, fmt.Errorf("bgbot: %w", err)
		}
	}
	cubeless, err := bgbot.ParseClasses(opts.CubelessClasses)
	if err != nil {
		return nil, fmt.Errorf("bgbot: cubeless classes: %w", err)
	}
	bot, err := bgbot.NewBot(bgbot.Config{Level: opts.Level, Plies: opts.Plies, CubePlies: opts.CubePlies, Noise: opts.Noise, Seed: opts.Seed,
		DoubleMargin: opts.DoubleMargin, MoneyDoubleMargin: opts.MoneyDoubleMargin, PassMargin: opts.PassMargin, JanowskiOneWay: opts.JanowskiOneWay,
		MoneyCubeEfficiency: opts.MoneyCubeEfficiency,
		CubefulMoves:        opts.CubefulMoves, CubelessClasses: cubeless, RaceGammons: opts.RaceGammons,
		Weights: w, CubeWeights: cubeWeights, CubeAlone: cubeAlone, MoveWeights: moveWeights, MoveKeep: opts.MoveKeep,
		Bearoff: db, Bearoff2: db2, Pruner: pruner, RootKeep: opts.PruneRoot})
	if err != nil {
		return nil, fmt.Errorf("bgbot: %w", err)
	}
	return &Engine{bot: bot}, nil
}

// loadWeightsFiles returns loaded when it is set, else the weights files
// paths name, read once each into cache when there is one.
func loadWeightsFiles(loaded []*bgbot.Weights, paths []string, cache map[string]*bgbot.Weights) ([]*bgbot.Weights, error) {
	if loaded != nil {
		return loaded, nil
	}
	var out []*bgbot.Weights
	for _, path := range paths {
		w := cache[path]
		if w == nil {
			var err error
			if w, err = readWeightsFile(path); err != nil {
				return nil, fmt.Errorf("bgbot: %w", err)
			}
			if cache != nil {
				cache[path] = w
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// NewServer returns a protocol server with the backgammon command set
// registered for e.
func NewServer(e *Engine) *protocol.Server {
	s := protocol.NewServer(Name, Version)
	bgcmd.Register(s, e)
	return s
}

// Serve runs an engine with opts over r and w until quit, the end of r or
// the cancellation of ctx.
func Serve(ctx context.Context, opts Options, r io.Reader, w io.Writer) error {
	e, err := New(opts)
	if err != nil {
		return err
	}
	if err := NewServer(e).Serve(ctx, r, w); err != nil {
		return fmt.Errorf("bgbot: %w", err)
	}
	return nil
}

// SetGame implements bgcmd.Engine. It forgets the position.
func (e *Engine) SetGame(r bgcmd.GameRules) error {
	if err := e.Keeper.SetGame(r); err != nil {
		return err
	}
	e.bot.SetVariant(e.GameRules().Variant)
	return nil
}

// GenMove implements bgcmd.Engine: the move in gnubg
// notation, or "none" when no checker can move.
func (e *Engine) GenMove(ctx context.Context) (string, error) {
	s, err := e.Need(backgammon.DecideMove)
	if err != nil {
		return "", err
	}
	m, ok, err := e.bot.Move(s)
	if err != nil {
		return "", err
	}
	if !ok {
		return bgcmd.NoMove, nil
	}
	return backgammon.Format(s.Board, m), nil
}

// GenCube implements bgcmd.Engine. A player who may not
// double (cube owned by the opponent, Crawford game, cubeless play)
// answers no_double.
func (e *Engine) GenCube(ctx context.Context) (bool, error) {
	s, err := e.Need(backgammon.DecideCube, backgammon.NeedRoll)
	if err != nil {
		return false, err
	}
	return e.bot.Double(s)
}

// GenTake implements bgcmd.Engine.
func (e *Engine) GenTake(ctx context.Context) (backgammon.Answer, error) {
	s, err := e.Need(backgammon.DecideTake)
	if err != nil {
		return 0, err
	}
	a, err := e.bot.Take(s)
	if err != nil {
		return 0, err
	}
	switch a {
	case backgammon.Take:
		return backgammon.Take, nil
	case backgammon.Beaver:
		return backgammon.Beaver, nil
	}
	return backgammon.Drop, nil
}

// GenResign implements bgcmd.Resigner: the bot resigns only a loss it is
// sure of (bgbot.Bot.Resignation).
func (e *Engine) GenResign(ctx context.Context) (backgammon.Result, error) {
	s, err := e.Need(backgammon.DecideCube, backgammon.NeedRoll)
	if err != nil {
		return backgammon.NoResult, err
	}
	return e.bot.Resignation(s), nil
}

// GenAccept implements bgcmd.Resigner (bgbot.Bot.AcceptResignation).
func (e *Engine) GenAccept(ctx context.Context) (bool, error) {
	s, err := e.Need(backgammon.DecideResign)
	if err != nil {
		return false, err
	}
	return e.bot.AcceptResignation(s)
}

// Evaluate implements bgcmd.Evaluator: the cubeless probabilities of the
// position for the player on roll (before the roll, at the configured
// depth) and their cubeless money equity.
func (e *Engine) Evaluate(ctx context.Context) ([6]float64, error) {
	s, err := e.State()
	if err != nil {
		return [6]float64{}, err
	}
	e.bot.SetVariant(s.Variant)
	p := e.bot.Probs(s.Board)
	var v [6]float64
	for i, x := range p {
		v[i] = float64(x)
	}
	v[5] = float64(p.Equity())
	return v, nil
}

// Factory makes engines from argument lists (see ParseArgs) for a host
// that starts many of them, as the ringmaster does for players of kind
// "builtin" (a fresh engine per game). Engines made by one Factory share
// what is read-only and costly to build: the network weights of each
// weights file and the bearoff database, each made once, on first use.
// A Factory is safe for concurrent use; its zero value is ready.
type Factory struct {
	mu      sync.Mutex
	weights map[string]*bgbot.Weights // by file; "" is the embedded default
	bearoff map[string]*bgbot.Bearoff // by Options.bearoffKey
	two     map[int]*bgbot.Bearoff2   // by checkers
	pruners map[string]*bgbot.Pruner  // by file; "" is the embedded one
	second  *bgbot.Weights            // the embedded second network
	window  []*bgbot.Weights          // the embedded networks of the doubling window
}

// Server builds an engine from args and returns its protocol server.
func (f *Factory) Server(args []string) (*protocol.Server, error) {
	e, err := f.Engine(args)
	if err != nil {
		return nil, err
	}
	return NewServer(e), nil
}

// Engine builds an engine from args, sharing the factory's networks and
// databases, for hosts that call it directly (the HTTP API).
func (f *Factory) Engine(args []string) (*Engine, error) {
	opts, err := ParseArgs(args)
	if err != nil {
		return nil, err
	}
	if opts.Level == bgbot.LevelNet {
		if err := f.share(&opts); err != nil {
			return nil, err
		}
	}
	return New(opts)
}

// share fills opts with the factory's weights and bearoff database,
// building them the first time they are asked for.
func (f *Factory) share(opts *Options) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if opts.Second == nil && opts.defaultPlayer() {
		if f.second == nil {
			var err error
			if f.second, err = bgbot.DefaultSecondWeights(); err != nil {
				return fmt.Errorf("bgbot: %w", err)
			}
		}
		opts.Second = f.second
	}
	if opts.Window == nil && opts.windowCube() {
		if f.window == nil {
			var err error
			if f.window, err = bgbot.DefaultWindowWeights(); err != nil {
				return fmt.Errorf("bgbot: %w", err)
			}
		}
		opts.Window = f.window
	}
	if f.weights == nil {
		f.weights = map[string]*bgbot.Weights{}
	}
	w := f.weights[opts.WeightsFile]
	if w == nil {
		var err error
		if opts.WeightsFile == "" {
			w, err = bgbot.DefaultWeights()
		} else {
			w, err = readWeightsFile(opts.WeightsFile)
		}
		if err != nil {
			return fmt.Errorf("bgbot: %w", err)
		}
		f.weights[opts.WeightsFile] = w
	}
	var err error
	if opts.CubeWeights, err = loadWeightsFiles(opts.CubeWeights, opts.CubeWeightsFiles, f.weights); err != nil {
		return err
	}
	if opts.MoveWeights, err = loadWeightsFiles(opts.MoveWeights, opts.MoveWeightsFiles, f.weights); err != nil {
		return err
	}
	if f.bearoff == nil {
		f.bearoff = map[string]*bgbot.Bearoff{}
	}
	key := opts.bearoffKey()
	db := f.bearoff[key]
	if db == nil {
		var err error
		if db, err = opts.loadBearoff(); err != nil {
			return fmt.Errorf("bgbot: %w", err)
		}
		f.bearoff[key] = db
	}
	opts.Weights, opts.Bearoff = w, db
	if opts.prunes() {
		if f.pruners == nil {
			f.pruners = map[string]*bgbot.Pruner{}
		}
		p := f.pruners[opts.PrunerFile]
		if p == nil {
			var err error
			if p, err = readPruner(opts.PrunerFile); err != nil {
				return fmt.Errorf("bgbot: %w", err)
			}
			f.pruners[opts.PrunerFile] = p
		}
		opts.Pruner = p
	}
	if opts.Bearoff2 > 0 {
		if f.two == nil {
			f.two = map[int]*bgbot.Bearoff2{}
		}
		db2 := f.two[opts.Bearoff2]
		if db2 == nil {
			var err error
			if db2, err = bgbot.NewBearoff2(opts.Bearoff2); err != nil {
				return fmt.Errorf("bgbot: %w", err)
			}
			f.two[opts.Bearoff2] = db2
		}
		opts.Bearoff2DB = db2
	}
	return nil
}

// defaultPlayer reports whether the options are the default player's:
// the net level with the embedded network and its second opinion.
func (o Options) defaultPlayer() bool {
	return o.Level == bgbot.LevelNet && !o.NoSecond && o.WeightsFile == "" && o.Weights == nil
}

// windowCube reports whether the options leave the default player's cube
// decisions to the embedded networks of the doubling window: no
// --no-window, and no cube networks named.
func (o Options) windowCube() bool {
	return o.defaultPlayer() && !o.NoWindow && len(o.CubeWeights)+len(o.CubeWeightsFiles) == 0
}

// prunes reports whether the options ask for a pruner: a searching net,
// or one pruning its root, without --no-prune.
func (o Options) prunes() bool {
	return o.Level == bgbot.LevelNet && !o.NoPrune && (max(o.Plies, o.CubePlies) > 0 || o.PruneRoot > 0)
}

// readPruner reads a pruner file, or the embedded pruner for "".
func readPruner(path string) (*bgbot.Pruner, error) {
	if path == "" {
		return bgbot.DefaultPruner()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := bgbot.ParsePruner(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

func readWeightsFile(path string) (*bgbot.Weights, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w, err := bgbot.ReadWeights(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

// Bot is the engine's bot, for tools that ask it directly.
func (e *Engine) Bot() *bgbot.Bot { return e.bot }
