package ringmaster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// MaxAnalyseParallel is the most games judged at once: each worker holds
// its own judge (for backgammon, a bot per depth).
const MaxAnalyseParallel = 64

// AnalyseOptions configure Ringmaster.Analyse.
type AnalyseOptions struct {
	// Judge is the judge and its depth (an empty engine: the game's
	// default judge); each judge and depth keeps its own analyses.
	Judge judge.Spec
	// Parallel is how many games are judged at once, each worker with its
	// own judge (1 when 0).
	Parallel int
	// Progress, when set, receives a line per game judged.
	Progress io.Writer
	// Matchups, when not empty, limits the judging and the report to these
	// matchup ids (say, the one matchup a user is waiting on).
	Matchups []string
}

// AnalysisReport is what `ringmaster analyse` prints: every stored
// analysis of the competition's games by one judge at one depth, summed
// per matchup side and per player.
type AnalysisReport struct {
	Competition string
	// Spec is the judge as the user names it ("gnubg:0"), Judge as the
	// judge names itself ("gnubg 0-ply").
	Spec  judge.Spec
	Plies int
	Judge string
	// Analysed is how many games have an analysis by this judge; Now how
	// many of them this call judged.
	Analysed, Now int
	// Failed lists the games that could not be judged ("ID: reason").
	Failed   []string
	Matchups []*MatchupAnalysis
	Players  []judge.Player
	game     judge.Game
}

// MatchupAnalysis is one matchup's sums, from the view of its first
// player (A) and second (B).
type MatchupAnalysis struct {
	Matchup *control.Matchup
	Sides   [2]judge.Player
	// Points per game of A over the games analysed: raw, by pairs of
	// games with the same dice (when the matchup's games are paired), from
	// the luck-adjusted results, and both.
	Raw, Paired, LuckAdjusted, PairedLuckAdjusted ratings.Summary
	points, luck                                  []float64
	pairs, luckPairs                              map[int]*[2]float64
	pairSeen                                      map[int]int
}

// ErrNoAnalysis means the competition's game offers no analysis.
var ErrNoAnalysis = errors.New("analysis not available")

// Analyse judges every finished game of the competition that has no
// analysis by opts.Judge yet, storing each in CODE.db as it is done (so an
// interrupted call loses at most the games being judged, and the next call
// goes on from there), then reports all that judge's stored analyses. On
// cancellation it returns the context's error after the workers stop.
func (r *Ringmaster) Analyse(ctx context.Context, opts AnalyseOptions) (*AnalysisReport, error) {
	g, ok := r.Game.(judge.Game)
	if !ok {
		return nil, fmt.Errorf("%w for %s", ErrNoAnalysis, r.Game.Name())
	}
	parallel := max(opts.Parallel, 1)
	if parallel > MaxAnalyseParallel {
		return nil, fmt.Errorf("--parallel %d: at most %d games are judged at once", parallel, MaxAnalyseParallel)
	}
	spec, err := judge.Resolve(g, opts.Judge)
	if err != nil {
		return nil, err
	}
	opts.Judge = spec
	first, err := g.NewJudge(spec)
	if err != nil {
		return nil, err
	}
	var rep *AnalysisReport
	err = r.withExistingStore(ctx, func(st *store.Store) error {
		results, err := st.Results(ctx)
		if err != nil {
			return err
		}
		if results, err = r.selectMatchups(results, opts.Matchups); err != nil {
			return err
		}
		done, err := st.Analyses(ctx, spec.String())
		if err != nil {
			return err
		}
		var todo []store.GameResult
		for _, res := range results {
			if done[res.GameID] == nil {
				todo = append(todo, res)
			}
		}
		now, failed, err := r.judgeGames(ctx, st, g, first, todo, parallel, opts)
		if err != nil {
			return err
		}
		if done, err = st.Analyses(ctx, spec.String()); err != nil {
			return err
		}
		rep = r.analysisReport(g, results, done, opts.Matchups)
		rep.Spec, rep.Plies, rep.Judge, rep.Now, rep.Failed = spec, spec.Plies, first.Name(), now, failed
		return nil
	})
	return rep, err
}

