package ringmaster

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gamemill/gamemill/competitions"
	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// contestResults is results as a competition type's planner sees them: in
// the order the games finished, each scored from its matchup's first
// player's side.
func contestResults(results []store.GameResult) []contest.Result {
	sorted := make([]store.GameResult, len(results))
	copy(sorted, results)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].FinishedAt.Before(sorted[j].FinishedAt) })
	out := make([]contest.Result, len(sorted))
	for i, res := range sorted {
		first := res.PlayerA
		if res.Swapped {
			first = res.PlayerB
		}
		score := 0.5
		switch res.Winner {
		case "":
		case first:
			score = 1
		default:
			score = 0
		}
		out[i] = contest.Result{MatchupID: res.MatchupID, Number: res.Number, Score: score}
	}
	return out
}

// matchupsFrom returns the competition's matchups given its results: the
// control file's, or the planner's for a competition whose matchups
// depend on its results (a knockout).
func (r *Ringmaster) matchupsFrom(results []store.GameResult) []*control.Matchup {
	if r.Comp.Planner == nil {
		return r.Comp.Matchups
	}
	planned, _ := r.Comp.Planner.Plan(contestResults(results))
	out := make([]*control.Matchup, len(planned))
	for i, m := range planned {
		out[i] = r.Comp.Expand(m)
	}
	return out
}

// startingMatchups returns the matchups a run starts from and, for a
// competition whose matchups depend on results, the stored results in the
// planner's terms.
func (r *Ringmaster) startingMatchups(ctx context.Context, st *store.Store) ([]*control.Matchup, []contest.Result, error) {
	if r.Comp.Planner == nil {
		return r.Comp.Matchups, nil, nil
	}
	results, err := st.Results(ctx)
	if err != nil {
		return nil, nil, err
	}
	return r.matchupsFrom(results), contestResults(results), nil
}

