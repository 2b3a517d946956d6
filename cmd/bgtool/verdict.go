package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
	"github.com/spf13/pflag"
)

// runVerdict has gnubg analyse match records and prints each player's
// chequer and cube error rates over all of them, with 95% intervals over
// the records.
func runVerdict(ctx context.Context, fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) error {
	plies := fs.Int("plies", 2, "depth of gnubg's analysis of chequer play and cube decisions")
	jobs := fs.IntP("parallel", "j", 1, "gnubg processes at once")
	cli.Alias(fs, "jobs", "parallel")
	binary := fs.String("gnubg", "gnubg", "gnubg program (a bare name is looked for on PATH, then in /usr/games)")
	quiet := fs.BoolP("quiet", "q", false, "no progress on stderr")
	by := fs.StringSlice("by", nil, "also break the chequer and cube errors down by "+byUsage)
	decisionsOut := fs.String("decisions", "", "also write every chequer and cube decision with its error to this file (JSON lines)")
	cubeOnly := fs.Bool("cube-only", false, "judge the cube decisions alone (about ten times as fast; no chequer figures)")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	if *plies < 0 || *plies > gnubg.MaxPlies || *jobs < 1 {
		return cli.Usagef("gnubg-verdict: --plies 0..%d and --parallel at least 1", gnubg.MaxPlies)
	}
	groupers, err := decisionGroupers(*by)
	if err != nil {
		return cli.Usagef("gnubg-verdict: %v", err)
	}
	bin, err := gnubg.FindBinary(*binary)
	if err != nil {
		return fmt.Errorf("gnubg-verdict: %w", err)
	}
	var progress func(done, total int)
	if !*quiet {
		progress = func(done, total int) { fmt.Fprintf(stderr, "\ranalysed %d/%d", done, total) }
	}
	if len(groupers) == 0 && *decisionsOut == "" && !*cubeOnly {
		results, err := verdict.AnalyseFiles(ctx, bin, fs.Args(), *plies, *jobs, progress)
		if !*quiet {
			fmt.Fprintln(stderr)
		}
		if err != nil {
			return fmt.Errorf("gnubg-verdict: %w", err)
		}
		writeVerdict(stdout, results, *plies)
		return nil
	}
	records, err := verdict.AnalyseDecisionFiles(ctx, bin, fs.Args(), *plies, *jobs, *cubeOnly, progress)
	if !*quiet {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return fmt.Errorf("gnubg-verdict: %w", err)
	}
	results := make([][2]verdict.Player, len(records))
	for i, r := range records {
		results[i] = r.Players
	}
	writeVerdict(stdout, results, *plies)
	if *decisionsOut != "" {
		if err := writeDecisions(*decisionsOut, records); err != nil {
			return fmt.Errorf("gnubg-verdict: %w", err)
		}
	}
	if len(groupers) > 0 {
		if err := writeBreakdown(stdout, records, *by, groupers, level95); err != nil {
			return fmt.Errorf("gnubg-verdict: %w", err)
		}
	}
	return nil
}

// writeVerdict prints per player (by name, over all records) the chequer
// error per unforced move and the cube error per close or actual cube
// decision, in mEMG, each with a 95% interval over the records.
func writeVerdict(w io.Writer, results [][2]verdict.Player, plies int) {
	fmt.Fprintf(w, "gnubg's analysis at %d ply of %d records (mEMG per decision, 95%% interval over the records)\n", plies, len(results))
	fmt.Fprintf(w, "%-12s %8s %9s %22s %9s %22s\n", "player", "records", "unforced", "chequer error rate", "cube dec.", "cube error rate")
	for _, s := range verdict.Summarise(results) {
		fmt.Fprintf(w, "%-12s %8d %9d %22s %9d %22s\n", s.Name, s.Records,
			s.UnforcedMoves, rateInterval(s.ChequerRate(), s.ChequerInterval),
			s.CubeDecisions, rateInterval(s.CubeRate(), s.CubeInterval))
	}
	if names := playerNames(results); len(names) == 2 {
		g := verdict.GapOf(results, names[0], names[1])
		records := fmt.Sprintf("%d records", g.Records)
		if g.Records == 1 {
			records = "record"
		}
		fmt.Fprintf(w, "%s less %s in the same %s: chequer %s, cube %s\n", g.First, g.Second, records,
			signedInterval(g.Chequer, g.ChequerInterval), signedInterval(g.Cube, g.CubeInterval))
	}
}

// playerNames is the names of the players in results, in name order.
func playerNames(results [][2]verdict.Player) []string {
	var names []string
	for _, s := range verdict.Summarise(results) {
		names = append(names, s.Name)
	}
	return names
}

// rateInterval writes a rate with its interval, or says that there is
// none: the interval is over the records, and one record shows nothing of
// how much a record's rate varies.
func rateInterval(v float64, interval [2]float64) string {
	if math.IsNaN(interval[0]) || math.IsNaN(interval[1]) {
		return fmt.Sprintf("%6.2f %-15s", v, "(no interval)")
	}
	return fmt.Sprintf("%6.2f [%5.2f, %5.2f]", v, interval[0], interval[1])
}

// signedInterval writes a change or a gap with its interval, or says
// that one record gives none.
func signedInterval(v float64, interval [2]float64) string {
	if math.IsNaN(interval[0]) {
		return fmt.Sprintf("%+.2f (no interval)", v)
	}
	return fmt.Sprintf("%+.2f [%+.2f, %+.2f]", v, interval[0], interval[1])
}
