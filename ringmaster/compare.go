package ringmaster

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// Comparison is what `ringmaster compare` prints: two competitions played
// on the same dice (the same seed and matchup ids), matchup by matchup, the
// first player's points per game in the first competition minus those in
// the second, game by game. Where one side of a matchup changed (a new
// network against the same opponent), each game's dice are the same in
// both. The two games soon part ways, so the raw difference keeps most of
// the luck; the difference of luck-adjusted results keeps little of it.
type Comparison struct {
	// Competitions are the two codes (their paths where the codes are
	// the same).
	Competitions [2]string
	Seed         int64
	// Plies is the depth of the analyses behind the luck-adjusted figures.
	Plies    int
	Matchups []*MatchupComparison
	// Skipped says, per matchup left out, why.
	Skipped []string
}

// MatchupComparison is one matchup of a Comparison. Everything is over the
// games finished in both competitions (with paired dice, over the pairs
// finished in both).
type MatchupComparison struct {
	ID       string
	Settings string
	// SettingsB are the second competition's settings where they differ
	// (CompareOptions.AcrossSettings), else empty.
	SettingsB string
	// Players are the matchup's players in each competition, first
	// player first.
	Players [2][2]string
	Games   int
	// Points are each competition's points per game for its first player.
	Points [2]ratings.Summary
	// Difference is Points[0] minus Points[1], game by game, with an
	// interval over dice pairs where the games are paired.
	Difference ratings.Summary
	// Analysed counts the common games analysed at Plies in both
	// competitions; the luck-adjusted figures are over those games.
	Analysed               int
	LuckAdjusted           [2]ratings.Summary
	LuckAdjustedDifference ratings.Summary
}

// sideResult is one game's points for a matchup's first player, raw and
// (when analysed) luck-adjusted.
type sideResult struct {
	points, luck float64
	analysed     bool
}

// CompareOptions are what Compare may be told.
type CompareOptions struct {
	// Plies is the depth of the analyses behind the luck-adjusted figures
	// (`ringmaster analyse --plies N` makes them).
	Plies int
	// AcrossSettings pairs a matchup's games even where its settings
	// differ between the two (races settled against played out, say): the
	// games still share their dice, so the difference measures what the
	// settings change. The dice are shared game by game only where both
	// pair their games or neither does.
	AcrossSettings bool
}

