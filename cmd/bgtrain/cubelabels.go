package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
	"github.com/spf13/pflag"
)

// cubeLabels turns the cube decisions of gnubg's analysis of game records
// (bgtool gnubg-verdict --decisions, which records gnubg's cubeless
// probabilities of each position at the analysis depth) into labelled
// positions for bgtrain supervise --labels: the positions where a player
// could double, for the player on roll, each once. --min-win keeps the
// positions where the cube is in play: below an even game nobody doubles.
func cubeLabels(_ context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	out := fs.String("out", "cube-labels.bin", "labelled positions file to write")
	minWin := fs.Float64("min-win", 0.5, "keep positions where gnubg gives the player on roll at least this chance to win")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	if *minWin < 0 || *minWin > 1 {
		return cli.Usagef("cubelabels: --min-win %v out of range 0..1", *minWin)
	}
	var data []bgbot.Labelled
	seen := map[string]bool{}
	total := 0
	_, cs, err := verdict.ReadDecisionFiles(fs.Args())
	if err != nil {
		return fmt.Errorf("cubelabels: %w", err)
	}
	for _, d := range cs {
		if d.Role != "doubler" {
			continue // the same position as the double it answers
		}
		total++
		if d.Probs == nil {
			return fmt.Errorf("cubelabels: %s game %d: no probabilities (written before gnubg-verdict recorded them)", d.File, d.Game)
		}
		if d.Probs[bgbot.Win] < *minWin || seen[d.PositionID] {
			continue
		}
		seen[d.PositionID] = true
		b, err := gnubgid.DecodePosition(d.PositionID)
		if err != nil {
			return fmt.Errorf("cubelabels: %s game %d: %w", d.File, d.Game, err)
		}
		l := bgbot.Labelled{Board: b}
		for k, p := range d.Probs {
			l.Probs[k] = float32(p)
		}
		data = append(data, l)
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { return bgbot.WriteLabelled(w, data) }); err != nil {
		return fmt.Errorf("cubelabels: %w", err)
	}
	fmt.Fprintf(stdout, "%d of %d positions where a player could double written to %s\n", len(data), total, *out)
	return nil
}
