package ringmaster

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// Show prints the report to w without touching CODE.report. It is safe to
// use while a run is in progress (SQLite in WAL mode lets readers in).
func (r *Ringmaster) Show(ctx context.Context, w io.Writer) error {
	return r.withExistingStore(ctx, func(st *store.Store) error {
		return r.printFullReport(ctx, st, w)
	})
}

// Report rewrites CODE.report and prints it, and rewrites any record
// file in CODE.games/ that is missing or differs from the database (a
// kill between the commit and the file, a full disk, a user's edit).
func (r *Ringmaster) Report(ctx context.Context, w io.Writer) error {
	return r.withExistingStore(ctx, func(st *store.Store) error {
		if err := r.writeReport(ctx, st); err != nil {
			return err
		}
		if err := r.printFullReport(ctx, st, w); err != nil {
			return err
		}
		if !r.Comp.RecordGames {
			return nil
		}
		n, err := r.rebuildRecords(ctx, st)
		if n > 0 {
			fmt.Fprintf(w, "\nrewrote %d record file(s) in %s from the database\n", n, r.GamesDir())
		}
		return err
	})
}

// rebuildRecords rewrites the record files that are missing or differ
// from the stored records, and returns how many it wrote.
func (r *Ringmaster) rebuildRecords(ctx context.Context, st *store.Store) (int, error) {
	finished, _, err := st.GameIDs(ctx)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(r.GamesDir(), 0o755); err != nil {
		return 0, fmt.Errorf("create %s: %w", r.GamesDir(), err)
	}
	n := 0
	for _, id := range finished {
		records, err := st.Records(ctx, id)
		if err != nil {
			return n, err
		}
		for format, text := range records {
			path := filepath.Join(r.GamesDir(), id+"."+format)
			if old, err := os.ReadFile(path); err == nil && string(old) == text {
				continue
			}
			if err := writeFileAtomic(path, []byte(text)); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
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
	if err := r.printFullReport(ctx, st, &buf); err != nil {
		return err
	}
	if err := os.WriteFile(r.ReportPath(), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
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

// luckAdjustedElo turns a matchup's luck-adjusted points per game into an
// Elo difference with its interval, where they are win-or-loss scores
// (+1, -1): the score is (1+x)/2. ok is false where they are not, or the
// figures are not finite.
func (r *Ringmaster) luckAdjustedElo(m *control.Matchup, l ratings.Summary) (elo, low, high float64, ok bool) {
	jg, isJudge := r.Game.(judge.Game)
	if !isJudge || !jg.WinScaled(m.Settings) {
		return 0, 0, 0, false
	}
	// A luck-adjusted score may stray past 0 or 1; the Elo of the
	// interval's end is then unbounded, shown as such.
	toElo := func(x float64) float64 {
		switch score := (1 + x) / 2; {
		case score <= 0:
			return math.Inf(-1)
		case score >= 1:
			return math.Inf(1)
		default:
			return ratings.EloFromScore(score)
		}
	}
	elo, low, high = toElo(l.Mean), toElo(l.Low), toElo(l.High)
	return elo, low, high, !math.IsNaN(elo) && !math.IsInf(elo, 0)
}

// reportData is what a report is made from: the stored results, the void
// attempts and the engines' self-descriptions.
type reportData struct {
	results []store.GameResult
	voids   []store.VoidGame
	engines map[string]string
	// luck holds, with luck_adjust, each analysed game's luck-adjusted
	// points for seats A and B.
	luck map[string][2]float64
	// tunerGames are a tuning competition's games as issued.
	tunerGames []store.TunerGame
	// defs are the definitions the players played under, read only for
	// the full and JSON reports (loadReportDataWithDefinitions): the live
	// view, redrawn every second, does not show them.
	defs []store.Definition
}

func (r *Ringmaster) loadReportData(ctx context.Context, st *store.Store) (reportData, error) {
	// (The luck-adjusted figures are read whether or not luck_adjust is
	// set; the report shows them only when it is.)
	var d reportData
	var err error
	if d.results, err = st.Results(ctx); err != nil {
		return d, err
	}
	if d.voids, err = st.Voids(ctx); err != nil {
		return d, err
	}
	if d.engines, err = st.Engines(ctx); err != nil {
		return d, err
	}
	if d.tunerGames, err = st.TunerGames(ctx); err != nil {
		return d, err
	}
	analyses, err := st.Analyses(ctx, r.luckKey())
	if err != nil {
		return d, err
	}
	d.luck = map[string][2]float64{}
	for id, a := range analyses {
		if v, ok := a.Figures[judge.LuckAdjusted]; ok {
			d.luck[id] = v
		}
	}
	return d, nil
}

// loadReportDataWithDefinitions is loadReportData with the players'
// definitions, which the full and JSON reports list.
func (r *Ringmaster) loadReportDataWithDefinitions(ctx context.Context, st *store.Store) (reportData, error) {
	d, err := r.loadReportData(ctx, st)
	if err != nil {
		return d, err
	}
	if d.defs, err = st.Definitions(ctx); err != nil {
		return d, err
	}
	return d, nil
}

// printFullReport prints the report kept in CODE.report and shown by show
// and report: a heading, every matchup with its details, every void
// attempt and the engines' descriptions.
func (r *Ringmaster) printFullReport(ctx context.Context, st *store.Store, w io.Writer) error {
	d, err := r.loadReportDataWithDefinitions(ctx, st)
	if err != nil {
		return err
	}
	r.writeFullReport(w, d)
	return nil
}

func (r *Ringmaster) writeFullReport(w io.Writer, d reportData) {
	fmt.Fprintf(w, "%s: %s\n", r.Comp.Type, r.Comp.Code)
	if r.Comp.Description != "" {
		fmt.Fprintln(w, r.Comp.Description)
	}
	fmt.Fprintln(w)
	stats := r.gather(d)
	r.writeSection(w, d, stats, true)
	for i, s := range stats {
		if i > 0 {
			fmt.Fprintln(w)
		}
		r.printMatchupSummary(w, s)
		r.printMatchupDetails(w, s)
	}
	writeVoids(w, d.voids)
	codes := make([]string, 0, len(d.engines))
	for c := range d.engines {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	fmt.Fprintln(w)
	for _, c := range codes {
		fmt.Fprintf(w, "player %s: %s\n", c, d.engines[c])
	}
	writeDefinitionChanges(w, d.defs)
}

// writeDefinitionChanges says which players played under more than one
// definition (the control file was edited between runs), with the games
// of each and what changed; show --json gives the definitions in full.
func writeDefinitionChanges(w io.Writer, defs []store.Definition) {
	byCode := map[string][]store.Definition{}
	for _, d := range defs {
		if d.Games > 0 {
			byCode[d.Code] = append(byCode[d.Code], d)
		}
	}
	for _, code := range slices.Sorted(maps.Keys(byCode)) {
		list := byCode[code]
		if len(list) < 2 {
			continue
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].LastStarted < list[j].LastStarted })
		parts := make([]string, len(list))
		for i, d := range list {
			parts[i] = fmt.Sprintf("%s from %s to %s", plural(d.Games, "game"), d.FirstGame, d.LastGame)
			if i > 0 {
				parts[i] += " (" + strings.Join(control.ChangedKeys(list[i-1].Definition, d.Definition), ", ") + " changed)"
			}
		}
		fmt.Fprintf(w, "player %s played under %d definitions: %s\n", code, len(list), strings.Join(parts, "; then "))
	}
}

// writeShortReport is the live display's report: each matchup's summary
// and the last three void attempts.
func (r *Ringmaster) writeShortReport(w io.Writer, d reportData) {
	stats := r.gather(d)
	r.writeSection(w, d, stats, false)
	for i, s := range stats {
		if i > 0 {
			fmt.Fprintln(w)
		}
		r.printMatchupSummary(w, s)
	}
	voids := d.voids
	if len(voids) > 3 {
		voids = voids[len(voids)-3:]
	}
	writeVoids(w, voids)
}

// writeSection prints the competition type's own section (the
// all-play-all's grid, a tuner's report), where it has one.
func (r *Ringmaster) writeSection(w io.Writer, d reportData, stats []*matchupStats, full bool) {
	if r.Comp.Proposer != nil {
		r.writeTuningSection(w, d, full)
		return
	}
	if rep, ok := r.sectionOwner().(contest.Reporter); ok {
		rep.WriteSection(w, r.field(d, stats))
	}
}

// sectionOwner is what prints the competition's own report sections: its
// planner where it has one (the planner knows the competition's
// settings), else its type.
func (r *Ringmaster) sectionOwner() any {
	if r.Comp.Planner != nil {
		return r.Comp.Planner
	}
	return r.Comp.Contest
}

// field is the competition's results as its type's section sees them.
func (r *Ringmaster) field(d reportData, stats []*matchupStats) contest.Field {
	f := contest.Field{Competitors: r.Comp.Competitors, Results: contestResults(d.results)}
	for _, s := range stats {
		f.Standings = append(f.Standings, contest.Standing{ID: s.m.ID, A: s.m.PlayerA, B: s.m.PlayerB, Played: s.played, Wins: s.wins})
	}
	f.Ratings = func() contest.Ratings {
		rt, err := rateResults([]ratingSource{{r, d.results}}, RatingsOptions{Prior: DefaultPrior})
		if err != nil {
			return contest.Ratings{Err: err}
		}
		// The heading fits the live view's 80 columns; the fit is
		// 'ringmaster ratings'' own, with its default prior.
		out := contest.Ratings{Heading: fmt.Sprintf("Bradley-Terry ratings (mean 0, 95%% interval, %g virtual draw per player)\n%s",
			DefaultPrior, rt.scaleNote())}
		for _, p := range rt.Table.Players {
			out.Players = append(out.Players, contest.Rated{Player: p.Player, Rating: p.Rating, Low: p.Low, High: p.High, Games: int(p.Games)})
		}
		return out
	}
	return f
}

func writeVoids(w io.Writer, voids []store.VoidGame) {
	if len(voids) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%d void game attempt(s) (replayed or left for a later run):\n", len(voids))
	for _, v := range voids {
		fmt.Fprintf(w, "  %s: %s\n", v.GameID, oneLine(v.Reason, 160))
	}
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// printMatchupSummary prints a matchup's heading, its wins table and its
// estimates.
func (r *Ringmaster) printMatchupSummary(w io.Writer, s *matchupStats) {
	m := s.m
	planned := ""
	if !s.ghost {
		planned = fmt.Sprintf("/%d", m.NumberOfGames)
	}
	if planned != "" || s.played != 1 {
		fmt.Fprintf(w, "%s (%d%s games)\n", m.Name, s.played, planned)
	} else {
		fmt.Fprintf(w, "%s (1 game)\n", m.Name)
	}
	if s.ghost {
		fmt.Fprintln(w, "?? (missing from control file)")
	} else {
		fmt.Fprintln(w, m.Settings.Describe())
	}
	if s.played == 0 {
		return
	}
	unit := r.Game.PointsUnit(m.Settings)
	columns := r.Game.SummaryColumns(m.Settings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	seatNames := r.Game.SeatNames()
	fmt.Fprintf(tw, "\twins\t\t%s\t\t%s\t\t", seatNames[0], seatNames[1])
	for _, c := range columns {
		fmt.Fprintf(tw, "%s\t", c)
	}
	fmt.Fprintf(tw, "forfeits\t\n")
	codes := [2]string{m.PlayerA, m.PlayerB}
	for i := 0; i < 2; i++ {
		o := 1 - i
		fmt.Fprintf(tw, "%s\t%g\t%s\t%d/%d\t%s\t%d/%d\t%s\t", codes[i], s.wins[i], pct(s.wins[i], float64(s.played)),
			s.firstWins[i], s.firstGames[i], pct(float64(s.firstWins[i]), float64(s.firstGames[i])),
			s.otherFirstWins[i], s.firstGames[o], pct(float64(s.otherFirstWins[i]), float64(s.firstGames[o])))
		for _, c := range columns {
			fmt.Fprintf(tw, "%d\t", s.totals[c][i])
		}
		fmt.Fprintf(tw, "%d\t\n", s.forfeits[i])
	}
	tw.Flush()
	sum, basis := s.summary()
	if math.IsNaN(sum.Low) {
		fmt.Fprintf(w, "%s for %s: %s, no interval from %s\n", unit, m.PlayerA, signed(sum.Mean), basis)
	} else {
		fmt.Fprintf(w, "%s for %s: %s, 95%% interval %s to %s (%s)\n", unit, m.PlayerA, signed(sum.Mean), signed(sum.Low), signed(sum.High), basis)
	}
	if r.Comp.JudgesGames(m) {
		if len(s.luck) >= 2 {
			l := ratings.PointsPerGame(s.luck)
			judgedBy := ""
			if r.Comp.LuckJudge != "" {
				judgedBy = " by " + r.luckKey()
			}
			fmt.Fprintf(w, "luck-adjusted %s for %s: %s, 95%% interval %s to %s (%d of %d games analysed%s)\n", unit, m.PlayerA,
				signed(l.Mean), signed(l.Low), signed(l.High), len(s.luck), s.played, judgedBy)
			if elo, lo, hi, ok := r.luckAdjustedElo(m, l); ok {
				fmt.Fprintf(w, "luck-adjusted Elo %s - %s: %s (95%% interval %s to %s)\n", m.PlayerA, m.PlayerB, eloText(elo), eloText(lo), eloText(hi))
			}
		} else {
			fmt.Fprintf(w, "luck-adjusted %s: not yet (%s analysed; run 'ringmaster analyse')\n", unit, plural(len(s.luck), "game"))
		}
	}
	if reason := s.eloWithheld(); reason != "" {
		fmt.Fprintf(w, "Elo %s - %s: not given: %s\n", m.PlayerA, m.PlayerB, reason)
	} else if s.wins[0]+s.wins[1] > 0 {
		// Wilson's interval keeps a finite end when one side won every
		// game, so the line is shown then too.
		elo, lo, hi := ratings.EloInterval(s.wins[0], s.wins[1], 0, 0.95)
		fmt.Fprintf(w, "Elo %s - %s: %s (95%% interval %s to %s), LOS %.1f%%\n", m.PlayerA, m.PlayerB, eloText(elo), eloText(lo), eloText(hi), 100*ratings.LOS(s.wins[0], s.wins[1]))
	}
	if s.sprt != nil {
		fmt.Fprintln(w, s.sprt.describe())
	}
	if s.draws > 0 {
		fmt.Fprintf(w, "jigos (draws, half a win each): %d (%s)\n", s.draws, pct(float64(s.draws), float64(s.played)))
	}
	if s.unknown > 0 {
		fmt.Fprintf(w, "unknown results: %d (%s): %d at the move limit, %d unsettled (see each game's detail)\n", s.unknown,
			pct(float64(s.unknown), float64(s.played)), s.atMoveLimit, s.unknown-s.atMoveLimit)
	}
}

// printMatchupDetails prints what only the full report shows: cube
// actions, CPU per decision and the forfeits' reasons.
func (r *Ringmaster) printMatchupDetails(w io.Writer, s *matchupStats) {
	m := s.m
	if s.played == 0 {
		return
	}
	codes := [2]string{m.PlayerA, m.PlayerB}
	if !s.ghost {
		r.Game.WriteDetails(w, m.Settings, codes, s.totals)
	}
	for i := 0; i < 2; i++ {
		if s.decisions[i] > 0 {
			fmt.Fprintf(w, "%s: %d decisions, average CPU %.3f ms per decision, %.3f s per game\n", codes[i], s.decisions[i],
				1000*s.cpu[i]/float64(s.decisions[i]), s.cpu[i]/float64(s.played))
		}
	}
	for _, f := range s.forfeitReasons {
		fmt.Fprintf(w, "forfeit %s\n", oneLine(f, 200))
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
