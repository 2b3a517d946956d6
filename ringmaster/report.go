package ringmaster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// Show prints the report to w without touching CODE.report. It is safe to
// use while a run is in progress (SQLite in WAL mode lets readers in).
func (r *Ringmaster) Show(ctx context.Context, w io.Writer) error {
	return r.withExistingStore(ctx, func(st *store.Store) error {
		return r.printReport(ctx, st, w, false)
	})
}

// Report rewrites CODE.report and prints it.
func (r *Ringmaster) Report(ctx context.Context, w io.Writer) error {
	return r.withExistingStore(ctx, func(st *store.Store) error {
		if err := r.writeReport(ctx, st); err != nil {
			return err
		}
		return r.printReport(ctx, st, w, false)
	})
}

// withExistingStore opens the database for fn, refusing to create one.
func (r *Ringmaster) withExistingStore(ctx context.Context, fn func(*store.Store) error) error {
	if _, err := os.Stat(r.DBPath()); err != nil {
		return fmt.Errorf("no status file (%s): has the competition been run?", r.DBPath())
	}
	st, err := r.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(st)
}

func (r *Ringmaster) writeReport(ctx context.Context, st *store.Store) error {
	var buf bytes.Buffer
	if err := r.printReport(ctx, st, &buf, false); err != nil {
		return err
	}
	if err := os.WriteFile(r.ReportPath(), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// matchupStats gathers one matchup's figures from its results, always from
// the view of the matchup's first player (A) and second (B).
type matchupStats struct {
	m              *control.Matchup
	ghost          bool
	played         int
	wins           [2]float64
	firstGames     [2]int // games in which A (B) moved first
	firstWins      [2]int // ... and won
	points         []float64
	pairs          map[int]*[2]float64
	pairSeen       map[int]int
	gammons, bgs   [2]int
	cube           [2]store.Side
	cpu            [2]float64
	decisions      [2]int
	forfeits       [2]int
	unknown        int
	forfeitReasons []string
	sprt           *sprtTally
}

func (r *Ringmaster) gather(results []store.GameResult) []*matchupStats {
	var list []*matchupStats
	byID := map[string]*matchupStats{}
	for _, m := range r.Comp.Matchups {
		s := &matchupStats{m: m, pairs: map[int]*[2]float64{}, pairSeen: map[int]int{}, sprt: newSPRTTally(m)}
		byID[m.ID] = s
		list = append(list, s)
	}
	for _, res := range results {
		s := byID[res.MatchupID]
		if s == nil {
			// A matchup no longer in the control file keeps its results.
			m := &control.Matchup{ID: res.MatchupID, Name: res.MatchupID, PlayerA: res.PlayerA, PlayerB: res.PlayerB}
			if res.Swapped {
				m.PlayerA, m.PlayerB = res.PlayerB, res.PlayerA
			}
			s = &matchupStats{m: m, ghost: true, pairs: map[int]*[2]float64{}, pairSeen: map[int]int{}}
			byID[res.MatchupID] = s
			list = append(list, s)
		}
		s.add(res)
	}
	return list
}

func (s *matchupStats) add(res store.GameResult) {
	if s.sprt != nil {
		s.sprt.add(res)
	}
	// Seat sides to matchup sides: seat A is the matchup's A unless swapped.
	sides := [2]store.Side{res.A, res.B}
	if res.Swapped {
		sides[0], sides[1] = sides[1], sides[0]
	}
	idx := func(code string) int {
		switch code {
		case s.m.PlayerA:
			return 0
		case s.m.PlayerB:
			return 1
		}
		return -1
	}
	s.played++
	w := idx(res.Winner)
	if w >= 0 {
		s.wins[w]++
	} else {
		s.unknown++
	}
	if f := idx(res.FirstMover); f >= 0 {
		s.firstGames[f]++
		if w == f {
			s.firstWins[f]++
		}
	}
	if fb := idx(res.ForfeitBy); fb >= 0 {
		s.forfeits[fb]++
		s.forfeitReasons = append(s.forfeitReasons, res.GameID+": "+res.Detail)
	}
	pa := float64(sides[0].Points)
	s.points = append(s.points, pa)
	if s.m.Settings.Dice == control.DicePaired {
		k := res.Number / 2
		if s.pairs[k] == nil {
			s.pairs[k] = &[2]float64{}
		}
		s.pairs[k][res.Number%2] = pa
		s.pairSeen[k]++
	}
	for i := 0; i < 2; i++ {
		s.gammons[i] += sides[i].Gammons
		s.bgs[i] += sides[i].Backgammons
		s.cube[i].Doubles += sides[i].Doubles
		s.cube[i].Takes += sides[i].Takes
		s.cube[i].Drops += sides[i].Drops
		s.cube[i].Beavers += sides[i].Beavers
		s.cpu[i] += sides[i].CPU.Seconds()
		s.decisions[i] += sides[i].Decisions
	}
}

// summary is the points-per-game estimate: by pairs for paired dice (each
// pair's sum is one sample, which cancels most of the dice luck), by games
// otherwise.
func (s *matchupStats) summary() (ratings.Summary, string) {
	if s.m.Settings.Dice == control.DicePaired {
		var pairs [][2]float64
		keys := make([]int, 0, len(s.pairs))
		for k := range s.pairs {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		for _, k := range keys {
			if s.pairSeen[k] == 2 {
				pairs = append(pairs, *s.pairs[k])
			}
		}
		if len(pairs) >= 2 {
			return ratings.PairedPointsPerGame(pairs), fmt.Sprintf("%d complete pairs", len(pairs))
		}
	}
	return ratings.PointsPerGame(s.points), fmt.Sprintf("%d games", len(s.points))
}

func pct(n, d float64) string {
	if d == 0 {
		return "--"
	}
	return fmt.Sprintf("%.1f%%", 100*n/d)
}

func signed(x float64) string {
	if math.IsNaN(x) {
		return "--"
	}
	return fmt.Sprintf("%+.3f", x)
}

func (r *Ringmaster) printReport(ctx context.Context, st *store.Store, w io.Writer, short bool) error {
	results, err := st.Results(ctx)
	if err != nil {
		return err
	}
	voids, err := st.Voids(ctx)
	if err != nil {
		return err
	}
	stats := r.gather(results)
	if !short {
		fmt.Fprintf(w, "%s: %s\n", r.Comp.Type, r.Comp.Code)
		if r.Comp.Description != "" {
			fmt.Fprintln(w, r.Comp.Description)
		}
		fmt.Fprintln(w)
	}
	if r.Comp.Type == control.AllPlayAll {
		r.printGrid(w, stats)
		fmt.Fprintln(w)
	}
	for i, s := range stats {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printMatchup(w, s, short)
	}
	if len(voids) > 0 {
		fmt.Fprintf(w, "\n%d void game attempt(s) (replayed or left for a later run):\n", len(voids))
		shown := voids
		if short && len(shown) > 3 {
			shown = shown[len(shown)-3:]
		}
		for _, v := range shown {
			fmt.Fprintf(w, "  %s: %s\n", v.GameID, oneLine(v.Reason, 160))
		}
	}
	if !short {
		engines, err := st.Engines(ctx)
		if err != nil {
			return err
		}
		codes := make([]string, 0, len(engines))
		for c := range engines {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		fmt.Fprintln(w)
		for _, c := range codes {
			fmt.Fprintf(w, "player %s: %s\n", c, engines[c])
		}
	}
	return nil
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func settingsText(g control.GameSettings) string {
	var parts []string
	if g.MatchLength == 0 {
		parts = append(parts, "money game")
	} else {
		parts = append(parts, fmt.Sprintf("%d-point match", g.MatchLength))
	}
	if !g.Cube {
		parts = append(parts, "cubeless")
	} else if g.MatchLength == 0 {
		if g.Jacoby {
			parts = append(parts, "Jacoby")
		}
		if g.Beavers {
			parts = append(parts, "beavers")
		}
	} else if g.Crawford {
		parts = append(parts, "Crawford")
	}
	if g.Variant != "" && g.Variant != "standard" {
		parts = append(parts, g.Variant)
	}
	parts = append(parts, g.Dice+" dice")
	return strings.Join(parts, ", ")
}

func printMatchup(w io.Writer, s *matchupStats, short bool) {
	m := s.m
	planned := ""
	if !s.ghost {
		planned = fmt.Sprintf("/%d", m.NumberOfGames)
	}
	fmt.Fprintf(w, "%s (%d%s games)\n", m.Name, s.played, planned)
	if s.ghost {
		fmt.Fprintln(w, "?? (missing from control file)")
	} else {
		fmt.Fprintln(w, settingsText(m.Settings))
	}
	if s.played == 0 {
		return
	}
	unit := "points/game"
	if m.Settings.MatchLength > 0 {
		unit = "match points/match (+1 win, -1 loss)"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\twins\t\tmoved first: won\t\tother moved first: won\t\tgammons\tbackgammons\tforfeits\t\n")
	codes := [2]string{m.PlayerA, m.PlayerB}
	for i := 0; i < 2; i++ {
		o := 1 - i
		fmt.Fprintf(tw, "%s\t%g\t%s\t%d/%d\t%s\t%d/%d\t%s\t%d\t%d\t%d\t\n", codes[i], s.wins[i], pct(s.wins[i], float64(s.played)),
			s.firstWins[i], s.firstGames[i], pct(float64(s.firstWins[i]), float64(s.firstGames[i])),
			s.firstGames[o]-s.firstWins[o], s.firstGames[o], pct(float64(s.firstGames[o]-s.firstWins[o]), float64(s.firstGames[o])),
			s.gammons[i], s.bgs[i], s.forfeits[i])
	}
	tw.Flush()
	sum, basis := s.summary()
	fmt.Fprintf(w, "%s for %s: %s, 95%% interval %s to %s (%s)\n", unit, m.PlayerA, signed(sum.Mean), signed(sum.Low), signed(sum.High), basis)
	decided := s.wins[0] + s.wins[1]
	if decided > 0 && s.wins[0] > 0 && s.wins[1] > 0 {
		elo, lo, hi := ratings.EloInterval(s.wins[0], s.wins[1], 0, 0.95)
		fmt.Fprintf(w, "Elo %s - %s: %s (95%% interval %s to %s), LOS %.1f%%\n", m.PlayerA, m.PlayerB, eloText(elo), eloText(lo), eloText(hi), 100*ratings.LOS(s.wins[0], s.wins[1]))
	}
	if s.sprt != nil {
		fmt.Fprintln(w, s.sprt.describe())
	}
	if s.unknown > 0 {
		fmt.Fprintf(w, "unknown results: %d (%s): no winner within max_moves\n", s.unknown, pct(float64(s.unknown), float64(s.played)))
	}
	if short {
		return
	}
	if m.Settings.Cube {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "cube\tdoubles\ttakes\tdrops\tbeavers\t\n")
		for i := 0; i < 2; i++ {
			c := s.cube[i]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", codes[i], c.Doubles, c.Takes, c.Drops, c.Beavers)
		}
		tw.Flush()
	}
	for i := 0; i < 2; i++ {
		if s.decisions[i] > 0 {
			fmt.Fprintf(w, "%s: %d decisions, average CPU %.3f ms per decision\n", codes[i], s.decisions[i], 1000*s.cpu[i]/float64(s.decisions[i]))
		}
	}
	for _, f := range s.forfeitReasons {
		fmt.Fprintf(w, "forfeit %s\n", oneLine(f, 200))
	}
}

// printGrid shows an all-play-all's pairwise scores: row player's wins -
// losses against the column player, and a Bradley-Terry rating estimate.
func (r *Ringmaster) printGrid(w io.Writer, stats []*matchupStats) {
	comps := r.Comp.Competitors
	index := map[string]int{}
	for i, c := range comps {
		index[c] = i
	}
	n := len(comps)
	wins := make([][]float64, n)
	for i := range wins {
		wins[i] = make([]float64, n)
	}
	var pairs []ratings.PairResult
	total := 0
	for _, s := range stats {
		a, okA := index[s.m.PlayerA]
		b, okB := index[s.m.PlayerB]
		if !okA || !okB {
			continue
		}
		wins[a][b] += s.wins[0]
		wins[b][a] += s.wins[1]
		total += s.played
		if s.wins[0]+s.wins[1] > 0 {
			pairs = append(pairs, ratings.PairResult{A: s.m.PlayerA, B: s.m.PlayerB, WinsA: s.wins[0], WinsB: s.wins[1]})
		}
	}
	fmt.Fprintf(w, "%d games played\n\n", total)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprint(tw, "\t\t")
	for i := range comps {
		fmt.Fprintf(tw, "%s\t", control.CompetitorLetter(i))
	}
	fmt.Fprintln(tw)
	for i, c := range comps {
		fmt.Fprintf(tw, "%s\t%s\t", control.CompetitorLetter(i), c)
		for j := range comps {
			if i == j {
				fmt.Fprint(tw, "\t")
				continue
			}
			fmt.Fprintf(tw, "%g-%g\t", wins[i][j], wins[j][i])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if len(pairs) == 0 {
		return
	}
	rs, err := ratings.BradleyTerry(comps, pairs, 0)
	if err != nil {
		fmt.Fprintf(w, "(ratings: %v)\n", err)
		return
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Elo > rs[j].Elo })
	fmt.Fprintln(w, "\nBradley-Terry ratings (Elo scale, mean 0, 95% interval):")
	for _, rt := range rs {
		lo, hi := rt.Interval(0.95)
		fmt.Fprintf(w, "  %-12s %+6.0f  (%+.0f to %+.0f)  %g games\n", rt.Player, rt.Elo, lo, hi, rt.Games)
	}
}

// eloText prints an Elo figure; an interval can reach past any finite
// rating when one side won nearly everything.
func eloText(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

// JSONReport is the machine-readable report (ringmaster show --json). Each
// matchup's figures are from its first player's view where a single number
// is given; pairs of numbers are [first player, second player].
type JSONReport struct {
	Competition string            `json:"competition"`
	Type        string            `json:"type"`
	Description string            `json:"description,omitempty"`
	Matchups    []JSONMatchup     `json:"matchups"`
	VoidGames   int               `json:"void_game_attempts"`
	Engines     map[string]string `json:"engines"`
}

// JSONMatchup is one matchup's results.
type JSONMatchup struct {
	ID            string        `json:"id"`
	Name          string        `json:"name"`
	Players       [2]string     `json:"players"`
	Played        int           `json:"played"`
	Planned       int           `json:"planned"`
	MatchLength   int           `json:"match_length"`
	Wins          [2]float64    `json:"wins"`
	Unknown       int           `json:"unknown"`
	Forfeits      [2]int        `json:"forfeits"`
	Gammons       [2]int        `json:"gammons"`
	Backgammons   [2]int        `json:"backgammons"`
	PointsPerGame *JSONInterval `json:"points_per_game,omitempty"`
	Elo           *JSONInterval `json:"elo,omitempty"`
	Cube          [2]JSONCube   `json:"cube"`
	SPRT          *JSONSPRT     `json:"sprt,omitempty"`
}

// JSONInterval is an estimate with its 95% interval.
type JSONInterval struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Basis string  `json:"basis,omitempty"`
}

// JSONCube counts one player's cube actions.
type JSONCube struct {
	Doubles int `json:"doubles"`
	Takes   int `json:"takes"`
	Drops   int `json:"drops"`
	Beavers int `json:"beavers"`
}

// JSONSPRT is the state of a matchup's sequential test.
type JSONSPRT struct {
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower_bound"`
	Upper    float64 `json:"upper_bound"`
	Decision string  `json:"decision"`
}

// ShowJSON writes the report as JSON.
func (r *Ringmaster) ShowJSON(ctx context.Context, w io.Writer) error {
	return r.withExistingStore(ctx, func(st *store.Store) error {
		rep, err := r.jsonReport(ctx, st)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	})
}

func (r *Ringmaster) jsonReport(ctx context.Context, st *store.Store) (*JSONReport, error) {
	results, err := st.Results(ctx)
	if err != nil {
		return nil, err
	}
	voids, err := st.Voids(ctx)
	if err != nil {
		return nil, err
	}
	engines, err := st.Engines(ctx)
	if err != nil {
		return nil, err
	}
	rep := &JSONReport{Competition: r.Comp.Code, Type: r.Comp.Type, Description: r.Comp.Description,
		Matchups: []JSONMatchup{}, VoidGames: len(voids), Engines: engines}
	// JSON has no infinity: an unbounded Elo end is left out as null by
	// dropping the whole estimate, which then has no finite interval.
	finite := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return false
			}
		}
		return true
	}
	for _, s := range r.gather(results) {
		m := s.m
		jm := JSONMatchup{ID: m.ID, Name: m.Name, Players: [2]string{m.PlayerA, m.PlayerB}, Played: s.played,
			Planned: m.NumberOfGames, MatchLength: m.Settings.MatchLength, Wins: s.wins, Unknown: s.unknown,
			Forfeits: s.forfeits, Gammons: s.gammons, Backgammons: s.bgs}
		for i := 0; i < 2; i++ {
			c := s.cube[i]
			jm.Cube[i] = JSONCube{Doubles: c.Doubles, Takes: c.Takes, Drops: c.Drops, Beavers: c.Beavers}
		}
		if s.played > 0 {
			sum, basis := s.summary()
			if finite(sum.Mean, sum.Low, sum.High) {
				jm.PointsPerGame = &JSONInterval{Value: sum.Mean, Low: sum.Low, High: sum.High, Basis: basis}
			}
		}
		if s.wins[0] > 0 && s.wins[1] > 0 {
			elo, lo, hi := ratings.EloInterval(s.wins[0], s.wins[1], 0, 0.95)
			if finite(elo, lo, hi) {
				jm.Elo = &JSONInterval{Value: elo, Low: lo, High: hi}
			}
		}
		if s.sprt != nil {
			llr, d := s.sprt.state()
			lo, hi := s.sprt.test.Bounds()
			jm.SPRT = &JSONSPRT{LLR: llr, Lower: lo, Upper: hi, Decision: d.String()}
		}
		rep.Matchups = append(rep.Matchups, jm)
	}
	return rep, nil
}