// replan gives a finished game to the competition's planner, adds the
// matchups it brings (or the games a tie-break adds) to the schedule, and
// wakes the workers waiting for them. Without a planner it does nothing.
func (run *runner) replan(res store.GameResult) {
	p := run.rm.Comp.Planner
	if p == nil {
		return
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	run.planned = append(run.planned, contestResults([]store.GameResult{res})...)
	planned, done := p.Plan(run.planned)
	var matchups []*control.Matchup
	for _, pm := range planned {
		m := run.matchups[pm.ID]
		if m == nil || m.NumberOfGames < pm.Games {
			m = run.rm.Comp.Expand(pm)
			if _, err := run.rm.Game.Referee(m, nil); err != nil {
				run.log.warnf("matchup %s: %v", m.ID, err)
				continue
			}
			run.matchups[m.ID] = m
		}
		matchups = append(matchups, m)
	}
	if err := run.sched.Update(control.PlansOf(matchups)); err != nil {
		run.log.warnf("schedule: %v", err)
	}
	run.planDone = done
	run.wake.Broadcast()
}

// TuneMatchup is the id under which a proposed competition's games are
// stored: game n is TuneMatchup_n, n zero-padded to five digits.
const TuneMatchup = "tune"

// tuneGameID is the id of a proposed competition's game n.
func tuneGameID(n int) string { return competitions.GameID(TuneMatchup, 100_000, n) }

// tuning is a run's state of a competition whose games a proposer issues
// one at a time (a tuner).
type tuning struct {
	state  contest.Proposals
	issued int // games issued so far: the next game's number
	// replay holds the games in flight when an earlier run stopped, to be
	// played again (same ids, same candidates) before any new one.
	replay []contest.Proposal
	// pending are the games issued and not yet recorded, by game id.
	pending map[string]contest.Proposal
	// players are the candidates' players, by name.
	players map[string]*control.Player
	// defs are the candidates' definitions as stored, by name.
	defs map[string]string
}

// tuneMatchup is the matchup a proposed competition's games are refereed
// under: the top-level settings.
func (r *Ringmaster) tuneMatchup() *control.Matchup {
	return r.Comp.Expand(contest.Matchup{ID: TuneMatchup, Name: "tuning", Games: 0})
}

// candidates returns the players a proposal's candidates play as, with
// their definitions as the store keeps them (JSON, name to definition).
func (tn *tuning) candidates(c *control.Competition, p contest.Proposal) (string, error) {
	defs := map[string]json.RawMessage{}
	for _, e := range []contest.Entrant{p.A, p.B} {
		if e.Params == nil {
			continue
		}
		if _, ok := c.Players[e.Code]; ok {
			return "", fmt.Errorf("candidate %s has the code of a player of the control file: rename that player", e.Code)
		}
		pl, err := c.Candidate(e.Code, e.Params)
		if err != nil {
			return "", err
		}
		def := pl.Canonical()
		if old, ok := tn.defs[e.Code]; ok && old != def {
			return "", fmt.Errorf("candidate %s was stored as %s; the control file now makes it %s: "+
				"the [candidate] template changed since it played", e.Code, old, def)
		}
		tn.defs[e.Code] = def
		tn.players[e.Code] = pl
		defs[e.Code] = json.RawMessage(def)
	}
	data, err := json.Marshal(defs)
	if err != nil {
		return "", fmt.Errorf("candidates of game %d: %w", p.Number, err)
	}
	return string(data), nil
}

// tuneScore is A's score of a finished game: 1 a win, 0 a loss, 0.5 a game
// with no winner; with luck-adjusted scoring, (1+x)/2 for A's
// luck-adjusted result x where the game was judged and played out or
// resigned (a forfeit's record stops short), not clipped to [0,1]: spsa
// takes the difference of two such shares, which clipping would erase.
func tuneScore(p contest.Proposal, res store.GameResult, luckAdjusted bool, luck *[2]float64) float64 {
	score := 0.5
	switch res.Winner {
	case "":
	case p.A.Code:
		score = 1
	default:
		score = 0
	}
	if !luckAdjusted || luck == nil || res.Winner == "" || (res.Ending != store.EndNormal && res.Ending != store.EndResignation) {
		return score
	}
	x := luck[0]
	if res.PlayerA != p.A.Code {
		x = luck[1]
	}
	return (1 + x) / 2
}

// rebuildTuning makes the proposer's state afresh from the store, as
// replayTuning does, and stores the scores it had to work out.
func (r *Ringmaster) rebuildTuning(ctx context.Context, st *store.Store) (*tuning, error) {
	games, err := st.TunerGames(ctx)
	if err != nil {
		return nil, err
	}
	results, err := st.Results(ctx)
	if err != nil {
		return nil, err
	}
	luck := map[string][2]float64{}
	if r.Comp.Proposer.LuckAdjusted() {
		analyses, err := st.Analyses(ctx, r.luckKey())
		if err != nil {
			return nil, err
		}
		for id, a := range analyses {
			if v, ok := a.Figures[judge.LuckAdjusted]; ok {
				luck[id] = v
			}
		}
	}
	tn, scored, err := r.replayTuning(games, results, luck)
	if err != nil {
		return nil, err
	}
	for _, g := range scored {
		if err := st.SetTunerScore(ctx, g.GameID, *g.Score); err != nil {
			return nil, err
		}
	}
	return tn, nil
}

// replayTuning makes the proposer's state afresh and replays the stored
// games: the finished ones through Issued and Record in the order their
// scores were given (then any finished game whose score was not yet
// given, in the order it finished, returned with its score in scored),
// then the games in flight through Issued, kept for replay. luck holds
// the judged games' luck-adjusted results by game id.
func (r *Ringmaster) replayTuning(games []store.TunerGame, results []store.GameResult, luck map[string][2]float64) (*tuning, []store.TunerGame, error) {
	state, err := r.Comp.Proposer.Start()
	if err != nil {
		return nil, nil, err
	}
	tn := &tuning{state: state, pending: map[string]contest.Proposal{}, players: map[string]*control.Player{}, defs: map[string]string{}}
	byID := map[string]store.GameResult{}
	for _, res := range results {
		byID[res.GameID] = res
	}
	type finished struct {
		g   store.TunerGame
		p   contest.Proposal
		res store.GameResult
	}
	var done, unscored []finished
	var inFlight []contest.Proposal
	for _, g := range games {
		p, err := state.Decode(g.Proposal)
		if err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", g.GameID, err)
		}
		if g.Number != p.Number || g.GameID != tuneGameID(p.Number) {
			return nil, nil, fmt.Errorf("game %s: stored as game number %d", g.GameID, p.Number)
		}
		var stored map[string]json.RawMessage
		if err := json.Unmarshal([]byte(g.Candidates), &stored); err != nil {
			return nil, nil, fmt.Errorf("game %s: stored candidates: %w", g.GameID, err)
		}
		for name, def := range stored {
			if _, ok := tn.defs[name]; !ok {
				tn.defs[name] = string(def)
			}
		}
		if _, err := tn.candidates(r.Comp, p); err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", g.GameID, err)
		}
		res, ok := byID[g.GameID]
		switch {
		case !ok:
			inFlight = append(inFlight, p)
		case g.Score != nil:
			done = append(done, finished{g, p, res})
		default:
			var l *[2]float64
			if v, ok := luck[g.GameID]; ok {
				l = &v
			}
			score := tuneScore(p, res, r.Comp.Proposer.LuckAdjusted(), l)
			g.Score = &score
			unscored = append(unscored, finished{g, p, res})
		}
	}
	sort.Slice(done, func(i, j int) bool { return done[i].g.Recorded < done[j].g.Recorded })
	sort.SliceStable(unscored, func(i, j int) bool { return unscored[i].res.FinishedAt.Before(unscored[j].res.FinishedAt) })
	var scored []store.TunerGame
	for _, f := range unscored {
		scored = append(scored, f.g)
	}
	for _, f := range append(done, unscored...) {
		if err := state.Issued(f.p); err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", f.g.GameID, err)
		}
		if err := state.Record(f.p, *f.g.Score); err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", f.g.GameID, err)
		}
	}
	for _, p := range inFlight {
		if err := state.Issued(p); err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", tuneGameID(p.Number), err)
		}
		tn.pending[tuneGameID(p.Number)] = p
	}
	tn.replay = inFlight
	tn.issued = len(games)
	return tn, scored, nil
}