// judgeGames has parallel workers judge todo and store each analysis.
func (r *Ringmaster) judgeGames(ctx context.Context, st *store.Store, g judge.Game, first judge.Judge, todo []store.GameResult,
	parallel int, opts AnalyseOptions) (now int, failed []string, err error) {
	jobs := make(chan store.GameResult)
	var mu sync.Mutex // guards now, failed, errs and the progress writer
	var errs []error
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for w := range min(parallel, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := first
			if w > 0 {
				var err error
				if j, err = g.NewJudge(opts.Judge); err != nil {
					fail(err)
					for range jobs {
					}
					return
				}
			}
			for res := range jobs {
				start := time.Now()
				a, err := judgeGame(ctx, st, j, res)
				if ctx.Err() != nil {
					continue // drain: the game is judged again next time
				}
				mu.Lock()
				if err != nil {
					failed = append(failed, fmt.Sprintf("%s: %v", res.GameID, err))
					if opts.Progress != nil {
						fmt.Fprintf(opts.Progress, "game %s: not analysed: %v\n", res.GameID, err)
					}
					mu.Unlock()
					continue
				}
				mu.Unlock()
				if err := storeAnalysis(ctx, st, &a, opts.Judge, j.Name(), start); err != nil {
					fail(err)
					continue
				}
				mu.Lock()
				now++
				if opts.Progress != nil {
					fmt.Fprintf(opts.Progress, "game %s analysed (%.1f s) [%d/%d]\n", res.GameID, a.Seconds, now+len(failed), len(todo))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, res := range todo {
		select {
		case jobs <- res:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if ctx.Err() != nil {
		return now, failed, fmt.Errorf("analysis interrupted after %d games (the next call goes on): %w", now, ctx.Err())
	}
	return now, failed, errors.Join(errs...)
}

// storeAnalysis keeps a game's finished judgement by spec, begun at
// start. It is kept even while ctx is being cancelled, so that it is not
// done again; one already stored by that judge is no error.
func storeAnalysis(ctx context.Context, st *store.Store, a *store.Analysis, spec judge.Spec, judgeName string, start time.Time) error {
	a.Spec, a.Plies, a.Judge, a.Seconds = spec.String(), spec.Plies, judgeName, time.Since(start).Seconds()
	if err := st.SaveAnalysis(context.WithoutCancel(ctx), *a); err != nil && !errors.Is(err, store.ErrAnalysed) {
		return err
	}
	return nil
}

// judgeGame judges one stored game and turns the judge's sides (as the
// records name them) into the game's seats A and B.
func judgeGame(ctx context.Context, st *store.Store, j judge.Judge, res store.GameResult) (store.Analysis, error) {
	recs, err := st.Records(ctx, res.GameID)
	if err != nil {
		return store.Analysis{}, err
	}
	if len(recs) == 0 {
		return store.Analysis{}, errors.New("no record stored")
	}
	a, err := j.Analyse(ctx, recs)
	if err != nil {
		return store.Analysis{}, err
	}
	figs := map[string][2]float64{}
	switch a.Players {
	case [2]string{res.PlayerA, res.PlayerB}:
		figs = a.Figures
	case [2]string{res.PlayerB, res.PlayerA}:
		for k, v := range a.Figures {
			figs[k] = [2]float64{v[1], v[0]}
		}
	default:
		return store.Analysis{}, fmt.Errorf("the record's players %s and %s are not the game's %s and %s",
			a.Players[0], a.Players[1], res.PlayerA, res.PlayerB)
	}
	return store.Analysis{GameID: res.GameID, Figures: figs}, nil
}

// selectMatchups keeps the results of the matchups named in ids (all of
// them when ids is empty). An id that is neither in the control file nor
// among the results is an error, so that a typing slip does not pass for
// a matchup with nothing to judge.
func (r *Ringmaster) selectMatchups(results []store.GameResult, ids []string) ([]store.GameResult, error) {
	if len(ids) == 0 {
		return results, nil
	}
	known := map[string]bool{}
	var names []string
	note := func(id string) {
		if !known[id] {
			known[id] = true
			names = append(names, id)
		}
	}
	for _, m := range r.matchupsFrom(results) {
		note(m.ID)
	}
	for _, res := range results {
		note(res.MatchupID)
	}
	wanted := map[string]bool{}
	for _, id := range ids {
		if !known[id] {
			return nil, fmt.Errorf("matchup %q is not in %s (its matchups: %s)", id, r.Comp.Code, strings.Join(names, ", "))
		}
		wanted[id] = true
	}
	var kept []store.GameResult
	for _, res := range results {
		if wanted[res.MatchupID] {
			kept = append(kept, res)
		}
	}
	return kept, nil
}

// analysisReport sums the analyses per matchup side and per player; when
// only is not empty, the control file's other matchups are left out (the
// results are already those of the matchups in only).
func (r *Ringmaster) analysisReport(g judge.Game, results []store.GameResult, done map[string]*store.Analysis, only []string) *AnalysisReport {
	rep := &AnalysisReport{Competition: r.Comp.Code, game: g}
	byID := map[string]*MatchupAnalysis{}
	newMatchup := func(m *control.Matchup) *MatchupAnalysis {
		ma := &MatchupAnalysis{Matchup: m, pairs: map[int]*[2]float64{}, luckPairs: map[int]*[2]float64{}, pairSeen: map[int]int{}}
		for i, code := range [2]string{m.PlayerA, m.PlayerB} {
			ma.Sides[i] = judge.Player{Code: code, Settings: m.Settings, Figures: map[string]float64{}}
		}
		byID[m.ID] = ma
		rep.Matchups = append(rep.Matchups, ma)
		return ma
	}
	for _, m := range r.matchupsFrom(results) {
		if len(only) == 0 || slices.Contains(only, m.ID) {
			newMatchup(m)
		}
	}
	players := map[string]*judge.Player{}
	settingsOf := map[string]string{} // a player's settings text, "" once mixed
	for _, res := range results {
		a := done[res.GameID]
		if a == nil {
			continue
		}
		rep.Analysed++
		ma := byID[res.MatchupID]
		if ma == nil {
			// A matchup no longer in the control file keeps its analyses.
			m := &control.Matchup{ID: res.MatchupID, Name: res.MatchupID, PlayerA: res.PlayerA, PlayerB: res.PlayerB,
				Settings: r.Game.DefaultSettings()}
			if res.Swapped {
				m.PlayerA, m.PlayerB = res.PlayerB, res.PlayerA
			}
			ma = newMatchup(m)
		}
		ma.add(res, a)
		for seat, code := range [2]string{res.PlayerA, res.PlayerB} {
			p := players[code]
			text := ma.Matchup.Settings.Canonical()
			if p == nil {
				p = &judge.Player{Code: code, Settings: ma.Matchup.Settings, Figures: map[string]float64{}}
				players[code] = p
				settingsOf[code] = text
			} else if settingsOf[code] != text {
				p.Settings = nil
			}
			p.Games++
			for name, v := range a.Figures {
				p.Figures[name] += v[seat]
			}
		}
	}
	for _, ma := range rep.Matchups {
		ma.summarise(r.pointsScale(ma.Matchup.Settings))
	}
	codes := make([]string, 0, len(players))
	for c := range players {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		rep.Players = append(rep.Players, *players[c])
	}
	return rep
}

func (ma *MatchupAnalysis) add(res store.GameResult, a *store.Analysis) {
	// Seats to the matchup's sides: seat A is the matchup's A unless swapped.
	first, points := firstPlayerSeat(res)
	seatOf := [2]int{first, 1 - first}
	for side := range 2 {
		ma.Sides[side].Games++
		for name, v := range a.Figures {
			ma.Sides[side].Figures[name] += v[seatOf[side]]
		}
	}
	luck, hasLuck := a.Figures[judge.LuckAdjusted]
	ma.points = append(ma.points, points)
	if hasLuck {
		ma.luck = append(ma.luck, luck[seatOf[0]])
	}
	if ma.Matchup.Settings.PairedGames() {
		k := res.Number / 2
		if ma.pairs[k] == nil {
			ma.pairs[k], ma.luckPairs[k] = &[2]float64{}, &[2]float64{}
		}
		ma.pairs[k][res.Number%2] = points
		ma.luckPairs[k][res.Number%2] = luck[seatOf[0]]
		ma.pairSeen[k]++
	}
}

// firstPlayerSeat returns the seat (0 for A, 1 for B) of a game's
// matchup's first player, and that player's points.
func firstPlayerSeat(res store.GameResult) (int, float64) {
	if res.Swapped {
		return 1, float64(res.B.Points)
	}
	return 0, float64(res.A.Points)
}

// summarise makes the matchup's estimates: the points with sc, the game's
// scale, and the luck-adjusted figures, which have no unit or bound of
// their own, without.
func (ma *MatchupAnalysis) summarise(sc ratings.Scale) {
	ma.Raw = ratings.PointsPerGameIn(ma.points, sc)
	ma.LuckAdjusted = ratings.PointsPerGame(nil)
	if len(ma.luck) == len(ma.points) {
		ma.LuckAdjusted = ratings.PointsPerGame(ma.luck)
	}
	var pairs, luckPairs [][2]float64
	keys := make([]int, 0, len(ma.pairs))
	for k := range ma.pairs {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		if ma.pairSeen[k] == 2 {
			pairs = append(pairs, *ma.pairs[k])
			luckPairs = append(luckPairs, *ma.luckPairs[k])
		}
	}
	ma.Paired, ma.PairedLuckAdjusted = ratings.PairedPointsPerGameIn(pairs, sc), ratings.PairedPointsPerGame(luckPairs)
	if len(ma.luck) != len(ma.points) {
		ma.PairedLuckAdjusted = ratings.PairedPointsPerGame(nil)
	}
}

// estimates lists a matchup's points-per-game estimates that exist, with
// their names.
func (ma *MatchupAnalysis) estimates() []namedSummary {
	out := []namedSummary{{"raw", "raw", ma.Raw}}
	if ma.Matchup.Settings.PairedGames() && ma.Paired.Samples >= 2 {
		out = append(out, namedSummary{"paired", "paired dice", ma.Paired})
	}
	if ma.LuckAdjusted.Samples > 0 {
		out = append(out, namedSummary{"luck_adjusted", "luck-adjusted", ma.LuckAdjusted})
	}
	if ma.Matchup.Settings.PairedGames() && ma.PairedLuckAdjusted.Samples >= 2 {
		out = append(out, namedSummary{"paired_luck_adjusted", "paired dice, luck-adjusted", ma.PairedLuckAdjusted})
	}
	return out
}

type namedSummary struct {
	key, label string
	s          ratings.Summary
}

// gamesRatio is how many games an estimate needs for the interval width
// raw gets, as a fraction of raw's, in the long run: the ratio of the
// per-game variances. At a few games the t quantile's degrees of freedom
// (pairs are half as many samples as games) and the interval's floor
// matter too, so the widths themselves can rank the other way; widthRatio
// gives those.
func gamesRatio(s, raw ratings.Summary) float64 {
	if raw.StdErr == 0 || s.N == 0 || raw.N == 0 {
		return math.NaN()
	}
	// StdErr^2 * N is the variance per game, whatever the sample unit.
	return s.StdErr * s.StdErr * float64(s.N) / (raw.StdErr * raw.StdErr * float64(raw.N))
}

// widthRatio is an estimate's 95% interval width over raw's, now.
func widthRatio(s, raw ratings.Summary) float64 {
	w, rw := s.High-s.Low, raw.High-raw.Low
	if !(rw > 0) {
		return math.NaN()
	}
	return w / rw
}

// WriteText prints the report: per matchup the game's side-by-side table
// and the points per game raw and with less luck, then one line per
// player.
func (rep *AnalysisReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s analysed by %s", rep.Competition, plural(rep.Analysed, "game"), rep.Judge)
	if rep.Now > 0 {
		fmt.Fprintf(&b, " (%d now)", rep.Now)
	}
	b.WriteString("\n")
	for _, f := range rep.Failed {
		fmt.Fprintf(&b, "not analysed: %s\n", f)
	}
	for _, ma := range rep.Matchups {
		if ma.Sides[0].Games == 0 {
			continue
		}
		m := ma.Matchup
		fmt.Fprintf(&b, "\n%s (%s): %s analysed\n\n", m.Name, m.Settings.Describe(), plural(ma.Sides[0].Games, "game"))
		if err := rep.game.WriteSides(&b, ma.Sides); err != nil {
			return err
		}
		fmt.Fprintf(&b, "\npoints per game for %s, over the games analysed:\n", m.PlayerA)
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "estimate\tmean\t95%% interval\twidth\tgames for raw's width, long run\t\n")
		ofRaw := func(ratio float64) string {
			if math.IsNaN(ratio) {
				return "n/a"
			}
			return fmt.Sprintf("%.2f of raw", ratio)
		}
		for _, e := range ma.estimates() {
			fmt.Fprintf(tw, "%s\t%+.3f\t[%+.3f, %+.3f]\t%s\t%s\t\n", e.label, e.s.Mean, e.s.Low, e.s.High,
				ofRaw(widthRatio(e.s, ma.Raw)), ofRaw(gamesRatio(e.s, ma.Raw)))
		}
		tw.Flush()
	}
	if len(rep.Players) > 0 {
		b.WriteString("\nplayers, over all their games analysed:\n\n")
		if err := rep.game.WritePlayers(&b, rep.Players); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSONAnalysis is `ringmaster analyse --json`.
type JSONAnalysis struct {
	Competition string                `json:"competition"`
	JudgeSpec   string                `json:"judge_spec"`
	Plies       int                   `json:"plies"`
	Judge       string                `json:"judge"`
	Analysed    int                   `json:"games_analysed"`
	Now         int                   `json:"analysed_now"`
	Failed      []string              `json:"not_analysed"`
	Players     []any                 `json:"players"`
	Matchups    []JSONMatchupAnalysis `json:"matchups"`
}

// JSONMatchupAnalysis is one matchup's part of JSONAnalysis.
type JSONMatchupAnalysis struct {
	ID            string                  `json:"id"`
	Name          string                  `json:"name"`
	Players       [2]string               `json:"players"`
	Games         int                     `json:"games_analysed"`
	Sides         [2]any                  `json:"sides"`
	PointsPerGame map[string]JSONEstimate `json:"points_per_game"`
}

// JSONEstimate is a points-per-game estimate with its interval, its
// width over raw's, and the games it needs for raw's interval width in
// the long run, as a fraction of raw's.
type JSONEstimate struct {
	JSONInterval
	Games      int       `json:"games"`
	WidthRatio JSONFloat `json:"width_ratio"`
	GamesRatio JSONFloat `json:"games_ratio"`
}

// JSON returns the report in its --json form.
func (rep *AnalysisReport) JSON() JSONAnalysis {
	out := JSONAnalysis{Competition: rep.Competition, JudgeSpec: rep.Spec.String(), Plies: rep.Plies, Judge: rep.Judge, Analysed: rep.Analysed, Now: rep.Now,
		Failed: append([]string{}, rep.Failed...), Players: []any{}, Matchups: []JSONMatchupAnalysis{}}
	for _, p := range rep.Players {
		out.Players = append(out.Players, rep.game.PlayerJSON(p))
	}
	for _, ma := range rep.Matchups {
		if ma.Sides[0].Games == 0 {
			continue
		}
		jm := JSONMatchupAnalysis{ID: ma.Matchup.ID, Name: ma.Matchup.Name, Players: [2]string{ma.Matchup.PlayerA, ma.Matchup.PlayerB},
			Games: ma.Sides[0].Games, PointsPerGame: map[string]JSONEstimate{}}
		for i := range 2 {
			jm.Sides[i] = rep.game.PlayerJSON(ma.Sides[i])
		}
		for _, e := range ma.estimates() {
			jm.PointsPerGame[e.key] = JSONEstimate{JSONInterval: JSONInterval{Value: JSONFloat(e.s.Mean), Low: JSONFloat(e.s.Low),
				High: JSONFloat(e.s.High)}, Games: e.s.N, WidthRatio: JSONFloat(widthRatio(e.s, ma.Raw)),
				GamesRatio: JSONFloat(gamesRatio(e.s, ma.Raw))}
		}
		out.Matchups = append(out.Matchups, jm)
	}
	return out
}

// WriteJSON prints the report as JSON.
func (rep *AnalysisReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep.JSON())
}

// luckJudge is the judge behind luck adjustment: the control file's
// luck_judge, else the game's default judge, at LuckAdjustPlies unless
// luck_judge names a depth. ok is false for a game without analysis.
func (r *Ringmaster) luckJudge() (spec judge.Spec, ok bool) {
	g, ok := r.Game.(judge.Game)
	if !ok {
		return judge.Spec{}, false
	}
	spec = judge.Spec{Plies: LuckAdjustPlies}
	if r.Comp.LuckJudge != "" {
		var err error
		if spec, err = judge.ParseSpec(r.Comp.LuckJudge, LuckAdjustPlies); err != nil {
			return spec, false // the control file's check refuses it first
		}
	}
	spec, err := judge.Resolve(g, spec)
	return spec, err == nil
}

// luckKey is the store's key of the luck judge's analyses ("" when the
// game has no analysis: no analysis is stored under it).
func (r *Ringmaster) luckKey() string {
	if spec, ok := r.luckJudge(); ok {
		return spec.String()
	}
	return ""
}

// defaultJudgeKey is the store's key of the game's default judge's
// analyses at plies.
func (r *Ringmaster) defaultJudgeKey(plies int) string {
	g, ok := r.Game.(judge.Game)
	if !ok {
		return ""
	}
	spec, err := judge.Resolve(g, judge.Spec{Plies: plies})
	if err != nil {
		return ""
	}
	return spec.String()
}
