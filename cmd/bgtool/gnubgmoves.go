package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/spf13/pflag"
)

// runGnubgMoves makes a move set from the chequer decisions of match
// records: every legal move's result judged by gnubg, so that a network's
// choices can be priced by gnubg offline (bgtrain benchmark --moves).
func runGnubgMoves(ctx context.Context, fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) error {
	f := newGnubgSetFlags(fs, "gnubg-moveset", "move set", "bgtrain benchmark --moves")
	cubeful := f.fs.Bool("cubeful", false, "price each move by gnubg's cubeful equity at the decision's score and cube, in gnubg's normalised money equity, as its analysis of a match does (the set keeps each decision's match ID; records of games with the cube only)")
	scores := f.fs.StringSlice("scores", nil, "with --cubeful, keep only decisions at these stages of play: "+benchset.StagesHelp+", before --stride (default: all)")
	f.reprice = f.fs.String("reprice", "", "price the results of this move set again (cubeful if it is) instead of reading records, leaving alone decisions with one result; with bgtrain benchmark --narrow-out, a deeper judge of two players' differing choices")
	bin, ms, err := f.parse(args)
	if err != nil {
		return err
	}
	if *f.reprice != "" {
		if *cubeful || len(*scores) > 0 {
			// The set decides: a cubeful set keeps each decision's match state.
			return cli.Usagef("gnubg-moveset: --reprice prices cubeful if the set is; --cubeful and --scores do not apply")
		}
		return repriceMoves(ctx, f, bin, stdout, stderr)
	}
	keepStage, err := benchset.StageFilter(*scores)
	switch {
	case err != nil:
		return cli.Usagef("gnubg-moveset: --scores: %v", err)
	case keepStage != nil && !*cubeful:
		return cli.Usagef("gnubg-moveset: --scores needs --cubeful, whose decisions keep their match state")
	}
	all, err := benchset.DecisionsFromRecords(ms, 1, *cubeful)
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	var set []benchset.MoveDecision
	met := 0
	for _, d := range all {
		if !f.wanted(&d.Board) || keepStage != nil && !keepStage(d.State) {
			continue
		}
		if met++; (met-1)%*f.stride == 0 {
			set = append(set, d)
		}
	}
	if *f.limit > 0 && len(set) > *f.limit {
		set = set[:*f.limit]
	}
	if len(set) == 0 {
		return fmt.Errorf("gnubg-moveset: no chequer decisions with a choice in %d records", len(ms))
	}
	begin := time.Now()
	judged, err := priceResults(ctx, f, bin, set, *cubeful, stderr)
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	what, flag, with := "cubeless equity", "", ""
	if *cubeful {
		what, flag, with = "cubeful equity at the decision's score and cube (gnubg's normalised money equity)", " --cubeful", " with the cube"
	}
	if len(*scores) > 0 {
		flag += " --scores " + strings.Join(*scores, ",")
	}
	header := []string{
		"bgbot move set judged by gnubg: chequer decisions, each legal move's result with the mover's " + what,
		fmt.Sprintf("made by: bgtool gnubg-moveset%s --plies %d --stride %d --positions %d%s, from %d records", flag, *f.plies, *f.stride, *f.limit, f.classesFlag(), len(ms)),
		fmt.Sprintf("%d decisions, %d results judged by gnubg at %d ply in %v", len(set), judged, *f.plies, time.Since(begin).Round(time.Second)),
	}
	if err := atomicfile.Write(*f.out, func(w io.Writer) error { return benchset.WriteMoves(w, header, set) }); err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d decisions, %d results judged by gnubg%s at %d ply\n", *f.out, len(set), judged, with, *f.plies)
	return nil
}

