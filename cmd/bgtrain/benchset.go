package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
	"github.com/spf13/pflag"
)

// benchsetCmd makes a benchmark set: self-play positions, each rolled out.
func benchsetCmd(ctx context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	positions := fs.Int("positions", 300, "positions in the set")
	stride := fs.Int("stride", 25, "take one self-play position in this many (spreads the set over games)")
	trials := fs.Int("trials", 648, "rollout trials a position (a multiple of 36 stratifies the first roll, of 1296 the second too)")
	truncate := fs.Int("truncate", 0, "stop each trial after this many plies and use the evaluation (0: play to the end)")
	seed := fs.Uint64("seed", 1, "seed of the self-play games and of the rollouts' dice")
	weights := fs.String("weights", "", "weights that play the self-play games and the rollouts (default: embedded)")
	workers := fs.IntP("parallel", "j", runtime.NumCPU(), "rollout trials played at once")
	cli.Alias(fs, "workers", "parallel")
	out := fs.String("out", "benchset.txt", "file to write")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *positions < 1 || *stride < 1 || *trials < 1 || *truncate < 0 || *workers < 1 {
		return cli.Usagef("benchset: --positions, --stride, --trials and --parallel must be at least 1, --truncate at least 0")
	}
	w, err := loadWeights(*weights)
	if err != nil {
		return err
	}
	db, err := bgbot.NewBearoff(bgbot.DefaultBearoffCheckers)
	if err != nil {
		return err
	}
	newBot := func() (*bgbot.Bot, error) {
		return bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Weights: w, Bearoff: db})
	}
	begin := time.Now()
	cfg := bgbot.RolloutConfig{Trials: *trials, Seed: *seed, Truncate: *truncate, Workers: *workers}
	set, err := benchset.Make(ctx, w, db, *positions, *stride, *seed, newBot, cfg, func(done int) {
		if done%25 == 0 || done == *positions {
			fmt.Fprintf(stdout, "%d/%d positions rolled out (%v)\n", done, *positions, time.Since(begin).Round(time.Second))
		}
	})
	if err != nil {
		return err
	}
	who := *weights
	if who == "" {
		who = "the embedded default weights"
	}
	header := []string{
		"bgbot benchmark set: positions before the roll, for the player on roll",
		fmt.Sprintf("made by: bgtrain benchset --positions %d --stride %d --trials %d --truncate %d --seed %d", *positions, *stride, *trials, *truncate, *seed),
		fmt.Sprintf("positions from self-play of %s at 0 ply, bear-offs in the 10-checker database left out; rollouts cubeless, both sides %s at 0 ply", who, who),
		fmt.Sprintf("took %v with %d workers", time.Since(begin).Round(time.Second), *workers),
	}
	if err := writeAtomic(*out, func(w io.Writer) error { return benchset.Write(w, header, set) }); err != nil {
		return fmt.Errorf("benchset: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d positions, %d trials each, in %v\n", *out, len(set), *trials, time.Since(begin).Round(time.Second))
	return nil
}

