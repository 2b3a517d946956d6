package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg"
)

// runGnubgMoves makes a move set from the chequer decisions of match
// records: every legal move's result judged by gnubg, so that a network's
// choices can be priced by gnubg offline (bgtrain benchmark --moves).
func runGnubgMoves(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("bgtool", "gnubg-moveset", "FILE.mat|FILE.sgf...", stdout)
	out := fs.StringP("out", "o", "", "move set to write (bgtrain benchmark --moves reads it)")
	plies := fs.Int("plies", 2, "depth of gnubg's evaluations")
	stride := fs.Int("stride", 1, "keep every n-th distinct decision met")
	limit := fs.Int("positions", 0, "keep at most this many decisions (0: all)")
	jobs := fs.IntP("jobs", "j", 1, "gnubg processes at once")
	binary := fs.String("gnubg", "gnubg", "gnubg program (a bare name is looked for on PATH, then in /usr/games)")
	quiet := fs.BoolP("quiet", "q", false, "no progress on stderr")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	switch {
	case *out == "":
		return cli.Usagef("gnubg-moveset: --out is required")
	case *plies < 0 || *plies > gnubg.MaxPlies, *stride < 1, *limit < 0, *jobs < 1:
		return cli.Usagef("gnubg-moveset: --plies 0..%d, --stride and --jobs at least 1, --positions at least 0", gnubg.MaxPlies)
	}
	bin, err := gnubg.FindBinary(*binary)
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	var ms []*record.Match
	for _, path := range fs.Args() {
		m, err := loadRecord(path)
		if err != nil {
			return fmt.Errorf("gnubg-moveset: %w", err)
		}
		ms = append(ms, m)
	}
	set, err := benchset.DecisionsFromRecords(ms, *stride)
	if err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	if *limit > 0 && len(set) > *limit {
		set = set[:*limit]
	}
	if len(set) == 0 {
		return fmt.Errorf("gnubg-moveset: no chequer decisions with a choice in %d records", len(ms))
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
	var progress func(done, total int)
	if !*quiet {
		progress = func(done, total int) { fmt.Fprintf(stderr, "\rjudged %d/%d", done, total) }
	}
	begin := time.Now()
	judged, err := judgeWithGnubg(ctx, bin, *plies, *jobs, boards, progress)
	if !*quiet {
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
		fmt.Sprintf("made by: bgtool gnubg-moveset --plies %d --stride %d --positions %d, from %d records", *plies, *stride, *limit, len(ms)),
		fmt.Sprintf("%d decisions, %d results judged by gnubg at %d ply in %v", len(set), len(boards), *plies, time.Since(begin).Round(time.Second)),
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { return benchset.WriteMoves(w, header, set) }); err != nil {
		return fmt.Errorf("gnubg-moveset: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d decisions, %d results judged by gnubg at %d ply\n", *out, len(set), len(boards), *plies)
	return nil
}
