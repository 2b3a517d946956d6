package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
)

// A decisionGrouper names the group a chequer decision belongs to.
type decisionGrouper func(d verdict.Decision) (string, error)

var decisionGroups = map[string]decisionGrouper{
	"class": func(d verdict.Decision) (string, error) {
		b, err := gnubgid.DecodePosition(d.PositionID)
		if err != nil {
			return "", fmt.Errorf("%s game %d: %w", d.File, d.Game, err)
		}
		return bgbot.ClassName(bgbot.Class(&b)), nil
	},
	"score": func(d verdict.Decision) (string, error) {
		if d.Length == 0 {
			return "money", nil
		}
		s := fmt.Sprintf("%d-away/%d-away", d.Away(), d.OpponentAway())
		switch {
		case d.Crawford:
			s += " Crawford"
		case d.Away() == 1 || d.OpponentAway() == 1:
			s += " post-Crawford"
		}
		return s, nil
	},
	"cube": func(d verdict.Decision) (string, error) {
		if d.Owner == "centre" {
			return fmt.Sprintf("cube %d centred", d.Cube), nil
		}
		return fmt.Sprintf("cube %d %s's", d.Cube, d.Owner), nil
	},
}

// decisionGroupers looks up the groupings --by names.
func decisionGroupers(names []string) ([]decisionGrouper, error) {
	var gs []decisionGrouper
	for _, n := range names {
		g, ok := decisionGroups[n]
		if !ok {
			return nil, fmt.Errorf("--by %q: want class, score or cube", n)
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// runVerdictBreakdown prints the breakdown of decisions that
// gnubg-verdict --decisions wrote, grouped again without running gnubg.
func runVerdictBreakdown(args []string, stdout io.Writer) error {
	fs := cli.NewFlags("bgtool", "verdict-breakdown", "FILE.jsonl...", stdout)
	by := fs.StringSlice("by", []string{"class"}, "groups of decisions: class (contact, crashed, race), score (away-away, Crawford), cube (value and owner); several give their combinations")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	groupers, err := decisionGroupers(*by)
	if err != nil {
		return cli.Usagef("verdict-breakdown: %v", err)
	}
	ds, err := readDecisionFiles(fs.Args())
	if err != nil {
		return fmt.Errorf("verdict-breakdown: %w", err)
	}
	records := verdict.RecordsOf(ds)
	fmt.Fprintf(stdout, "%d chequer decisions of %d records\n", len(ds), len(records))
	return writeBreakdown(stdout, records, *by, groupers)
}

// readDecisionFiles reads the decisions that gnubg-verdict --decisions
// wrote to the files at paths.
func readDecisionFiles(paths []string) ([]verdict.Decision, error) {
	var ds []verdict.Decision
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		more, err := verdict.ReadDecisions(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		ds = append(ds, more...)
	}
	return ds, nil
}

// runVerdictCompare compares two runs' decisions, as gnubg-verdict
// --decisions wrote them, record by record: records of the same name
// were played on the same dice, so the change in a player's error rate
// is measured with the luck of the rolls shared.
func runVerdictCompare(args []string, stdout io.Writer) error {
	fs := cli.NewFlags("bgtool", "verdict-compare", "A.jsonl B.jsonl", stdout)
	by := fs.StringSlice("by", nil, "also compare groups of decisions: class (contact, crashed, race), score (away-away, Crawford), cube (value and owner); several give their combinations")
	if err := cli.Parse(fs, args, 2, 2); err != nil {
		return err
	}
	groupers, err := decisionGroupers(*by)
	if err != nil {
		return cli.Usagef("verdict-compare: %v", err)
	}
	var runs [2][]verdict.Record
	for i, path := range fs.Args() {
		ds, err := readDecisionFiles([]string{path})
		if err != nil {
			return fmt.Errorf("verdict-compare: %w", err)
		}
		runs[i] = verdict.RecordsOf(ds)
	}
	a, b := verdict.PairRecords(runs[0], runs[1])
	if len(a) == 0 {
		return fmt.Errorf("verdict-compare: %s and %s have no record name in common", fs.Arg(0), fs.Arg(1))
	}
	fmt.Fprintf(stdout, "%s against %s: %d records in both (of %d and %d)\n", fs.Arg(1), fs.Arg(0), len(a), len(runs[0]), len(runs[1]))
	fmt.Fprintf(stdout, "chequer error (decisions, mEMG a decision) in each, and the second less the first record by record with a 95%% interval\n")
	all, err := verdict.GroupPairs(a, b, func(verdict.Decision) (string, error) { return "all", nil })
	if err != nil {
		return fmt.Errorf("verdict-compare: %w", err)
	}
	writeComparison(stdout, "all", all["all"])
	if len(groupers) > 0 {
		groups, err := verdict.GroupPairs(a, b, groupKeyOf(groupers))
		if err != nil {
			return fmt.Errorf("verdict-compare: %w", err)
		}
		for _, k := range slices.Sorted(maps.Keys(groups)) {
			writeComparison(stdout, k, groups[k])
		}
	}
	return nil
}

// writeComparison prints one group of verdict-compare: each player's
// decisions and rate in both runs and the change, then the change in the
// gap where both players made decisions of the group in both runs.
func writeComparison(w io.Writer, name string, g [2][][2]verdict.Player) {
	fmt.Fprintf(w, "%s\n", name)
	ds := verdict.CompareChequer(g[0], g[1])
	for _, d := range ds {
		fmt.Fprintf(w, "  %-12s %7d %6.2f %7d %6.2f  %s\n", d.Name,
			d.A.UnforcedMoves, d.A.ChequerRate(), d.B.UnforcedMoves, d.B.ChequerRate(), signedInterval(d.Change, d.Interval))
	}
	if len(ds) == 2 && ds[0].A.UnforcedMoves > 0 && ds[0].B.UnforcedMoves > 0 && ds[1].A.UnforcedMoves > 0 && ds[1].B.UnforcedMoves > 0 {
		first, second := ds[0].Name, ds[1].Name
		change, interval, _ := verdict.CompareGap(g[0], g[1], first, second)
		fmt.Fprintf(w, "  %s less %s: %+.2f, then %+.2f: %s\n", first, second,
			verdict.GapOf(g[0], first, second).Chequer, verdict.GapOf(g[1], first, second).Chequer, signedInterval(change, interval))
	}
}

// groupKeyOf names a decision's group under groupers, joined by commas.
func groupKeyOf(groupers []decisionGrouper) func(verdict.Decision) (string, error) {
	return func(d verdict.Decision) (string, error) {
		parts := make([]string, len(groupers))
		for i, g := range groupers {
			p, err := g(d)
			if err != nil {
				return "", err
			}
			parts[i] = p
		}
		return strings.Join(parts, ", "), nil
	}
}

// writeDecisions writes every record's decisions as JSON lines.
func writeDecisions(path string, records []verdict.Record) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, r := range records {
			for _, d := range r.Decisions {
				if err := enc.Encode(d); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// writeBreakdown prints, for each group of chequer decisions, each
// player's decisions, error rate (mEMG a decision, with a 95% interval
// over the records) and error in all (EMG), so that a gap between two
// players can be traced to where it lies.
func writeBreakdown(w io.Writer, records []verdict.Record, names []string, groupers []decisionGrouper) error {
	perGroup, err := verdict.GroupDecisions(records, groupKeyOf(groupers))
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(perGroup))
	for k := range perGroup {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "\nchequer error by %s (decisions, mEMG a decision with a 95%% interval over the records, EMG in all)\n", strings.Join(names, " and "))
	for _, k := range keys {
		fmt.Fprintf(w, "%s\n", k)
		played := 0
		for _, s := range verdict.Summarise(perGroup[k]) {
			if s.UnforcedMoves == 0 {
				continue
			}
			played++
			fmt.Fprintf(w, "  %-12s %7d %6.2f [%5.2f, %5.2f] %8.3f\n", s.Name, s.UnforcedMoves, s.ChequerRate(),
				s.ChequerInterval[0], s.ChequerInterval[1], s.ChequerError)
		}
		if names := playerNames(perGroup[k]); len(names) == 2 && played == 2 {
			g := verdict.GapOf(perGroup[k], names[0], names[1])
			fmt.Fprintf(w, "  %s less %s: %s\n", g.First, g.Second, signedInterval(g.Chequer, g.ChequerInterval))
		}
	}
	return nil
}