// benchmarkCmd scores weights on a benchmark set.
func benchmarkCmd(_ context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	set := fs.String("set", "engine/bgbot/testdata/benchset.txt", "benchmark set written by bgtrain benchset")
	weights := fs.String("weights", "", "weights to score (default: embedded)")
	plies := fs.Int("plies", 0, "depth of the evaluation scored")
	moves := fs.String("moves", "", "also score the chequer play on this move set (bgtool gnubg-moveset writes one)")
	moveWeights := fs.StringSlice("move-weights", nil, "more networks that score the --move-keep best moves again at 0 ply, by the mean of all (the bgbot engine's second opinion); scored on the move set")
	moveKeep := fs.Int("move-keep", bgbot.DefaultMoveKeep, "moves --move-weights score again")
	cubeWeights := fs.StringSlice("cube-weights", nil, "more networks whose probabilities are averaged with the main network's in the cube decisions scored")
	bearoff := fs.String("bearoff", "", "bearoff database file from bgtrain makebearoff (default: 10 checkers, built at start-up)")
	choices := fs.String("choices", "", "also score, on the move set, the choices of the judge that priced this move set of the same decisions (its best result in each), e.g. gnubg 0-ply's from bgtool gnubg-moveset --plies 0, and the weights' loss less theirs decision by decision")
	cubelessClasses := fs.StringSlice("cubeless-classes", nil, "with --cubeful-moves, choose moves by cubeless equity all the same when the position before the move is of these classes (the bgbot engine's --cubeless-classes)")
	raceGammons := fs.Bool("race-gammons", false, "count race gammons from one-sided distributions (the bgbot engine's --race-gammons; needs a 15-checker --bearoff)")
	cubefulMoves := fs.Bool("cubeful-moves", false, "choose moves by cubeful equity (the bgbot engine's --cubeful-moves) in the decisions of a cubeful move set (bgtool gnubg-moveset --cubeful)")
	versus := fs.StringSlice("versus", nil, "MAIN[,SECOND...]: also score, on the move set, another main network with its own --move-weights (the rest as set here), and the weights' loss less its decision by decision: two candidates on the same decisions")
	narrowOut := fs.String("narrow-out", "", "with --choices or --versus, write the move set narrowed to the results the weights, --versus and the judge of --choices choose, for a deeper judge to price again (bgtool gnubg-moveset --reprice); one result where they agree")
	confidence := fs.Float64("confidence", 0.95, "two-sided level of the decision-by-decision intervals")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := verdict.CheckLevel(*confidence); err != nil {
		return cli.Usagef("benchmark: %v", err)
	}
	if *narrowOut != "" && (*moves == "" || *choices == "" && len(*versus) == 0) {
		return cli.Usagef("benchmark: --narrow-out needs --moves, and --choices or --versus")
	}
	if *plies < 0 || *plies > bgbot.MaxPlies {
		return cli.Usagef("benchmark: --plies must be within 0..%d", bgbot.MaxPlies)
	}
	if *moveKeep < 1 {
		return cli.Usagef("benchmark: --move-keep must be at least 1")
	}
	f, err := os.Open(*set)
	if err != nil {
		return fmt.Errorf("benchmark: %w", err)
	}
	positions, err := benchset.Read(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("benchmark: %s: %w", *set, err)
	}
	w, err := loadWeights(*weights)
	if err != nil {
		return err
	}
	db, err := bgbot.LoadBearoff(*bearoff)
	if err != nil {
		return fmt.Errorf("benchmark: --bearoff: %w", err)
	}
	mw, err := loadWeightsList(*moveWeights)
	if err != nil {
		return fmt.Errorf("benchmark: --move-weights: %w", err)
	}
	cw, err := loadWeightsList(*cubeWeights)
	if err != nil {
		return fmt.Errorf("benchmark: --cube-weights: %w", err)
	}
	cubeless, err := bgbot.ParseClasses(*cubelessClasses)
	if err != nil {
		return fmt.Errorf("benchmark: --cubeless-classes: %w", err)
	}
	cfg := bgbot.Config{Level: bgbot.LevelNet, Weights: w, Bearoff: db, Plies: *plies,
		MoveWeights: mw, MoveKeep: *moveKeep, CubeWeights: cw, CubefulMoves: *cubefulMoves, CubelessClasses: cubeless, RaceGammons: *raceGammons}
	bot, err := bgbot.NewBot(cfg)
	if err != nil {
		return err
	}
	var other *bgbot.Bot
	if len(*versus) > 0 {
		vw, err := loadWeightsList(*versus)
		if err != nil {
			return fmt.Errorf("benchmark: --versus: %w", err)
		}
		cfg.Weights, cfg.MoveWeights = vw[0], vw[1:]
		if other, err = bgbot.NewBot(cfg); err != nil {
			return err
		}
	}
	rows := benchset.Scores(positions, bot.Probs)
	fmt.Fprintf(stdout, "%s at %d ply on %s:\n", nameOr(*weights, "embedded weights"), *plies, *set)
	writeScores(stdout, rows)
	c := benchset.CubeScores(positions, bot.CubeProbs)
	fmt.Fprintf(stdout, "money cube decisions (Jacoby), equity given up in all, priced by the set's probabilities:\n")
	fmt.Fprintf(stdout, "  doubles %.2f (%d wrong, %d missed), takes %.2f (%d wrong takes, %d wrong passes), redoubles %.2f\n",
		c.Double, c.WrongDoubles, c.MissedDoubles, c.Take, c.WrongTakes, c.WrongPasses, c.Redouble)
	writeHiddenUse(stdout, w, positions)
	if *moves == "" {
		return nil
	}
	decisions, err := readMoveSet(*moves)
	if err != nil {
		return err
	}
	kind := "cubeless equity"
	if len(decisions) > 0 && decisions[0].State != nil {
		kind = "cubeful normalised equity at the decision's score and cube"
	}
	fmt.Fprintf(stdout, "chequer play on %s (%s given up per decision, by the set's judge):\n", *moves, kind)
	ourChoice := benchset.Remember(benchset.BotChoice(bot))
	ours := benchset.ScoreMoves(decisions, ourChoice)
	if err := writeMoveScores(stdout, *moves, ours); err != nil {
		return err
	}
	choosers, names := []benchset.Chooser{ourChoice}, []string{nameOr(*weights, "the embedded weights")}
	if other != nil {
		fmt.Fprintf(stdout, "chequer play of --versus %s on %s:\n", strings.Join(*versus, ","), *moves)
		otherChoice := benchset.Remember(benchset.BotChoice(other))
		choosers = append(choosers, otherChoice)
		names = append(names, "--versus "+strings.Join(*versus, ","))
		theirs := benchset.ScoreMoves(decisions, otherChoice)
		if err := writeMoveScores(stdout, *moves, theirs); err != nil {
			return err
		}
		writePairedGaps(stdout, "--versus", ours, theirs, *confidence)
	}
	if *choices != "" {
		ref, err := readMoveSet(*choices)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "the choices of %s's judge on %s:\n", *choices, *moves)
		judgeChoice := benchset.SetChoice(ref)
		choosers = append(choosers, judgeChoice)
		names = append(names, *choices+"'s judge")
		theirs := benchset.ScoreMoves(decisions, judgeChoice)
		if err := writeMoveScores(stdout, *moves, theirs); err != nil {
			return err
		}
		writePairedGaps(stdout, "the judge", ours, theirs, *confidence)
		writeAgreements(stdout, decisions, ourChoice)
	}
	if *narrowOut == "" {
		return nil
	}
	return writeNarrowed(stdout, *narrowOut, *moves, decisions, choosers, names)
}

