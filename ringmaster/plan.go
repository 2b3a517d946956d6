package ringmaster

import (
	"context"
	"sort"

	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/control"
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