// Compare pairs the finished games of two competitions of the same game
// and seed by matchup id and game number, and compares their first
// players' results; the analyses stored at opts.Plies give the
// luck-adjusted figures. A matchup that only one competition has, or
// whose settings differ (unless opts.AcrossSettings), is skipped with a
// reason.
func Compare(ctx context.Context, a, b *Ringmaster, opts CompareOptions) (*Comparison, error) {
	plies := opts.Plies
	if a.Comp.Game != b.Comp.Game {
		return nil, fmt.Errorf("%s plays %s and %s plays %s: nothing to compare", a.Comp.Path, a.Comp.Game, b.Comp.Path, b.Comp.Game)
	}
	if a.Comp.Seed != b.Comp.Seed {
		return nil, fmt.Errorf("%s has seed %d and %s seed %d: their games are not on the same dice", a.Comp.Path, a.Comp.Seed, b.Comp.Path, b.Comp.Seed)
	}
	var sides [2]map[string]map[int]sideResult
	var matchups [2]map[string]*control.Matchup
	for i, rm := range [2]*Ringmaster{a, b} {
		var err error
		if sides[i], matchups[i], err = rm.firstPlayerResults(ctx, plies); err != nil {
			return nil, fmt.Errorf("%s: %w", rm.Comp.Path, err)
		}
	}
	c := &Comparison{Competitions: [2]string{a.Comp.Code, b.Comp.Code}, Seed: a.Comp.Seed, Plies: plies}
	if a.Comp.Code == b.Comp.Code {
		c.Competitions = [2]string{a.Comp.Path, b.Comp.Path} // two directories' runs of one file
	}
	ids := make([]string, 0, len(matchups[0]))
	for id := range matchups[0] {
		ids = append(ids, id)
	}
	for id := range matchups[1] {
		if matchups[0][id] == nil {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		ma, mb := matchups[0][id], matchups[1][id]
		switch {
		case mb == nil:
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: only in %s", id, c.Competitions[0]))
			continue
		case ma == nil:
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: only in %s", id, c.Competitions[1]))
			continue
		case ma.Settings.Canonical() != mb.Settings.Canonical() && !opts.AcrossSettings:
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: settings differ (%s; %s; --across-settings compares them)", id, ma.Settings.Describe(), mb.Settings.Describe()))
			continue
		case ma.Settings.PairedGames() != mb.Settings.PairedGames():
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: one pairs its games on the same dice and the other does not (%s; %s)", id, ma.Settings.Describe(), mb.Settings.Describe()))
			continue
		}
		mc := compareMatchup(ma, mb, sides[0][id], sides[1][id])
		if mc.Games == 0 {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: no game finished in both", id))
			continue
		}
		c.Matchups = append(c.Matchups, mc)
	}
	return c, nil
}

// firstPlayerResults reads a competition's finished games as its
// matchups' first players' results, by matchup id and game number, with
// the luck-adjusted result of each game analysed at plies.
func (r *Ringmaster) firstPlayerResults(ctx context.Context, plies int) (map[string]map[int]sideResult, map[string]*control.Matchup, error) {
	var results []store.GameResult
	var analyses map[string]*store.Analysis
	err := r.withExistingStore(ctx, func(st *store.Store) error {
		var err error
		if results, err = st.Results(ctx); err != nil {
			return err
		}
		analyses, err = st.Analyses(ctx, r.defaultJudgeKey(plies))
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	matchups := map[string]*control.Matchup{}
	for _, m := range r.matchupsFrom(results) {
		matchups[m.ID] = m
	}
	out := map[string]map[int]sideResult{}
	for _, res := range results {
		m := matchups[res.MatchupID]
		if m == nil {
			// A matchup no longer in the control file: its settings are
			// unknown, so it cannot be matched against the other's.
			continue
		}
		seat, points := firstPlayerSeat(res)
		s := sideResult{points: points}
		if an := analyses[res.GameID]; an != nil {
			if v, ok := an.Figures[judge.LuckAdjusted]; ok {
				s.luck, s.analysed = v[seat], true
			}
		}
		if out[m.ID] == nil {
			out[m.ID] = map[int]sideResult{}
		}
		out[m.ID][res.Number] = s
	}
	return out, matchups, nil
}

// compareMatchup compares one matchup's common games. With paired dice a
// pair counts only when both its games finished in both competitions, and
// the intervals are over pairs, since the two games of a pair share dice.
func compareMatchup(ma, mb *control.Matchup, ra, rb map[int]sideResult) *MatchupComparison {
	mc := &MatchupComparison{ID: ma.ID, Settings: ma.Settings.Describe(),
		Players: [2][2]string{{ma.PlayerA, ma.PlayerB}, {mb.PlayerA, mb.PlayerB}}}
	if ma.Settings.Canonical() != mb.Settings.Canonical() {
		mc.SettingsB = mb.Settings.Describe()
	}
	size := 1 // games per independent unit
	if ma.Settings.PairedGames() {
		size = 2
	}
	units := map[int][]int{} // the common games of each unit (pair or game)
	for n := range ra {
		if _, ok := rb[n]; ok {
			units[n/size] = append(units[n/size], n)
		}
	}
	keys := make([]int, 0, len(units))
	for k, ns := range units {
		if len(ns) == size {
			keys = append(keys, k)
		}
	}
	sort.Ints(keys)
	var pts, luck [2]unitSeries
	var diff, luckDiff unitSeries
	for _, k := range keys {
		ns := units[k]
		sort.Ints(ns)
		var p, l [2][]float64
		analysed := true
		for _, n := range ns {
			for i, r := range [2]sideResult{ra[n], rb[n]} {
				p[i], l[i] = append(p[i], r.points), append(l[i], r.luck)
				analysed = analysed && r.analysed
			}
		}
		mc.Games += size
		pts[0].add(p[0])
		pts[1].add(p[1])
		diff.add(minus(p[0], p[1]))
		if analysed {
			mc.Analysed += size
			luck[0].add(l[0])
			luck[1].add(l[1])
			luckDiff.add(minus(l[0], l[1]))
		}
	}
	for i := range 2 {
		mc.Points[i], mc.LuckAdjusted[i] = pts[i].summary(), luck[i].summary()
	}
	mc.Difference, mc.LuckAdjustedDifference = diff.summary(), luckDiff.summary()
	return mc
}

// unitSeries holds per-game figures grouped into independent units: single
// games, or the two games of a dice pair.
type unitSeries struct {
	singles []float64
	pairs   [][2]float64
}

func (s *unitSeries) add(games []float64) {
	if len(games) == 2 {
		s.pairs = append(s.pairs, [2]float64{games[0], games[1]})
		return
	}
	s.singles = append(s.singles, games[0])
}

func (s *unitSeries) summary() ratings.Summary {
	if s.pairs != nil {
		return ratings.PairedPointsPerGame(s.pairs)
	}
	return ratings.PointsPerGame(s.singles)
}

func minus(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

// WriteText prints the comparison, a table per matchup.
func (c *Comparison) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s against %s, seed %d: the first player's points per game, game by game on the same dice\n",
		c.Competitions[0], c.Competitions[1], c.Seed)
	for _, m := range c.Matchups {
		settings := m.Settings
		if m.SettingsB != "" {
			settings = fmt.Sprintf("%s; in %s: %s", m.Settings, c.Competitions[1], m.SettingsB)
		}
		fmt.Fprintf(&b, "\n%s (%s): %d games in both", m.ID, settings, m.Games)
		if m.Analysed > 0 {
			fmt.Fprintf(&b, ", %d analysed at %d ply in both", m.Analysed, c.Plies)
		}
		b.WriteString("\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "\t%s\t%s\tdifference\t\n", c.Competitions[0], c.Competitions[1])
		fmt.Fprintf(tw, "first player\t%s\t%s\t\t\n", m.Players[0][0], m.Players[1][0])
		row := func(label string, a, b, d ratings.Summary) {
			fmt.Fprintf(tw, "%s\t%+.3f\t%+.3f\t%+.3f [%+.3f, %+.3f]\t\n", label, a.Mean, b.Mean, d.Mean, d.Low, d.High)
		}
		row("raw", m.Points[0], m.Points[1], m.Difference)
		if m.Analysed > 0 {
			row("luck-adjusted", m.LuckAdjusted[0], m.LuckAdjusted[1], m.LuckAdjustedDifference)
		}
		tw.Flush()
		if m.Analysed == 0 {
			fmt.Fprintf(&b, "luck-adjusted: no game analysed at %d ply in both (ringmaster analyse --plies %d on each)\n", c.Plies, c.Plies)
		}
	}
	for _, s := range c.Skipped {
		fmt.Fprintf(&b, "\nskipped %s\n", s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// comparisonJSON is the --json form of a Comparison.
type comparisonJSON struct {
	Competitions [2]string               `json:"competitions"`
	Seed         int64                   `json:"seed"`
	Plies        int                     `json:"plies"`
	Matchups     []matchupComparisonJSON `json:"matchups"`
	Skipped      []string                `json:"skipped"`
}

type matchupComparisonJSON struct {
	ID                     string           `json:"id"`
	Settings               string           `json:"settings"`
	SettingsB              string           `json:"settings_b,omitempty"`
	Players                [2][2]string     `json:"players"`
	Games                  int              `json:"games"`
	Points                 [2]JSONInterval  `json:"points"`
	Difference             JSONInterval     `json:"difference"`
	Analysed               int              `json:"analysed"`
	LuckAdjusted           *[2]JSONInterval `json:"luck_adjusted,omitempty"`
	LuckAdjustedDifference *JSONInterval    `json:"luck_adjusted_difference,omitempty"`
}

func intervalOf(s ratings.Summary) JSONInterval {
	return JSONInterval{Value: JSONFloat(s.Mean), Low: JSONFloat(s.Low), High: JSONFloat(s.High)}
}

// WriteJSON prints the comparison as JSON (fields in docs/ringmaster.md).
func (c *Comparison) WriteJSON(w io.Writer) error {
	out := comparisonJSON{Competitions: c.Competitions, Seed: c.Seed, Plies: c.Plies, Skipped: c.Skipped,
		Matchups: []matchupComparisonJSON{}}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	for _, m := range c.Matchups {
		j := matchupComparisonJSON{ID: m.ID, Settings: m.Settings, SettingsB: m.SettingsB, Players: m.Players, Games: m.Games,
			Points: [2]JSONInterval{intervalOf(m.Points[0]), intervalOf(m.Points[1])}, Difference: intervalOf(m.Difference),
			Analysed: m.Analysed}
		if m.Analysed > 0 {
			j.LuckAdjusted = &[2]JSONInterval{intervalOf(m.LuckAdjusted[0]), intervalOf(m.LuckAdjusted[1])}
			d := intervalOf(m.LuckAdjustedDifference)
			j.LuckAdjustedDifference = &d
		}
		out.Matchups = append(out.Matchups, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