// writeNarrowed writes the move set narrowed to the results the choosers
// (named by names) choose, for a deeper judge to price again.
func writeNarrowed(stdout io.Writer, path, moves string, decisions []benchset.MoveDecision, choosers []benchset.Chooser, names []string) error {
	narrowed, err := benchset.Narrow(decisions, choosers...)
	if err != nil {
		return fmt.Errorf("benchmark: --narrow-out: %w", err)
	}
	two := 0
	for _, d := range narrowed {
		if len(d.Results) > 1 {
			two++
		}
	}
	header := []string{
		fmt.Sprintf("%s narrowed to the results chosen by %s", moves, strings.Join(names, ", ")),
		fmt.Sprintf("%d decisions, %d with more than one result; the equities are %s's", len(narrowed), two, moves),
	}
	if err := writeAtomic(path, func(w io.Writer) error { return benchset.WriteMoves(w, header, narrowed) }); err != nil {
		return fmt.Errorf("benchmark: --narrow-out: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d decisions, %d where the choices differ\n", path, len(narrowed), two)
	return nil
}

// writeAgreements prints, for each player the set's decisions name, how
// often its recorded move is the weights' choice and one of the set's best
// results (the judge's choice, ties included): the check that a chooser
// plays as that player did.
func writeAgreements(w io.Writer, set []benchset.MoveDecision, ours benchset.Chooser) {
	a, b := benchset.Agreements(set, ours), benchset.PlayedBest(set)
	if len(a) == 0 {
		return
	}
	fmt.Fprintln(w, "moves played in the records that are each one's choice:")
	fmt.Fprintf(w, "%-19s %9s %12s %12s\n", "mover", "decisions", "the weights", "a best one")
	for i := range a {
		fmt.Fprintf(w, "%-19s %9d %11.2f%% %11.2f%%\n", a[i].Mover, a[i].Decisions,
			100*float64(a[i].Same)/float64(a[i].Decisions), 100*float64(b[i].Same)/float64(b[i].Decisions))
	}
}

// writePairedGaps prints the weights' loss less another player's (whose
// name is who), decision by decision, row by row, with intervals at the
// two-sided level confidence.
func writePairedGaps(w io.Writer, who string, ours, theirs []benchset.MoveScore, confidence float64) {
	fmt.Fprintf(w, "the weights' loss less %s's, decision by decision (mEMG a decision, %s%% interval):\n", who, strconv.FormatFloat(100*confidence, 'f', -1, 64))
	for i := range ours {
		gap, half, n := benchset.PairedGap(ours[i], theirs[i])
		if n > 1 {
			in := verdict.AtLevel(gap, [2]float64{gap - half, gap + half}, confidence)
			fmt.Fprintf(w, "%-19s %9d %+8.2f [%+.2f, %+.2f]\n", ours[i].Name, n, 1000*gap, 1000*in[0], 1000*in[1])
		}
	}
}

// readMoveSet reads a move set file.
func readMoveSet(path string) ([]benchset.MoveDecision, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("benchmark: %w", err)
	}
	defer f.Close()
	set, err := benchset.ReadMoves(f)
	if err != nil {
		return nil, fmt.Errorf("benchmark: %s: %w", path, err)
	}
	return set, nil
}