// repriceMoves prices a move set's results again at --plies: cubeful when
// the set is, and only in decisions with more than one result, since a
// lone result gives nothing up whatever its price. The decisions and their
// order stay as they were.
func repriceMoves(ctx context.Context, f *gnubgSetFlags, bin string, stdout, stderr io.Writer) error {
	if *f.stride != 1 || *f.limit != 0 || len(*f.classes) > 0 {
		return cli.Usagef("gnubg-moveset: --reprice keeps every decision; --stride, --positions and --classes do not apply")
	}
	in, err := os.Open(*f.reprice)
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	set, err := benchset.ReadMoves(in)
	in.Close()
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %s: %w", *f.reprice, err)
	}
	cubeful := len(set) > 0 && set[0].State != nil
	var priced []benchset.MoveDecision
	var at []int
	for i := range set {
		if len(set[i].Results) > 1 {
			priced = append(priced, set[i])
			at = append(at, i)
		}
	}
	begin := time.Now()
	judged, err := priceResults(ctx, f, bin, priced, cubeful, stderr)
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	for k, i := range at {
		set[i] = priced[k]
	}
	header := []string{
		fmt.Sprintf("%s priced again by gnubg at %d ply (bgtool gnubg-moveset --reprice), decisions with one result left alone", *f.reprice, *f.plies),
		fmt.Sprintf("%d decisions, %d with more than one result, %d results judged in %v", len(set), len(priced), judged, time.Since(begin).Round(time.Second)),
	}
	if err := atomicfile.Write(*f.out, func(w io.Writer) error { return benchset.WriteMoves(w, header, set) }); err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d decisions, %d results judged by gnubg at %d ply\n", *f.out, len(set), judged, *f.plies)
	return nil
}

// priceResults fills in every result's equity for the mover and returns
// how many gnubg judged. gnubg judges each result before the opponent's
// roll, from the opponent's view: cubeless money equity, whose opposite is
// the mover's; or, cubeful, with the decision's score and cube, which
// bgbot.MoverEquity turns into the mover's normalised equity. A move that
// bears off the last checker ends the game and is scored exactly.
func priceResults(ctx context.Context, f *gnubgSetFlags, bin string, set []benchset.MoveDecision, cubeful bool, stderr io.Writer) (int, error) {
	type result struct{ decision, k int }
	var pending []result
	var boards []backgammon.Board // cubeless: the results turned round
	scales := make([]*bgbot.MoverEquity, len(set))
	checkers := backgammon.Standard.Checkers()
	for n := range set {
		d := &set[n]
		if cubeful {
			scale, err := bgbot.NewMoverEquity(d.State)
			if err != nil {
				return 0, err
			}
			scales[n] = scale
		}
		for k, r := range d.Results {
			if cubeful {
				if x, over := scales[n].Ended(&r.Board); over {
					d.Results[k].Equity = x
					continue
				}
			} else {
				if p, over := bgbot.Outcome(&r.Board, checkers); over {
					d.Results[k].Equity = float64(p.Equity())
					continue
				}
				boards = append(boards, r.Board.Swap())
			}
			pending = append(pending, result{n, k})
		}
	}
	values := make([]float64, len(pending))
	var err error
	if cubeful {
		var x []float64
		// Each result's match is made as gnubg judges it, not held with the
		// millions of others a few thousand matches give.
		state := func(i int) *backgammon.State { return set[pending[i].decision].ResultState(pending[i].k) }
		if x, err = gnubg.JudgeCubeful(ctx, bin, *f.plies, *f.jobs, len(pending), state, f.progress(stderr)); err == nil {
			for i, r := range pending {
				values[i] = scales[r.decision].Opponent(x[i])
			}
		}
	} else {
		var judged []benchset.Position
		if judged, err = judgeWithGnubg(ctx, bin, *f.plies, *f.jobs, boards, f.progress(stderr)); err == nil {
			for i := range pending {
				values[i] = -judged[i].Rollout.Equity
			}
		}
	}
	if !*f.quiet {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return 0, err
	}
	for i, r := range pending {
		set[r.decision].Results[r.k].Equity = values[i]
	}
	return len(pending), nil
}
