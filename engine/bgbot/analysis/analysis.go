// Package analysis judges the play of a recorded backgammon match as GNU
// Backgammon's match analysis does, with bgbot's network as the judge: the
// equity each chequer play and cube decision gave up against the best one,
// the luck of every roll, and per player, per game and overall the error
// rates, the manual's rating and luck labels and the FIBS rating estimates
// that follow from them.
//
// Units. Money games are judged in cubeful equity (Janowski's model at the
// judge's cube efficiency), matches in match winning chance (MWC, from
// bgbot's match equity table and its live-cube model). Every error and luck
// figure is also given normalised to EMG (equivalent to money game) as
// gnubg normalises it: in a money game the equity per unit of the cube; in
// a match 2*dMWC/(W-L), W and L being the MWC after winning and after
// losing a single game at the current cube, so that a double/pass is worth
// exactly 1. Errors are equity lost, positive numbers (gnubg prints them
// negative).
//
// Judging. A chequer play is judged at the chosen depth: every legal move
// at 0 ply, then the survivors of bgbot's default move filters deeper, the
// move played always among them. A cube decision is judged at the chosen
// depth with bgbot's cube model. Luck is always judged at 0 ply, as gnubg
// does by default: the equity after the best move for the roll, minus the
// average of that over the 21 rolls (the 15 non-doubles for a game's
// opening roll).
package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/record"
)

// CloseCubeThreshold is gnubg's margin for a close cube decision: a
// no-double counts as a cube decision when the best cube action's equity
// is less than this (EMG) above the double's, min(double/take, 1).
const CloseCubeThreshold = 0.16

// Config configures an Analyser.
type Config struct {
	// Plies is the depth of the chequer and cube judgement, 0..bgbot.MaxPlies.
	Plies int
	// Weights are the network's; nil uses bgbot's default weights.
	Weights *bgbot.Weights
	// Bearoff is shared with other bots to save building it; nil builds one.
	Bearoff *bgbot.Bearoff
}

// Analyser analyses match records. It holds one bot per depth and is for
// one goroutine at a time; make one per worker.
type Analyser struct {
	plies int
	bots  []*bgbot.Bot // bots[k] judges k plies deep
	met   *bgbot.MET
	gen   *backgammon.MoveGen // the roll played
	lgen  *backgammon.MoveGen // the other rolls, for luck
}

// New builds an Analyser.
func New(cfg Config) (*Analyser, error) {
	if cfg.Plies < 0 || cfg.Plies > bgbot.MaxPlies {
		return nil, fmt.Errorf("analysis: plies %d out of range 0..%d", cfg.Plies, bgbot.MaxPlies)
	}
	w := cfg.Weights
	if w == nil {
		var err error
		if w, err = bgbot.DefaultWeights(); err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
	}
	db := cfg.Bearoff
	if db == nil {
		var err error
		if db, err = bgbot.NewBearoff(bgbot.DefaultBearoffCheckers); err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
	}
	a := &Analyser{plies: cfg.Plies, gen: backgammon.NewMoveGen(), lgen: backgammon.NewMoveGen()}
	for k := 0; k <= cfg.Plies; k++ {
		bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Plies: k, Weights: w, Bearoff: db})
		if err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		a.bots = append(a.bots, bot)
	}
	return a, nil
}

// Plies is the analyser's depth.
func (a *Analyser) Plies() int { return a.plies }

// AnalyseMatch analyses m with a fresh Analyser at the given depth. To
// analyse many records, make one Analyser and call its AnalyseMatch.
func AnalyseMatch(ctx context.Context, m *record.Match, plies int) (*Report, error) {
	a, err := New(Config{Plies: plies})
	if err != nil {
		return nil, err
	}
	return a.AnalyseMatch(ctx, m)
}

// DecisionKind says what a Decision judged.
type DecisionKind int

const (
	ChequerPlay DecisionKind = iota + 1 // a roll and the move played with it
	CubeAction                          // the player on roll doubled or did not
	TakeAction                          // the player doubled took (or beavered) or dropped
)