// startTuning readies a run of a proposed competition: its matchup, its
// settings checked against the stored ones, and its state rebuilt.
func (run *runner) startTuning(ctx context.Context) error {
	r := run.rm
	m := r.tuneMatchup()
	if _, err := r.Game.Referee(m, nil); err != nil {
		return fmt.Errorf("%s: %w", r.Comp.Path, err)
	}
	if r.Comp.Proposer.LuckAdjusted() {
		jg, ok := r.Game.(judge.Game)
		if !ok {
			return fmt.Errorf("%s: luck_adjusted: %w for %s", r.Comp.Path, ErrNoAnalysis, r.Game.Name())
		}
		if !jg.WinScaled(m.Settings) {
			return fmt.Errorf("%s: luck_adjusted: under these settings a game's luck-adjusted result is not a win-or-loss score "+
				"(backgammon: matches are, money games are not; set match_length)", r.Comp.Path)
		}
	}
	stored, err := run.st.MatchupSettings(ctx)
	if err != nil {
		return err
	}
	now := settingsText(r.Comp, m)
	if old, ok := stored[m.ID]; ok && (old[0] != r.Comp.Game || old[1] != now) {
		key := changedKey(old[1], now)
		return fmt.Errorf("%s: %s: changed since the tuning games were played (they were played with %s; the control file now says %s)",
			r.Comp.Path, key, valueOf(old[1], key), valueOf(now, key))
	}
	if err := run.st.SetMatchupSettings(ctx, m.ID, r.Comp.Game, now); err != nil {
		return err
	}
	tn, err := r.rebuildTuning(ctx, run.st)
	if err != nil {
		return fmt.Errorf("resume the tuner from %s: %w", r.DBPath(), err)
	}
	run.tuning = tn
	run.matchups[m.ID] = m
	run.planDone = false
	return nil
}

