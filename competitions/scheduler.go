package competitions

import (
	"fmt"
	"slices"
	"sync"
)

// Scheduler hands out a tournament's games, as gomill's scheduler does.
//
// Each matchup keeps the next new game number, the games issued and not yet
// fixed (outstanding) and the games waiting to be issued again. Issue
// prefers the matchup with the fewest games issued (fixed or outstanding)
// that still has a game to give, ties going to the order of the plans; from
// it, it takes the smallest number awaiting reissue, else the next new one.
//
// With paired dice, the two games of a pair are issued by consecutive calls
// to Issue, whichever worker makes them.
//
// The scheduler is deterministic: the same plans, history and sequence of
// calls give the same jobs. It is safe for concurrent use.
type Scheduler struct {
	mu       sync.Mutex
	seed     int64
	groups   []*group
	byID     map[string]*group
	nextHalf *halfRef // the second game of a pair just begun
}

type group struct {
	plan        MatchupPlan
	limit       int // games 0..limit-1 may be issued; below NumberOfGames once concluded
	nextNew     int
	issued      int            // fixed + outstanding
	outstanding map[int]string // number → game id
	toReissue   map[int]string // number → game id to issue it under
	fixed       map[int]bool
}

type halfRef struct {
	g *group
	n int
}

// NewScheduler returns a scheduler for the given matchups in a competition
// with the given seed.
//
// finished lists the ids of the games already played (from the store);
// they are never issued again. inFlight lists the ids of the games that
// were running when an earlier run stopped: they are issued again, under
// the same ids, before any new game of their matchup. Every other game
// below a matchup's highest finished or in-flight number is issued again
// too (under a freshly made id), so a resumed competition plays exactly the
// games it is missing. Ids of matchups that are not in plans are ignored
// (a matchup removed from the control file keeps its results but plays no
// more); an id that is not of the form <matchup>_<number> is an error.
func NewScheduler(seed int64, plans []MatchupPlan, finished, inFlight []string) (*Scheduler, error) {
	s := &Scheduler{seed: seed, byID: make(map[string]*group, len(plans))}
	for i, p := range plans {
		switch {
		case p.ID == "":
			return nil, fmt.Errorf("matchup %d: empty id", i)
		case s.byID[p.ID] != nil:
			return nil, fmt.Errorf("matchup %d: duplicate id %q", i, p.ID)
		case p.NumberOfGames < 0:
			return nil, fmt.Errorf("matchup %s: negative number of games %d", p.ID, p.NumberOfGames)
		case p.Paired && p.NumberOfGames%2 != 0:
			return nil, fmt.Errorf("matchup %s: paired dice need an even number of games, got %d", p.ID, p.NumberOfGames)
		}
		g := &group{
			plan:        p,
			limit:       p.NumberOfGames,
			outstanding: make(map[int]string),
			toReissue:   make(map[int]string),
			fixed:       make(map[int]bool),
		}
		s.groups = append(s.groups, g)
		s.byID[p.ID] = g
	}
	inFlightIDs := make(map[*group]map[int]string)
	seen := func(g *group, n int) {
		if n+1 > g.nextNew {
			g.nextNew = n + 1
		}
	}
	for _, id := range finished {
		g, n, err := s.lookup(id)
		if err != nil {
			return nil, fmt.Errorf("finished game: %w", err)
		}
		if g == nil {
			continue
		}
		if !g.fixed[n] {
			g.fixed[n] = true
			g.issued++
		}
		seen(g, n)
	}
	for _, id := range inFlight {
		g, n, err := s.lookup(id)
		if err != nil {
			return nil, fmt.Errorf("game in flight: %w", err)
		}
		if g == nil || g.fixed[n] || n >= g.plan.NumberOfGames {
			continue
		}
		if inFlightIDs[g] == nil {
			inFlightIDs[g] = make(map[int]string)
		}
		inFlightIDs[g][n] = id
		seen(g, n)
	}
	for _, g := range s.groups {
		for n := 0; n < g.nextNew && n < g.plan.NumberOfGames; n++ {
			if g.fixed[n] {
				continue
			}
			id, ok := inFlightIDs[g][n]
			if !ok {
				id = GameID(g.plan.ID, g.plan.NumberOfGames, n)
			}
			g.toReissue[n] = id
		}
	}
	return s, nil
}

// lookup finds the group and number of a game id; the group is nil for an
// unknown matchup.
func (s *Scheduler) lookup(id string) (*group, int, error) {
	mid, n, ok := ParseGameID(id)
	if !ok {
		return nil, 0, fmt.Errorf("malformed game id %q", id)
	}
	return s.byID[mid], n, nil
}

// available reports whether game n of g may be issued now.
func (g *group) available(n int) bool {
	if _, ok := g.toReissue[n]; ok {
		return true
	}
	return n == g.nextNew && n < g.limit
}

// candidate returns the number g would issue next, or -1.
func (g *group) candidate() int {
	if len(g.toReissue) > 0 {
		n := -1
		for k := range g.toReissue {
			if n < 0 || k < n {
				n = k
			}
		}
		return n
	}
	if g.nextNew < g.limit {
		return g.nextNew
	}
	return -1
}

