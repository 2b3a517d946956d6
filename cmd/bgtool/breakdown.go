package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
	"github.com/spf13/pflag"
)

// A situation is what a chequer or cube decision's groups are read from.
type situation struct {
	file                       string
	game                       int
	positionID                 string
	length, away, opponentAway int
	crawford                   bool
	cube                       int
	owner                      string
	cubeKind                   string // a cube decision's kind; empty for chequer decisions
}

func chequerSituation(d verdict.Decision) situation {
	return situation{d.File, d.Game, d.PositionID, d.Length, d.Away(), d.OpponentAway(), d.Crawford, d.Cube, d.Owner, ""}
}

func cubeSituation(d verdict.CubeDecision) situation {
	return situation{d.File, d.Game, d.PositionID, d.Length, d.Away(), d.OpponentAway(), d.Crawford, d.Cube, d.Owner, d.Kind()}
}

// board is the decision's position, seen from the side to play.
func (s situation) board() (backgammon.Board, error) {
	b, err := gnubgid.DecodePosition(s.positionID)
	if err != nil {
		return b, fmt.Errorf("%s game %d: %w", s.file, s.game, err)
	}
	return b, nil
}

// A decisionGrouper names the group a decision belongs to.
type decisionGrouper func(s situation) (string, error)

var decisionGroups = map[string]decisionGrouper{
	"class": func(s situation) (string, error) {
		b, err := s.board()
		if err != nil {
			return "", err
		}
		return bgbot.ClassName(bgbot.Class(&b)), nil
	},
	// lead groups decisions by the pip lead of the side to play, in
	// bgtrain benchmark's bands: where a network's judgement of who is
	// ahead shows.
	"lead": func(s situation) (string, error) {
		b, err := s.board()
		if err != nil {
			return "", err
		}
		return benchset.LeadBand(&b), nil
	},
	"score": func(s situation) (string, error) {
		if s.length == 0 {
			return "money", nil
		}
		k := fmt.Sprintf("%d-away/%d-away", s.away, s.opponentAway)
		switch {
		case s.crawford:
			k += " Crawford"
		case s.away == 1 || s.opponentAway == 1:
			k += " post-Crawford"
		}
		return k, nil
	},
	// stage groups decisions as benchset.Stage does: money, before (a
	// match game before either side needs 1 point), crawford, or
	// post-crawford (double match point included).
	"stage": func(s situation) (string, error) {
		st := backgammon.State{Rules: backgammon.Rules{MatchLength: s.length, Crawford: true}, CrawfordGame: s.crawford}
		if s.length > 0 {
			st.Score = [2]int{s.length - s.away, s.length - s.opponentAway}
		}
		return benchset.Stage(&st), nil
	},
	"cube": func(s situation) (string, error) {
		if s.owner == "centre" {
			return fmt.Sprintf("cube %d centred", s.cube), nil
		}
		return fmt.Sprintf("cube %d %s's", s.cube, s.owner), nil
	},
	// kind groups cube decisions by what was done and gnubg's verdict
	// (missed double, wrong take, right pass, ...); chequer decisions all
	// fall in one group.
	"kind": func(s situation) (string, error) {
		if s.cubeKind == "" {
			return "chequer play", nil
		}
		return s.cubeKind, nil
	},
}