// tuneJob is the job that plays a proposal.
func (run *runner) tuneJob(p contest.Proposal) competitions.Job {
	j := competitions.Job{GameID: tuneGameID(p.Number), MatchupID: TuneMatchup, Number: p.Number,
		PlayerA: p.A.Code, PlayerB: p.B.Code, Swapped: p.ASecond, PairNumber: p.Pair}
	if p.ASecond {
		j.PlayerA, j.PlayerB = j.PlayerB, j.PlayerA
	}
	if p.Pair >= 0 {
		j.DiceSeed = competitions.DiceSeed(run.rm.Comp.Seed, TuneMatchup+" pair", p.Pair)
	} else {
		j.DiceSeed = competitions.DiceSeed(run.rm.Comp.Seed, TuneMatchup, p.Number)
	}
	return j
}

// propose issues the next game of a proposed competition: a game in
// flight when an earlier run stopped, else the proposer's next, stored
// before it is played. It reports false when there is none to play now;
// the proposer finished with every game in sets planDone. run.mu is held.
func (run *runner) propose(ctx context.Context) (competitions.Job, bool) {
	tn := run.tuning
	if len(tn.replay) > 0 {
		p := tn.replay[0]
		tn.replay = tn.replay[1:]
		return run.tuneJob(p), true
	}
	p, status := tn.state.Next(tn.issued)
	switch status {
	case contest.Finish:
		// Done once every issued game is in: a game left void stays
		// pending, and the run ends incomplete, to play it next time.
		run.planDone = len(tn.pending) == 0
		return competitions.Job{}, false
	case contest.Wait:
		return competitions.Job{}, false
	}
	fail := func(err error) (competitions.Job, bool) {
		run.stopReason = fmt.Sprintf("game %s: %v", tuneGameID(p.Number), err)
		run.log.warnf("halting competition: %s", run.stopReason)
		return competitions.Job{}, false
	}
	if p.Number != tn.issued {
		return fail(fmt.Errorf("the tuner proposed game %d as game %d", p.Number, tn.issued))
	}
	defs, err := tn.candidates(run.rm.Comp, p)
	if err != nil {
		return fail(err)
	}
	g := store.TunerGame{GameID: tuneGameID(p.Number), Number: p.Number, Proposal: p.Stored, Candidates: defs}
	if err := run.st.IssueTunerGame(context.WithoutCancel(ctx), g); err != nil {
		return fail(err)
	}
	if err := tn.state.Issued(p); err != nil {
		return fail(err)
	}
	tn.issued++
	tn.pending[g.GameID] = p
	return run.tuneJob(p), true
}

// player returns the definition of a player a job names: a candidate of a
// proposed competition, or a control-file player.
func (run *runner) player(code string) *control.Player {
	run.mu.Lock()
	defer run.mu.Unlock()
	return run.playerLocked(code)
}

// playerLocked is player with run.mu held.
func (run *runner) playerLocked(code string) *control.Player {
	if run.tuning != nil {
		if p := run.tuning.players[code]; p != nil {
			return p
		}
	}
	return run.rm.Comp.Players[code]
}

// tuneJudges reports whether a run judges each game for its proposer's
// luck-adjusted score.
func (run *runner) tuneJudges() bool {
	return run.tuning != nil && run.rm.Comp.Proposer.LuckAdjusted()
}