func (k DecisionKind) String() string {
	switch k {
	case ChequerPlay:
		return "move"
	case CubeAction:
		return "cube"
	case TakeAction:
		return "take"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Decision is the judgement of one decision.
type Decision struct {
	Game   int // index into Report.Games
	Action int // index into the game's actions
	Player int
	Kind   DecisionKind

	// ChequerPlay: the roll, the move played, the best move found, how many
	// distinct legal plays there were (0 or 1: forced, not counted as an
	// error chance), and the luck of the roll.
	Dice       [2]int
	Move       string
	BestMove   string
	Plays      int
	Luck       float64 // EMG
	LuckUnnorm float64 // points (money) or MWC (match)

	// CubeAction and TakeAction: the doubler's equities (EMG) of no double,
	// double/take and double/pass, what was done, and whether the decision
	// counts (close, or an actual double, take or drop).
	NoDouble, DoubleTake, DoublePass float64
	Doubled                          bool // CubeAction: the player doubled
	Took                             bool // TakeAction: took or beavered
	Close                            bool

	// Error is the equity given up against the best choice (EMG, >= 0);
	// ErrorUnnorm the same in points (money) or MWC (match).
	Error       float64
	ErrorUnnorm float64
}

// Forced reports whether a chequer play had no choice.
func (d *Decision) Forced() bool { return d.Kind == ChequerPlay && d.Plays <= 1 }

// Stats are one player's totals over a game or a match, as gnubg's
// statistics read.
type Stats struct {
	TotalMoves    int // rolls moved with (forced ones and dances included)
	UnforcedMoves int // with more than one distinct legal play
	ForcedMoves   int // one legal play or none
	ChequerError  float64
	ChequerUnnorm float64
	VeryBadMoves  int // error above 0.08 EMG (gnubg's "very bad" mark)

	CubeDecisions int // every chance to double, and every double answered
	CloseCube     int // close or actual cube decisions
	Doubles       int
	Takes         int // beavers included
	Drops         int
	MissedDoubles int
	WrongDoubles  int
	WrongTakes    int
	WrongDrops    int
	CubeError     float64
	CubeUnnorm    float64
	Resignations  int // offered or answered; not judged

	Luck        float64 // EMG, positive is lucky
	LuckUnnorm  float64
	VeryLucky   int
	Lucky       int
	Unlucky     int
	VeryUnlucky int

	// Result is the player's actual result, LuckAdjusted the result minus
	// the player's luck and plus the opponent's, both in points (money) or
	// MWC (match; a match won from 0-0 is +0.5).
	Result       float64
	LuckAdjusted float64
}

func (s *Stats) add(o *Stats) {
	s.TotalMoves += o.TotalMoves
	s.UnforcedMoves += o.UnforcedMoves
	s.ForcedMoves += o.ForcedMoves
	s.ChequerError += o.ChequerError
	s.ChequerUnnorm += o.ChequerUnnorm
	s.VeryBadMoves += o.VeryBadMoves
	s.CubeDecisions += o.CubeDecisions
	s.CloseCube += o.CloseCube
	s.Doubles += o.Doubles
	s.Takes += o.Takes
	s.Drops += o.Drops
	s.MissedDoubles += o.MissedDoubles
	s.WrongDoubles += o.WrongDoubles
	s.WrongTakes += o.WrongTakes
	s.WrongDrops += o.WrongDrops
	s.CubeError += o.CubeError
	s.CubeUnnorm += o.CubeUnnorm
	s.Resignations += o.Resignations
	s.Luck += o.Luck
	s.LuckUnnorm += o.LuckUnnorm
	s.VeryLucky += o.VeryLucky
	s.Lucky += o.Lucky
	s.Unlucky += o.Unlucky
	s.VeryUnlucky += o.VeryUnlucky
	s.Result += o.Result
	s.LuckAdjusted += o.LuckAdjusted
}

func ratio(a float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return a / float64(n)
}

// ChequerErrorRate is the chequer error per unforced move, EMG (NaN with
// no unforced move). Multiply by 1000 for mEMG.
func (s *Stats) ChequerErrorRate() float64 { return ratio(s.ChequerError, s.UnforcedMoves) }

// CubeErrorRate is the cube error per close cube decision, EMG.
func (s *Stats) CubeErrorRate() float64 { return ratio(s.CubeError, s.CloseCube) }

// OverallErrorRate is all errors per unforced move or close cube decision.
func (s *Stats) OverallErrorRate() float64 {
	return ratio(s.ChequerError+s.CubeError, s.UnforcedMoves+s.CloseCube)
}

// LuckRate is the luck per move, EMG (gnubg divides by all moves).
func (s *Stats) LuckRate() float64 { return ratio(s.Luck, s.TotalMoves) }

// RatingLabel is the manual's label for the overall error rate.
func (s *Stats) RatingLabel() string { return RatingLabel(s.OverallErrorRate()) }

// LuckLabel is the manual's label for the luck rate.
func (s *Stats) LuckLabel() string { return LuckLabel(s.LuckRate()) }

// RatingEstimate is the absolute FIBS rating estimate for an n-point match
// (AbsoluteRating), NaN for money play (n = 0) or with no decisions.
func (s *Stats) RatingEstimate(n int) float64 {
	if n < 1 || s.UnforcedMoves+s.CloseCube == 0 {
		return math.NaN()
	}
	return AbsoluteRating(s.ChequerErrorRate(), s.CubeErrorRate(), n)
}

// GameReport is the analysis of one game.
type GameReport struct {
	Number      int
	ScoreBefore [2]int
	Stats       [2]Stats
	Decisions   []Decision
}

// Report is the analysis of a match or money session.
type Report struct {
	Players     [2]string
	MatchLength int // 0 for money play
	Plies       int
	Games       []GameReport
	Overall     [2]Stats
}

// RatingDifference is player 0's rating minus player 1's from their overall
// error rates in an n-point match (a2(N)*EPM + b(N)*EPC); NaN for money.
func (r *Report) RatingDifference() float64 {
	if r.MatchLength < 1 {
		return math.NaN()
	}
	return r.Overall[0].RatingEstimate(r.MatchLength) - r.Overall[1].RatingEstimate(r.MatchLength)
}

// SingleRateDifference is player 0's rating minus player 1's by the
// one-rate form a(N)*DEPD; NaN for money.
func (r *Report) SingleRateDifference() float64 {
	if r.MatchLength < 1 {
		return math.NaN()
	}
	return SingleRateDifference(r.Overall[0].OverallErrorRate(), r.Overall[1].OverallErrorRate(), r.MatchLength)
}

// LuckBasedDifference is player 0's rating minus player 1's implied by
// player 0's luck-adjusted match result (0.5 plus the luck-adjusted result
// in MWC); NaN for money.
func (r *Report) LuckBasedDifference() float64 {
	if r.MatchLength < 1 {
		return math.NaN()
	}
	return LuckBasedRatingDifference(0.5+r.Overall[0].LuckAdjusted, r.MatchLength)
}

// ctxEvery is how many actions pass between context checks.
const ctxEvery = 16

// AnalyseMatch analyses every game of m. m is walked, not changed; it must
// replay under the rules (record.Replay checks that and fills what formats
// leave out, such as resignations, so call it first for a record read
// from a file).
func (a *Analyser) AnalyseMatch(ctx context.Context, m *record.Match) (*Report, error) {
	rep := &Report{Players: m.Players, MatchLength: m.MatchLength, Plies: a.plies}
	if a.met == nil {
		// The table the bot's own cube decisions use (Kazaross-XG2), so
		// that judge and player count match equity alike.
		met, err := bgbot.DefaultMET()
		if err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		a.met = met
	}
	w := walker{a: a, rep: rep}
	steps := 0
	err := record.Walk(m, func(p *record.Position) error {
		if steps++; steps%ctxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		return w.visit(p)
	})
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	w.results(m)
	for i := range rep.Games {
		for p := range 2 {
			rep.Overall[p].add(&rep.Games[i].Stats[p])
		}
	}
	return rep, nil
}

// walker carries the state of one analysis between visits.
type walker struct {
	a        *Analyser
	rep      *Report
	startMWC []float64 // player 0's MWC at the start of each game
	doubled  bool      // the player on roll doubled this turn
	cube     Decision  // that double's judgement, for the answer
}

func (w *walker) visit(p *record.Position) error {
	s := p.State
	if p.GameIndex != len(w.rep.Games)-1 {
		// The game's first action: StartGame has run (and the start
		// position is set up), so the state is this game's.
		w.rep.Games = append(w.rep.Games, GameReport{Number: p.GameIndex + 1, ScoreBefore: p.Game.ScoreBefore})
		w.startMWC = append(w.startMWC, w.a.gameStartMWC(s))
		w.doubled = false
	}
	g := &w.rep.Games[len(w.rep.Games)-1]
	// Only the opening roll comes without a cube decision before it and
	// with no doublets possible; a game set up at a position (Game.Start)
	// has none.
	opening := p.ActionIndex == 0 && p.Game.Start == ""
	switch p.Action.Kind {
	case record.Move, record.Roll:
		if p.Action.Kind == record.Roll {
			return nil
		}
		if !w.doubled && !opening {
			before := *s
			before.Dice = [2]int{}
			if w.a.cubeAlive(&before) {
				d, err := w.a.cubeDecision(&before)
				if err != nil {
					return err
				}
				d.Game, d.Action, d.Player = p.GameIndex, p.ActionIndex, s.Move
				judgeNoDouble(&d, w.a.scaleOf(&before))
				g.record(&d)
			}
		}
		w.doubled = false
		d, err := w.a.chequer(s, p.Board, p.Move, opening)
		if err != nil {
			return err
		}
		d.Game, d.Action, d.Player = p.GameIndex, p.ActionIndex, s.Move
		g.record(&d)
	case record.Double:
		d, err := w.a.cubeDecision(s)
		if err != nil {
			return err
		}
		d.Game, d.Action, d.Player = p.GameIndex, p.ActionIndex, s.Move
		d.Doubled = true
		judgeDouble(&d, w.a.scaleOf(s))
		g.record(&d)
		w.cube, w.doubled = d, true
	case record.Take, record.Beaver, record.Drop:
		if !w.doubled {
			return errors.New("an answer to a double that was not analysed")
		}
		d := w.cube
		d.Kind, d.Action, d.Player = TakeAction, p.ActionIndex, p.Action.Player
		d.Took = p.Action.Kind != record.Drop
		judgeTake(&d, w.a.scaleOf(s))
		g.record(&d)
	case record.Resign, record.AcceptResignation, record.DeclineResignation:
		g.Stats[p.Action.Player].Resignations++
	}
	return nil
}

// results settles each game's actual and luck-adjusted results: points in
// money play; in a match the change of player 0's MWC from the start of
// the game to the start of the next (or to the end of the match).
func (w *walker) results(m *record.Match) {
	for i := range w.rep.Games {
		g := &w.rep.Games[i]
		rg := &m.Games[i]
		var res float64
		switch {
		case m.MatchLength == 0:
			if rg.Finished() {
				res = float64(rg.Points)
				if rg.Winner == 1 {
					res = -res
				}
			}
		case i+1 < len(w.rep.Games):
			res = w.startMWC[i+1] - w.startMWC[i]
		case rg.Finished():
			score := rg.ScoreBefore
			score[rg.Winner] += rg.Points
			after := w.a.met.Win(m.MatchLength-score[0], m.MatchLength-score[1], true)
			res = after - w.startMWC[i]
		}
		g.Stats[0].Result, g.Stats[1].Result = res, -res
		net := g.Stats[0].LuckUnnorm - g.Stats[1].LuckUnnorm
		g.Stats[0].LuckAdjusted, g.Stats[1].LuckAdjusted = res-net, net-res
	}
}

func (g *GameReport) record(d *Decision) {
	st := &g.Stats[d.Player]
	switch d.Kind {
	case ChequerPlay:
		st.TotalMoves++
		if d.Forced() {
			st.ForcedMoves++
		} else {
			st.UnforcedMoves++
			st.ChequerError += d.Error
			st.ChequerUnnorm += d.ErrorUnnorm
			if d.Error > 0.08 {
				st.VeryBadMoves++
			}
		}
		st.Luck += d.Luck
		st.LuckUnnorm += d.LuckUnnorm
		switch {
		case d.Luck > VeryLuckyThreshold:
			st.VeryLucky++
		case d.Luck > LuckyThreshold:
			st.Lucky++
		case d.Luck < -VeryLuckyThreshold:
			st.VeryUnlucky++
		case d.Luck < -LuckyThreshold:
			st.Unlucky++
		}
	case CubeAction, TakeAction:
		st.CubeDecisions++
		if d.Close {
			st.CloseCube++
		}
		st.CubeError += d.Error
		st.CubeUnnorm += d.ErrorUnnorm
		switch {
		case d.Kind == CubeAction && d.Doubled:
			st.Doubles++
			if d.Error > 0 {
				st.WrongDoubles++
			}
		case d.Kind == CubeAction && d.Error > 0:
			st.MissedDoubles++
		case d.Kind == TakeAction && d.Took:
			st.Takes++
			if d.Error > 0 {
				st.WrongTakes++
			}
		case d.Kind == TakeAction:
			st.Drops++
			if d.Error > 0 {
				st.WrongDrops++
			}
		}
	}
	g.Decisions = append(g.Decisions, *d)
}

// scale converts the native units of the player on roll of a state (cube
// units in money play, MWC in matches) into EMG.
type scale struct {
	money bool
	cube  float64
	w, l  float64 // match: MWC after winning, after losing a single game at the cube
}

func (a *Analyser) scaleOf(s *backgammon.State) scale {
	if s.Money() {
		return scale{money: true, cube: float64(s.CubeValue)}
	}
	me, opp, pc := a.needs(s, s.Move)
	c := s.CubeValue
	return scale{w: a.met.Win(me-c, opp, pc), l: a.met.Win(me, opp-c, pc), cube: float64(c)}
}

// emg converts a value to EMG.
func (sc scale) emg(v float64) float64 {
	if sc.money || sc.w-sc.l < 1e-12 {
		return v
	}
	return (2*v - (sc.w + sc.l)) / (sc.w - sc.l)
}

// unnorm converts a difference in EMG into points (money) or MWC (match).
func (sc scale) unnorm(d float64) float64 {
	if sc.money {
		return d * sc.cube
	}
	return d * (sc.w - sc.l) / 2
}

// needs returns the points player needs, the points the opponent needs,
// and whether the match equity table's post-Crawford entries apply (as
// bgbot's cube model decides it).
func (a *Analyser) needs(s *backgammon.State, player int) (me, opp int, postCrawford bool) {
	return s.MatchLength - s.Score[player], s.MatchLength - s.Score[1-player],
		s.CrawfordGame || s.PostCrawford || !s.Rules.Crawford
}

// gameStartMWC is player 0's MWC at the start of the game s is in.
func (a *Analyser) gameStartMWC(s *backgammon.State) float64 {
	if s.Money() {
		return 0
	}
	me, opp, _ := a.needs(s, 0)
	return a.met.Win(me, opp, s.PostCrawford || !s.Rules.Crawford)
}

// cubeAlive reports whether the player on roll of s (before the roll) may
// double and the cube would mean something: in a match, a player who
// needs no more than the cube's value gains nothing by doubling (gnubg
// does not analyse such a cube either).
func (a *Analyser) cubeAlive(s *backgammon.State) bool {
	if !s.CanDouble() {
		return false
	}
	return s.Money() || s.MatchLength-s.Score[s.Move] > s.CubeValue
}

// valueAfter is the mover's value (native units: cube units or MWC) of the
// position b reached by a move of the player on roll of s, judged by bot:
// the opponent's cubeful value before its roll, with its best cube action
// when it may double, from the mover's side.
func (a *Analyser) valueAfter(bot *bgbot.Bot, s *backgammon.State, b *backgammon.Board) (float64, error) {
	checkers := s.Variant.Checkers()
	if p, over := bgbot.Outcome(b, checkers); over {
		return a.terminal(s, p), nil
	}
	o := *s
	o.Board = b.Swap()
	o.Move = 1 - s.Move
	o.Turn = o.Move
	o.Dice = [2]int{}
	if !s.Cube {
		p := bot.Probs(o.Board).Invert()
		return a.cubeless(s, p), nil
	}
	ce, err := bot.Cube(&o)
	if err != nil {
		return 0, err
	}
	v := ce.NoDouble
	if a.cubeAlive(&o) {
		v = max(v, min(ce.DoubleTake, ce.DoublePass))
	}
	if s.Money() {
		return -v, nil
	}
	return 1 - v, nil
}

// terminal is the mover's value of a finished game with outcome p.
func (a *Analyser) terminal(s *backgammon.State, p bgbot.Probs) float64 {
	if s.Money() && s.Cube && s.Jacoby && s.CubeValue == 1 {
		p = bgbot.Probs{bgbot.Win: p[bgbot.Win]}
	}
	return a.cubeless(s, p)
}

// cubeless is the mover's dead-cube value of probabilities p: cubeless
// equity in money play, the MWC of playing the game out at the current
// cube in a match.
func (a *Analyser) cubeless(s *backgammon.State, p bgbot.Probs) float64 {
	if s.Money() {
		return float64(p.Equity())
	}
	me, opp, pc := a.needs(s, s.Move)
	c := s.CubeValue
	f := func(x float32) float64 { return float64(x) }
	ws, wg, wb := f(p[bgbot.Win]-p[bgbot.WinGammon]), f(p[bgbot.WinGammon]-p[bgbot.WinBackgammon]), f(p[bgbot.WinBackgammon])
	ls, lg, lb := f(1-p[bgbot.Win]-p[bgbot.LoseGammon]), f(p[bgbot.LoseGammon]-p[bgbot.LoseBackgammon]), f(p[bgbot.LoseBackgammon])
	m := a.met
	return ws*m.Win(me-c, opp, pc) + wg*m.Win(me-2*c, opp, pc) + wb*m.Win(me-3*c, opp, pc) +
		ls*m.Win(me, opp-c, pc) + lg*m.Win(me, opp-2*c, pc) + lb*m.Win(me, opp-3*c, pc)
}

type cand struct {
	board backgammon.Board
	move  backgammon.Move
	score float64 // EMG
}

// chequer judges the move mv played from board b by the player on roll of
// s (dice set), and the luck of the roll.
func (a *Analyser) chequer(s *backgammon.State, b backgammon.Board, mv backgammon.Move, opening bool) (Decision, error) {
	sc := a.scaleOf(s)
	d := Decision{Kind: ChequerPlay, Dice: s.Dice, Move: backgammon.Format(b, mv)}
	moves, boards := a.gen.Generate(b, s.Dice[0], s.Dice[1])
	played := b.Apply(mv)
	cands := make([]cand, len(boards))
	pi := -1
	best0 := math.Inf(-1)
	for i := range boards {
		v, err := a.valueAfter(a.bots[0], s, &boards[i])
		if err != nil {
			return d, err
		}
		cands[i] = cand{board: boards[i], move: moves[i], score: sc.emg(v)}
		best0 = max(best0, v)
		if boards[i] == played {
			pi = i
		}
	}
	if pi < 0 {
		return d, fmt.Errorf("move %s: not among the legal plays", d.Move)
	}
	d.Plays = len(boards)
	if len(boards) == 1 && moves[0].N == 0 {
		d.Plays = 0
	}
	// Luck: this roll's best 0-ply value against the average roll's.
	avg, err := a.averageRoll(s, b, opening)
	if err != nil {
		return d, err
	}
	lk := sc.emg(best0) - sc.emg(avg)
	d.Luck, d.LuckUnnorm = lk, sc.unnorm(lk)

	playedMove := cands[pi]
	filters := bgbot.DefaultFilters()
	for k := 1; k <= a.plies && len(cands) > 1; k++ {
		slices.SortStableFunc(cands, func(x, y cand) int {
			switch {
			case x.score > y.score:
				return -1
			case x.score < y.score:
				return 1
			}
			return 0
		})
		f := filters[k-1]
		n := 1
		for n < len(cands) && n < f.Keep && cands[n].score >= cands[0].score-float64(f.Margin) {
			n++
		}
		kept := cands[:n]
		if !slices.ContainsFunc(kept, func(c cand) bool { return c.board == played }) {
			kept = append(kept, playedMove)
		}
		cands = kept
		for i := range cands {
			v, err := a.valueAfter(a.bots[k], s, &cands[i].board)
			if err != nil {
				return d, err
			}
			cands[i].score = sc.emg(v)
		}
	}
	bi := 0
	var ps float64
	for i := range cands {
		if cands[i].score > cands[bi].score {
			bi = i
		}
		if cands[i].board == played {
			ps = cands[i].score
		}
	}
	d.BestMove = backgammon.Format(b, cands[bi].move)
	if d.Plays > 1 {
		d.Error = max(cands[bi].score-ps, 0)
		d.ErrorUnnorm = sc.unnorm(d.Error)
	}
	return d, nil
}

// rolls are the 21 distinct rolls with their weights out of 36.
var rolls = func() (r [21]struct{ d1, d2, w int }) {
	i := 0
	for d1 := 1; d1 <= 6; d1++ {
		for d2 := d1; d2 <= 6; d2++ {
			w := 2
			if d1 == d2 {
				w = 1
			}
			r[i].d1, r[i].d2, r[i].w = d1, d2, w
			i++
		}
	}
	return r
}()

// averageRoll is the average, over the rolls, of the best 0-ply value
// (native units) the player on roll of s reaches from b; over the
// non-doubles only for a game's opening roll.
func (a *Analyser) averageRoll(s *backgammon.State, b backgammon.Board, opening bool) (float64, error) {
	var sum, weight float64
	for _, r := range rolls {
		if opening && r.d1 == r.d2 {
			continue
		}
		_, boards := a.lgen.Generate(b, r.d1, r.d2)
		best := math.Inf(-1)
		for i := range boards {
			v, err := a.valueAfter(a.bots[0], s, &boards[i])
			if err != nil {
				return 0, err
			}
			best = max(best, v)
		}
		sum += float64(r.w) * best
		weight += float64(r.w)
	}
	return sum / weight, nil
}

// cubeDecision computes the doubler's cube equities (EMG) for the player
// on roll of s before its roll, at the analyser's depth.
func (a *Analyser) cubeDecision(s *backgammon.State) (Decision, error) {
	before := *s
	before.Dice = [2]int{}
	before.Doubled, before.Turn = false, before.Move
	ce, err := a.bots[a.plies].Cube(&before)
	if err != nil {
		return Decision{}, err
	}
	sc := a.scaleOf(&before)
	return Decision{Kind: CubeAction, NoDouble: sc.emg(ce.NoDouble), DoubleTake: sc.emg(ce.DoubleTake), DoublePass: sc.emg(ce.DoublePass)}, nil
}

// doubleValue is the doubler's value of doubling: the taker's best answer.
func (d *Decision) doubleValue() float64 { return min(d.DoubleTake, d.DoublePass) }

// close is gnubg's test: the best action is less than CloseCubeThreshold
// above min(double/take, 1).
func (d *Decision) close() bool {
	opt := max(d.NoDouble, d.doubleValue())
	return opt-min(d.DoubleTake, 1) < CloseCubeThreshold
}

func judgeNoDouble(d *Decision, sc scale) {
	d.Error = max(d.doubleValue()-d.NoDouble, 0)
	d.ErrorUnnorm = sc.unnorm(d.Error)
	d.Close = d.close() || d.Error > 0
}

func judgeDouble(d *Decision, sc scale) {
	d.Error = max(d.NoDouble-d.doubleValue(), 0)
	d.ErrorUnnorm = sc.unnorm(d.Error)
	d.Close = true
}

// judgeTake judges the answer: the taker loses what the doubler gains.
func judgeTake(d *Decision, sc scale) {
	if d.Took {
		d.Error = max(d.DoubleTake-d.DoublePass, 0)
	} else {
		d.Error = max(d.DoublePass-d.DoubleTake, 0)
	}
	d.Close = true
	d.ErrorUnnorm = sc.unnorm(d.Error)
}
