package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/spf13/pflag"
)

// runAnalyse implements 'bgtool analyse FILE': it reads a match record,
// replays it through the rules and has bgbot judge every decision, then
// prints each player's statistics as gnubg does, or JSON.
func runAnalyse(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	plies := fs.Int("plies", 0, fmt.Sprintf("depth of the judgement, 0..%d", bgbot.MaxPlies))
	asJSON := fs.Bool("json", false, "print the statistics as JSON, per game under \"games\"")
	games := fs.Bool("games", false, "text: print each game's statistics after the match's")
	if err := cli.Parse(fs, args, 1, 1); err != nil {
		return err
	}
	if *plies < 0 || *plies > bgbot.MaxPlies {
		return cli.Usagef("analyse: --plies %d out of range 0..%d", *plies, bgbot.MaxPlies)
	}
	m, err := loadRecord(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("analyse: %w", err)
	}
	rep, err := analysis.AnalyseMatch(context.Background(), m, *plies)
	if err != nil {
		return fmt.Errorf("analyse: %s: %w", fs.Arg(0), err)
	}
	if *asJSON {
		return writeJSON(stdout, rep.Summary(true))
	}
	return writeAnalysis(stdout, rep, *games)
}

// loadRecord reads a .mat or .sgf record and replays it through the rules;
// an unknown extension is a usage error.
func loadRecord(path string) (*record.Match, error) {
	m, err := recordfile.Load(path)
	if errors.Is(err, recordfile.ErrFormat) {
		return nil, cli.Usagef("%v", err)
	}
	return m, err
}

func writeAnalysis(w io.Writer, rep *analysis.Report, games bool) error {
	what := "money session"
	if rep.MatchLength > 0 {
		what = fmt.Sprintf("%d-point match", rep.MatchLength)
	}
	if _, err := fmt.Fprintf(w, "%s v %s, %s, %d games, judged by bgbot at %d ply\n\n",
		rep.Players[0], rep.Players[1], what, len(rep.Games), rep.Plies); err != nil {
		return err
	}
	if err := analysis.WriteText(w, rep.Players, rep.Overall, rep.MatchLength); err != nil {
		return err
	}
	if rep.MatchLength > 0 {
		sign := func(v float64) string {
			if math.IsNaN(v) {
				return "n/a"
			}
			return fmt.Sprintf("%+.1f", v)
		}
		if _, err := fmt.Fprintf(w, "\nRating of %s minus %s (FIBS points): %s from error rates (a2(N)*EPM + b(N)*EPC), %s by a(N)*DEPD, %s from the luck-adjusted result\n",
			rep.Players[0], rep.Players[1], sign(rep.RatingDifference()), sign(rep.SingleRateDifference()), sign(rep.LuckBasedDifference())); err != nil {
			return err
		}
	}
	if !games {
		return nil
	}
	for i := range rep.Games {
		g := &rep.Games[i]
		if _, err := fmt.Fprintf(w, "\nGame %d (score %d-%d)\n\n", g.Number, g.ScoreBefore[0], g.ScoreBefore[1]); err != nil {
			return err
		}
		if err := analysis.WriteText(w, rep.Players, g.Stats, rep.MatchLength); err != nil {
			return err
		}
	}
	return nil
}