// tuneResult gives a finished game's score to the proposer and stores it,
// then wakes the workers waiting for the games it may bring.
func (run *runner) tuneResult(ctx context.Context, res store.GameResult, luck *[2]float64) {
	if run.tuning == nil {
		return
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	defer run.wake.Broadcast()
	p, ok := run.tuning.pending[res.GameID]
	if !ok {
		run.log.warnf("game %s: not a tuning game in progress", res.GameID)
		return
	}
	delete(run.tuning.pending, res.GameID)
	score := tuneScore(p, res, run.rm.Comp.Proposer.LuckAdjusted(), luck)
	if err := run.tuning.state.Record(p, score); err != nil {
		run.stopReason = fmt.Sprintf("game %s: %v", res.GameID, err)
		run.log.warnf("halting competition: %s", run.stopReason)
		return
	}
	if err := run.st.SetTunerScore(context.WithoutCancel(ctx), res.GameID, score); err != nil {
		run.stopReason = err.Error()
		run.log.warnf("halting competition: %s", run.stopReason)
	}
}

// candidateSummary is one candidate as the reports show it.
type candidateSummary struct {
	Name   string            `json:"name"`
	Params map[string]string `json:"params"`
	Games  int               `json:"games"` // finished
	// Score is the candidate's total score as its tuner was given it
	// (luck-adjusted shares where the tuner takes them).
	Score float64 `json:"score"`
}

// tuningReport rebuilds a proposed competition's state for a report, and
// lists its candidates in the order they were first issued.
func (r *Ringmaster) tuningReport(d reportData) (*tuning, []candidateSummary, error) {
	tn, scored, err := r.replayTuning(d.tunerGames, d.results, d.luck)
	if err != nil {
		return nil, nil, err
	}
	scores := map[string]float64{}
	for _, g := range d.tunerGames {
		if g.Score != nil {
			scores[g.GameID] = *g.Score
		}
	}
	for _, g := range scored {
		scores[g.GameID] = *g.Score
	}
	var out []candidateSummary
	index := map[string]int{}
	for _, g := range d.tunerGames {
		p, err := tn.state.Decode(g.Proposal)
		if err != nil {
			return nil, nil, err
		}
		score, finished := scores[g.GameID]
		for side, e := range []contest.Entrant{p.A, p.B} {
			if e.Params == nil {
				continue
			}
			i, ok := index[e.Code]
			if !ok {
				i = len(out)
				index[e.Code] = i
				out = append(out, candidateSummary{Name: e.Code, Params: e.Params})
			}
			if finished {
				out[i].Games++
				if side == 0 {
					out[i].Score += score
				} else {
					out[i].Score += 1 - score
				}
			}
		}
	}
	return tn, out, nil
}

// writeTuningSection writes a proposed competition's section: its
// tuner's report and, in the full report, every candidate with its
// parameters and its score.
func (r *Ringmaster) writeTuningSection(w io.Writer, d reportData, full bool) {
	tn, cands, err := r.tuningReport(d)
	if err != nil {
		fmt.Fprintf(w, "(tuner: %v)\n\n", err)
		return
	}
	if err := tn.state.WriteSection(w, full); err != nil {
		fmt.Fprintf(w, "(tuner: %v)\n\n", err)
		return
	}
	if !full {
		return
	}
	fmt.Fprintf(w, "%d games issued, %d candidates (name, parameters, games, score):\n", tn.issued, len(cands))
	for _, c := range cands {
		codes := slices.Sorted(maps.Keys(c.Params))
		parts := make([]string, len(codes))
		for i, code := range codes {
			parts[i] = code + ":" + c.Params[code]
		}
		fmt.Fprintf(w, "  %-10s %-40s %4d %7.4g\n", c.Name, strings.Join(parts, "; "), c.Games, c.Score)
	}
	fmt.Fprintln(w)
}

// tuningJSON is a proposed competition's JSON: its tuner's section, and
// the type's section listing the candidates.
func (r *Ringmaster) tuningJSON(d reportData) (tuner, section any) {
	tn, cands, err := r.tuningReport(d)
	if err != nil {
		return map[string]string{"error": err.Error()}, nil
	}
	if cands == nil {
		cands = []candidateSummary{}
	}
	return tn.state.JSONSection(), map[string]any{"games_issued": tn.issued, "candidates": cands}
}

// jobBinder makes the scheduler's and the proposer's jobs, which name
// their players by code, into values that carry everything a game needs:
// both players' full definitions and the game's canonical settings. It
// keeps the players by definition, so that a worker launches from the
// job's definitions without decoding the same text twice.
type jobBinder struct {
	mu       sync.Mutex
	players  map[string]*control.Player // by canonical definition
	defs     map[*control.Player]string // the other way
	settings map[string]string          // by matchup id
}

// bind fills a job's definitions and settings: the players its codes
// name now (a tuner's candidate, or a control-file player) and its
// matchup's settings. run.mu is held.
func (run *runner) bind(j competitions.Job) competitions.Job {
	b := &run.jobs
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.players == nil {
		b.players, b.defs, b.settings = map[string]*control.Player{}, map[*control.Player]string{}, map[string]string{}
	}
	def := func(code string) string {
		p := run.playerLocked(code)
		if p == nil {
			return ""
		}
		d, ok := b.defs[p]
		if !ok {
			d = p.Canonical()
			b.defs[p] = d
			b.players[d] = p
		}
		return d
	}
	j.DefA, j.DefB = def(j.PlayerA), def(j.PlayerB)
	s, ok := b.settings[j.MatchupID]
	if m := run.matchups[j.MatchupID]; !ok && m != nil {
		s = settingsText(run.rm.Comp, m)
		b.settings[j.MatchupID] = s
	}
	j.Settings = s
	return j
}

// jobPlayers returns the players a job's definitions define, in seat
// order: those bind saw, or rebuilt from the text.
func (run *runner) jobPlayers(j competitions.Job) ([2]*control.Player, error) {
	b := &run.jobs
	b.mu.Lock()
	defer b.mu.Unlock()
	var out [2]*control.Player
	for i, d := range [2]string{j.DefA, j.DefB} {
		code := [2]string{j.PlayerA, j.PlayerB}[i]
		if d == "" {
			return out, fmt.Errorf("game %s: no definition of player %s", j.GameID, code)
		}
		p := b.players[d]
		if p == nil {
			var err error
			if p, err = control.PlayerFromCanonical(d); err != nil {
				return out, fmt.Errorf("game %s: player %s: %w", j.GameID, code, err)
			}
			if b.players == nil {
				b.players = map[string]*control.Player{}
			}
			b.players[d] = p
		}
		if p.Code != code {
			return out, fmt.Errorf("game %s: the definition of player %s is %s's", j.GameID, code, p.Code)
		}
		out[i] = p
	}
	return out, nil
}

// notePlayerChanges logs, at the start of a run, each control-file
// player whose definition differs from the one its last recorded game
// was played with, and which fields changed: the games it plays from now
// on record the new definition beside the old.
func (r *Ringmaster) notePlayerChanges(ctx context.Context, st *store.Store, ev *eventLog) error {
	defs, err := st.Definitions(ctx)
	if err != nil {
		return err
	}
	last := map[string]store.Definition{}
	for _, d := range defs {
		if d.Games == 0 {
			continue
		}
		if old, ok := last[d.Code]; !ok || d.LastStarted > old.LastStarted ||
			d.LastStarted == old.LastStarted && d.LastGame > old.LastGame {
			last[d.Code] = d
		}
	}
	for _, code := range slices.Sorted(maps.Keys(r.Comp.Players)) {
		d, ok := last[code]
		if !ok {
			continue
		}
		now := r.Comp.Players[code].Canonical()
		if now == d.Definition {
			continue
		}
		ev.warnf("player %s: its definition changed since its last game (%s): %s; its games from now on record the new definition",
			code, d.LastGame, strings.Join(control.ChangedKeys(d.Definition, now), ", ")+" differ")
	}
	return nil
}
