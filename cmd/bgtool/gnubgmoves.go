package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/player/gnubg"
)

// runGnubgMoves makes a move set from the chequer decisions of match
// records: every legal move's result judged by gnubg, so that a network's
// choices can be priced by gnubg offline (bgtrain benchmark --moves).
func runGnubgMoves(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newGnubgSetFlags("gnubg-moveset", "move set", "bgtrain benchmark --moves", stdout)
	cubeful := f.fs.Bool("cubeful", false, "price each move by gnubg's cubeful equity at the decision's score and cube, in gnubg's normalised money equity, as its analysis of a match does (the set keeps each decision's match ID; records of games with the cube only)")
	bin, ms, err := f.parse(args)
	if err != nil {
		return err
	}
	all, err := benchset.DecisionsFromRecords(ms, 1, *cubeful)
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	var set []benchset.MoveDecision
	met := 0
	for _, d := range all {
		if !f.wanted(&d.Board) {
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
	if *cubeful {
		return writeCubefulMoves(ctx, f, bin, len(ms), set, stdout, stderr)
	}
	// gnubg judges each result before the opponent's roll, from the
	// opponent's view; the mover's equity is the opposite. A move that
	// bears off the last checker ends the game and is scored exactly.
	var boards []backgammon.Board
	checkers := backgammon.Standard.Checkers()
	for _, d := range set {
		for k, r := range d.Results {
			if p, over := bgbot.Outcome(&r.Board, checkers); over {
				d.Results[k].Equity = float64(p.Equity())
				continue
			}
			boards = append(boards, r.Board.Swap())
		}
	}
	begin := time.Now()
	judged, err := judgeWithGnubg(ctx, bin, *f.plies, *f.jobs, boards, f.progress(stderr))
	if !*f.quiet {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	i := 0
	for _, d := range set {
		for k, r := range d.Results {
			if _, over := bgbot.Outcome(&r.Board, checkers); over {
				continue
			}
			d.Results[k].Equity = -judged[i].Rollout.Equity
			i++
		}
	}
	header := []string{
		"bgbot move set judged by gnubg: chequer decisions, each legal move's result with the mover's cubeless equity",
		fmt.Sprintf("made by: bgtool gnubg-moveset --plies %d --stride %d --positions %d%s, from %d records", *f.plies, *f.stride, *f.limit, f.classesFlag(), len(ms)),
		fmt.Sprintf("%d decisions, %d results judged by gnubg at %d ply in %v", len(set), len(boards), *f.plies, time.Since(begin).Round(time.Second)),
	}
	if err := atomicfile.Write(*f.out, func(w io.Writer) error { return benchset.WriteMoves(w, header, set) }); err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d decisions, %d results judged by gnubg at %d ply\n", *f.out, len(set), len(boards), *f.plies)
	return nil
}

// writeCubefulMoves is gnubg-moveset --cubeful: gnubg judges each result
// with the cube, before the opponent's roll and from the opponent's view,
// at the decision's score; bgbot.MoverEquity turns that into the mover's
// normalised equity. A result that ends the game is scored exactly.
func writeCubefulMoves(ctx context.Context, f *gnubgSetFlags, bin string, records int, set []benchset.MoveDecision, stdout, stderr io.Writer) error {
	var states []*backgammon.State
	scales := make([]*bgbot.MoverEquity, len(set))
	for i, d := range set {
		scale, err := bgbot.NewMoverEquity(d.State)
		if err != nil {
			return fmt.Errorf("gnubg-moveset: %w", err)
		}
		scales[i] = scale
		for k, r := range d.Results {
			if x, over := scale.Ended(&r.Board); over {
				d.Results[k].Equity = x
				continue
			}
			after := *d.State
			after.Board = r.Board.Swap()
			after.Move, after.Turn, after.Dice = 1-d.State.Move, 1-d.State.Move, [2]int{}
			states = append(states, &after)
		}
	}
	begin := time.Now()
	judged, err := gnubg.JudgeCubeful(ctx, bin, *f.plies, *f.jobs, states, f.progress(stderr))
	if !*f.quiet {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	i := 0
	for n, d := range set {
		for k, r := range d.Results {
			if _, over := scales[n].Ended(&r.Board); over {
				continue
			}
			d.Results[k].Equity = scales[n].Opponent(judged[i])
			i++
		}
	}
	header := []string{
		"bgbot move set judged by gnubg with the cube: chequer decisions at their score and cube, each legal move's result with the mover's cubeful equity (gnubg's normalised money equity)",
		fmt.Sprintf("made by: bgtool gnubg-moveset --cubeful --plies %d --stride %d --positions %d%s, from %d records", *f.plies, *f.stride, *f.limit, f.classesFlag(), records),
		fmt.Sprintf("%d decisions, %d results judged by gnubg at %d ply in %v", len(set), len(states), *f.plies, time.Since(begin).Round(time.Second)),
	}
	if err := atomicfile.Write(*f.out, func(w io.Writer) error { return benchset.WriteMoves(w, header, set) }); err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d decisions, %d results judged by gnubg with the cube at %d ply\n", *f.out, len(set), len(states), *f.plies)
	return nil
}