// take issues game n of g, which must be available.
func (s *Scheduler) take(g *group, n int) Job {
	id, ok := g.toReissue[n]
	if ok {
		delete(g.toReissue, n)
	} else {
		id = GameID(g.plan.ID, g.plan.NumberOfGames, n)
		g.nextNew = n + 1
	}
	g.outstanding[n] = id
	g.issued++
	return newJob(s.seed, g.plan, n, id)
}

// Issue returns the next game to play, or false when there is none to give
// now (every game is fixed or outstanding).
func (s *Scheduler) Issue() (Job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.nextHalf; h != nil {
		s.nextHalf = nil
		if h.g.available(h.n) {
			return s.take(h.g, h.n), true
		}
	}
	var best *group
	for _, g := range s.groups {
		if g.candidate() < 0 {
			continue
		}
		if best == nil || g.issued < best.issued {
			best = g
		}
	}
	if best == nil {
		return Job{}, false
	}
	n := best.candidate()
	j := s.take(best, n)
	if best.plan.Paired {
		if partner := n ^ 1; best.available(partner) {
			s.nextHalf = &halfRef{best, partner}
		}
	}
	return j, true
}

// Fix records that an issued game has finished with a result.
func (s *Scheduler) Fix(gameID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, n, err := s.outstandingGame(gameID)
	if err != nil {
		return err
	}
	delete(g.outstanding, n)
	g.fixed[n] = true
	return nil
}

// Return gives an issued game back unplayed: it will be issued again,
// under the same id, before any new game of its matchup.
func (s *Scheduler) Return(gameID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, n, err := s.outstandingGame(gameID)
	if err != nil {
		return err
	}
	g.toReissue[n] = g.outstanding[n]
	delete(g.outstanding, n)
	g.issued--
	return nil
}

func (s *Scheduler) outstandingGame(gameID string) (*group, int, error) {
	g, n, err := s.lookup(gameID)
	if err != nil {
		return nil, 0, err
	}
	if g == nil {
		return nil, 0, fmt.Errorf("game %s: unknown matchup", gameID)
	}
	if id, ok := g.outstanding[n]; !ok || id != gameID {
		return nil, 0, fmt.Errorf("game %s is not outstanding", gameID)
	}
	return g, n, nil
}

// Rollback makes every outstanding game available to be issued again under
// its id, as if the games had never started.
func (s *Scheduler) Rollback() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextHalf = nil
	for _, g := range s.groups {
		for n, id := range g.outstanding {
			g.toReissue[n] = id
		}
		g.issued -= len(g.outstanding)
		clear(g.outstanding)
	}
}

// Outstanding returns the ids of the games issued and neither fixed nor
// returned, sorted.
func (s *Scheduler) Outstanding() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for _, g := range s.groups {
		for _, id := range g.outstanding {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// Complete reports whether every game of every matchup is fixed.
func (s *Scheduler) Complete() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.groups {
		if len(g.outstanding) > 0 || g.candidate() >= 0 {
			return false
		}
	}
	return true
}

// Conclude ends a matchup early, as when a sequential test has decided it:
// no new game of it is issued beyond those already begun, except the second
// game of a pair whose first game was issued, so pairs stay whole. Games
// awaiting reissue below that point are still replayed.
func (s *Scheduler) Conclude(matchupID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.byID[matchupID]
	if g == nil {
		return
	}
	limit := g.nextNew
	if g.plan.Paired && limit%2 == 1 {
		limit++
	}
	g.limit = min(g.limit, limit)
	for n := range g.toReissue {
		if n >= g.limit {
			delete(g.toReissue, n)
		}
	}
}

// Update brings the scheduler in line with plans that have grown: a plan
// with a new id adds a matchup (after the others, with no games played),
// and a known matchup whose NumberOfGames has grown may issue games up to
// the new number (unless Conclude ended it). Nothing shrinks: a smaller
// number or a missing plan changes nothing. It serves competitions whose
// matchups depend on results, such as a knockout.
func (s *Scheduler) Update(plans []MatchupPlan) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range plans {
		g := s.byID[p.ID]
		if g == nil {
			if p.ID == "" || p.NumberOfGames < 0 || p.Paired && p.NumberOfGames%2 != 0 {
				return fmt.Errorf("matchup %q: bad plan (%d games, paired %v)", p.ID, p.NumberOfGames, p.Paired)
			}
			g = &group{plan: p, limit: p.NumberOfGames, outstanding: make(map[int]string),
				toReissue: make(map[int]string), fixed: make(map[int]bool)}
			s.groups = append(s.groups, g)
			s.byID[p.ID] = g
			continue
		}
		if p.NumberOfGames > g.plan.NumberOfGames {
			if g.plan.Paired && p.NumberOfGames%2 != 0 {
				return fmt.Errorf("matchup %s: paired dice need an even number of games, got %d", p.ID, p.NumberOfGames)
			}
			concluded := g.limit < g.plan.NumberOfGames
			g.plan.NumberOfGames = p.NumberOfGames
			if !concluded {
				g.limit = p.NumberOfGames
			}
		}
	}
	return nil
}