// decisionGroupers looks up the groupings --by names.
func decisionGroupers(names []string) ([]decisionGrouper, error) {
	var gs []decisionGrouper
	for _, n := range names {
		g, ok := decisionGroups[n]
		if !ok {
			return nil, fmt.Errorf("--by %q: want class, lead, score, stage, cube or kind", n)
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// runVerdictBreakdown prints the breakdown of decisions that
// gnubg-verdict --decisions wrote, grouped again without running gnubg.
func runVerdictBreakdown(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	by := fs.StringSlice("by", []string{"class"}, byUsage)
	confidence := fs.Float64("confidence", 0.95, "two-sided level of the intervals printed: 0.98333 holds a 0.05 error rate over three looks at one growing run (Bonferroni), say")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	groupers, err := decisionGroupers(*by)
	if err != nil {
		return cli.Usagef("verdict-breakdown: %v", err)
	}
	lv, err := levelOf(*confidence)
	if err != nil {
		return cli.Usagef("verdict-breakdown: %v", err)
	}
	// Each file's records stay apart: files of different runs name their
	// matches alike (match5_0000.mat ...), and one interval unit a match
	// keeps the intervals as wide as the matches make them.
	var (
		records        []verdict.Record
		chequer, cubes int
	)
	for _, path := range fs.Args() {
		ds, cs, err := verdict.ReadDecisionFiles([]string{path})
		if err != nil {
			return fmt.Errorf("verdict-breakdown: %w", err)
		}
		records = append(records, verdict.RecordsOf(ds, cs)...)
		chequer, cubes = chequer+len(ds), cubes+len(cs)
	}
	fmt.Fprintf(stdout, "%d chequer decisions and %d cube decisions of %d records\n", chequer, cubes, len(records))
	return writeBreakdown(stdout, records, *by, groupers, lv)
}

// A level is the confidence of the intervals printed.
type level struct {
	percent    string // "95%"
	confidence float64
}

var level95 = level{"95%", 0.95}

func levelOf(confidence float64) (level, error) {
	if err := verdict.CheckLevel(confidence); err != nil {
		return level{}, err
	}
	return level{strconv.FormatFloat(100*confidence, 'f', -1, 64) + "%", confidence}, nil
}

// of turns a 95% interval about v from the verdict package into one at the level.
func (l level) of(v float64, interval [2]float64) [2]float64 {
	return verdict.AtLevel(v, interval, l.confidence)
}

// byUsage is the help of --by.
const byUsage = "groups of decisions: class (contact, crashed, race), lead (the pip lead of the side to play, in bands of 20 and 60), score (away-away, Crawford), stage (money, before, crawford, post-crawford), cube (value and owner), kind (of cube decision: missed double, wrong take, ...); several give their combinations"

// runVerdictCompare compares two runs' decisions, as gnubg-verdict
// --decisions wrote them, record by record: records of the same name
// were played on the same dice, so the change in a player's error rate
// is measured with the luck of the rolls shared.
func runVerdictCompare(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	by := fs.StringSlice("by", nil, "also compare groups of chequer decisions: class (contact, crashed, race), lead (the pip lead of the side to play, in bands), score (away-away, Crawford), stage (money, before, crawford, post-crawford), cube (value and owner); several give their combinations")
	if err := cli.Parse(fs, args, 2, 2); err != nil {
		return err
	}
	groupers, err := decisionGroupers(*by)
	if err != nil {
		return cli.Usagef("verdict-compare: %v", err)
	}
	var runs [2][]verdict.Record
	for i, path := range fs.Args() {
		ds, cs, err := verdict.ReadDecisionFiles([]string{path})
		if err != nil {
			return fmt.Errorf("verdict-compare: %w", err)
		}
		runs[i] = verdict.RecordsOf(ds, cs)
	}
	a, b := verdict.PairRecords(runs[0], runs[1])
	if len(a) == 0 {
		return fmt.Errorf("verdict-compare: %s and %s have no record name in common", fs.Arg(0), fs.Arg(1))
	}
	fmt.Fprintf(stdout, "%s against %s: %d records in both (of %d and %d)\n", fs.Arg(1), fs.Arg(0), len(a), len(runs[0]), len(runs[1]))
	all, err := verdict.GroupPairs(a, b, func(verdict.Decision) (string, error) { return "all", nil })
	if err != nil {
		return fmt.Errorf("verdict-compare: %w", err)
	}
	if g, ok := all["all"]; ok {
		fmt.Fprintf(stdout, "chequer error (decisions, mEMG a decision) in each, and the second less the first record by record with a 95%% interval\n")
		writeComparison(stdout, "all", g, verdict.ChequerFigures, chequerGap)
	}
	if len(groupers) > 0 && len(all) > 0 {
		groups, err := verdict.GroupPairs(a, b, func(d verdict.Decision) (string, error) { return groupKeyOf(groupers)(chequerSituation(d)) })
		if err != nil {
			return fmt.Errorf("verdict-compare: %w", err)
		}
		for _, k := range slices.Sorted(maps.Keys(groups)) {
			writeComparison(stdout, k, groups[k], verdict.ChequerFigures, chequerGap)
		}
	}
	everything := func(verdict.CubeDecision) (string, error) { return "all", nil }
	ca, _ := verdict.GroupCubeDecisions(a, everything)
	cb, _ := verdict.GroupCubeDecisions(b, everything)
	if ca["all"] != nil && cb["all"] != nil {
		fmt.Fprintf(stdout, "cube error (close or actual decisions, mEMG a decision) in each, and the second less the first record by record with a 95%% interval\n")
		g := [2][][2]verdict.Player{ca["all"], cb["all"]}
		writeComparison(stdout, "all", g, verdict.CubeFigures, func(g verdict.Gap) float64 { return g.Cube })
		writeTotals(stdout, g)
	}
	return nil
}

func chequerGap(g verdict.Gap) float64 { return g.Chequer }

// writeTotals prints how each player's cube error in all changed per
// 1,000 records, and the first's less the second's: a margin that makes
// more decisions close lowers the rate without lowering the errors.
func writeTotals(w io.Writer, g [2][][2]verdict.Player) {
	ds := verdict.Compare(g[0], g[1], verdict.CubeFigures)
	fmt.Fprintf(w, "cube error in all, EMG per 1,000 records, the second less the first record by record with a 95%% interval\n")
	per1000 := func(c float64, iv [2]float64) string {
		return signedInterval(1000*c, [2]float64{1000 * iv[0], 1000 * iv[1]})
	}
	for _, d := range ds {
		c, iv, _ := verdict.CompareTotals(g[0], g[1], d.Name, "", verdict.CubeFigures)
		fmt.Fprintf(w, "  %-12s %s\n", d.Name, per1000(c, iv))
	}
	if len(ds) == 2 {
		c, iv, _ := verdict.CompareTotals(g[0], g[1], ds[0].Name, ds[1].Name, verdict.CubeFigures)
		fmt.Fprintf(w, "  %s less %s: %s\n", ds[0].Name, ds[1].Name, per1000(c, iv))
	}
}

// writeComparison prints one group of verdict-compare: each player's
// decisions and rate of figures' kind in both runs and the change, then
// the change in the gap (gap picks its kind) where both players made
// decisions of the group in both runs.
func writeComparison(w io.Writer, name string, g [2][][2]verdict.Player, figures verdict.Figures, gap func(verdict.Gap) float64) {
	fmt.Fprintf(w, "%s\n", name)
	ds := verdict.Compare(g[0], g[1], figures)
	n := func(p verdict.Player) int { _, n := figures(p); return n }
	for _, d := range ds {
		fmt.Fprintf(w, "  %-12s %7d %6.2f %7d %6.2f  %s\n", d.Name,
			n(d.A), verdict.RateOf(d.A, figures), n(d.B), verdict.RateOf(d.B, figures), signedInterval(d.Change, d.Interval))
	}
	if len(ds) == 2 && n(ds[0].A) > 0 && n(ds[0].B) > 0 && n(ds[1].A) > 0 && n(ds[1].B) > 0 {
		first, second := ds[0].Name, ds[1].Name
		change, interval, _ := verdict.CompareGap(g[0], g[1], first, second, figures)
		fmt.Fprintf(w, "  %s less %s: %+.2f, then %+.2f: %s\n", first, second,
			gap(verdict.GapOf(g[0], first, second)), gap(verdict.GapOf(g[1], first, second)), signedInterval(change, interval))
	}
}

// groupKeyOf names a decision's group under groupers, joined by commas.
func groupKeyOf(groupers []decisionGrouper) func(situation) (string, error) {
	return func(s situation) (string, error) {
		parts := make([]string, len(groupers))
		for i, g := range groupers {
			p, err := g(s)
			if err != nil {
				return "", err
			}
			parts[i] = p
		}
		return strings.Join(parts, ", "), nil
	}
}

// writeDecisions writes every record's chequer and cube decisions as
// JSON lines.
func writeDecisions(path string, records []verdict.Record) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, r := range records {
			for _, d := range r.Decisions {
				if err := enc.Encode(d); err != nil {
					return err
				}
			}
			for _, d := range r.CubeDecisions {
				if err := enc.Encode(d); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// writeBreakdown prints, for each group of chequer decisions, each
// player's decisions, error rate (mEMG a decision, with an interval at
// level lv over the records) and error in all (EMG), so that a gap between two
// players can be traced to where it lies; then the same for the close or
// actual cube decisions, where the records have them.
func writeBreakdown(w io.Writer, records []verdict.Record, names []string, groupers []decisionGrouper, lv level) error {
	key := groupKeyOf(groupers)
	chequer, err := verdict.GroupDecisions(records, func(d verdict.Decision) (string, error) { return key(chequerSituation(d)) })
	if err != nil {
		return err
	}
	cube, err := verdict.GroupCubeDecisions(records, func(d verdict.CubeDecision) (string, error) { return key(cubeSituation(d)) })
	if err != nil {
		return err
	}
	by := strings.Join(names, " and ")
	if len(chequer) > 0 {
		fmt.Fprintf(w, "\nchequer error by %s (decisions, mEMG a decision with a %s interval over the records, EMG in all)\n", by, lv.percent)
		writeGroups(w, lv, chequer, func(p verdict.Summary) (int, float64, [2]float64, float64) {
			return p.UnforcedMoves, p.ChequerRate(), p.ChequerInterval, p.ChequerError
		}, func(g verdict.Gap) (float64, [2]float64) { return g.Chequer, g.ChequerInterval })
	}
	if len(cube) > 0 {
		fmt.Fprintf(w, "\ncube error by %s (close or actual decisions, mEMG a decision with a %s interval over the records, EMG in all)\n", by, lv.percent)
		writeGroups(w, lv, cube, func(p verdict.Summary) (int, float64, [2]float64, float64) {
			return p.CubeDecisions, p.CubeRate(), p.CubeInterval, p.CubeError
		}, func(g verdict.Gap) (float64, [2]float64) { return g.Cube, g.CubeInterval })
	}
	return nil
}

// writeGroups prints the groups in key order: each player's decisions,
// rate with its interval and error in all, then the gap between two
// players where both made decisions of the group.
func writeGroups(w io.Writer, lv level, groups map[string][][2]verdict.Player,
	figures func(verdict.Summary) (n int, rate float64, interval [2]float64, total float64),
	gap func(verdict.Gap) (float64, [2]float64)) {
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		fmt.Fprintf(w, "%s\n", k)
		played := 0
		for _, s := range verdict.Summarise(groups[k]) {
			n, rate, interval, total := figures(s)
			if n == 0 {
				continue
			}
			played++
			interval = lv.of(rate, interval)
			fmt.Fprintf(w, "  %-12s %7d %22s %8.3f\n", s.Name, n, rateInterval(rate, interval), total)
		}
		if names := playerNames(groups[k]); len(names) == 2 && played == 2 {
			v, interval := gap(verdict.GapOf(groups[k], names[0], names[1]))
			fmt.Fprintf(w, "  %s less %s: %s\n", names[0], names[1], signedInterval(v, lv.of(v, interval)))
		}
	}
}