// writeMoveScores prints ScoreMoves' rows, and fails when a choice left a
// position the move set does not hold.
func writeMoveScores(w io.Writer, moves string, rows []benchset.MoveScore) error {
	fmt.Fprintf(w, "%-19s %9s %8s %11s\n", "decisions", "count", "mEMG", "best move")
	for _, r := range rows {
		if r.Decisions > 0 {
			fmt.Fprintf(w, "%-19s %9d %8.2f %10.1f%%\n", r.Name, r.Decisions, 1000*r.Loss, 100*r.Best)
		}
	}
	if n := rows[0].Unknown; n > 0 {
		return fmt.Errorf("benchmark: %s: %d choices left positions the set does not hold", moves, n)
	}
	return nil
}

// networkClass is a position class that may have a network of its own.
type networkClass struct {
	name  string
	class int
}

// networkClasses lists them in the order bgtrain reports them.
func networkClasses() []networkClass {
	return []networkClass{{"contact", bgbot.ClassContact}, {"crashed", bgbot.ClassCrashed}, {"leading", bgbot.ClassLeading}, {"race", bgbot.ClassRace}}
}

// writeHiddenUse prints how many hidden units of each network do any work
// on the set's positions (bgbot.HiddenUse).
func writeHiddenUse(w io.Writer, weights *bgbot.Weights, set []benchset.Position) {
	boards := make([]backgammon.Board, len(set))
	for i, p := range set {
		boards[i] = p.Board
	}
	fmt.Fprintf(w, "hidden units in use (output spread at least %.2f over the set):", bgbot.IdleContribution)
	for _, c := range networkClasses() {
		use, n := weights.HiddenUse(boards, c.class)
		if n == 0 {
			continue
		}
		busy := 0
		for _, u := range use {
			if u >= bgbot.IdleContribution {
				busy++
			}
		}
		fmt.Fprintf(w, " %s %d/%d", c.name, busy, len(use))
	}
	fmt.Fprintln(w)
}

// writeScores prints benchmark rows; the pip-lead bands are the contact
// positions (crashed included) by the lead of the player on roll.
func writeScores(w io.Writer, rows []benchset.Score) {
	fmt.Fprintf(w, "%-14s %9s %13s %11s %8s %10s %13s\n", "positions", "count", "equity error", "equity RMS", "bias", "win error", "reference s.e.")
	for _, r := range rows {
		if r.Positions == 0 {
			continue
		}
		fmt.Fprintf(w, "%-14s %9d %13.4f %11.4f %+8.4f %10.4f %13.4f\n", r.Name, r.Positions, r.EquityError, r.EquityRMS, r.Bias, r.WinError, r.RolloutStdErr)
	}
}

func nameOr(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}
