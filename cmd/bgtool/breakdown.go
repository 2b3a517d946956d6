package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	var ds []verdict.Decision
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("verdict-breakdown: %w", err)
		}
		more, err := verdict.ReadDecisions(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("verdict-breakdown: %s: %w", path, err)
		}
		ds = append(ds, more...)
	}
	records := verdict.RecordsOf(ds)
	fmt.Fprintf(stdout, "%d chequer decisions of %d records\n", len(ds), len(records))
	return writeBreakdown(stdout, records, *by, groupers)
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
	perGroup, err := verdict.GroupDecisions(records, func(d verdict.Decision) (string, error) {
		parts := make([]string, len(groupers))
		for i, g := range groupers {
			p, err := g(d)
			if err != nil {
				return "", err
			}
			parts[i] = p
		}
		return strings.Join(parts, ", "), nil
	})
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
		for _, s := range verdict.Summarise(perGroup[k]) {
			if s.UnforcedMoves == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-12s %7d %6.2f [%5.2f, %5.2f] %8.3f\n", s.Name, s.UnforcedMoves, s.ChequerRate(),
				s.ChequerInterval[0], s.ChequerInterval[1], s.ChequerError)
		}
	}
	return nil
}
