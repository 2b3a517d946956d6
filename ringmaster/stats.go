package ringmaster

import (
	"fmt"
	"sort"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// matchupStats gathers one matchup's figures from its results, always from
// the view of the matchup's first player (A) and second (B).
type matchupStats struct {
	m              *control.Matchup
	ghost          bool
	played         int
	wins           [2]float64
	firstGames     [2]int // games in which A (B) moved first
	firstWins      [2]int // ... and won
	otherFirstWins [2]int // games A (B) won in which the other moved first
	points         []float64
	pairs          map[int]*[2]float64
	pairSeen       map[int]int
	totals         map[string][2]int // the game's statistics, summed
	luck           []float64         // luck-adjusted points of the games analysed
	cpu            [2]float64
	decisions      [2]int
	forfeits       [2]int
	unknown        int // games with no winner that were no draw
	atMoveLimit    int // ... of which stopped at the move limit
	draws          int // jigos: half a win each
	forfeitReasons []string
	sprt           *sprtTally
	scale          ratings.Scale // what one game can score, for the interval
}

// PointsBounder is what a game implements, optionally, when its points
// for one player never pass a bound either way (Go's +1 win, -1 loss; a
// backgammon match's +1 or -1): a matchup's points-per-game interval then
// stays inside it, and one game gives that whole range.
type PointsBounder interface {
	PointsBound(s control.GameSettings) float64
}

// pointsScale is what the interval of a matchup's points per game knows
// of one game: every game played out scores at least one point for its
// winner (an adjudicated one may score a fraction: the floor then errs
// wide), and some games have a bound.
func (r *Ringmaster) pointsScale(s control.GameSettings) ratings.Scale {
	sc := ratings.Scale{Unit: 1}
	if pb, ok := r.Game.(PointsBounder); ok {
		sc.Bound = pb.PointsBound(s)
	}
	return sc
}

func (r *Ringmaster) gather(d reportData) []*matchupStats {
	results := d.results
	var list []*matchupStats
	byID := map[string]*matchupStats{}
	for _, m := range r.matchupsFrom(results) {
		s := &matchupStats{m: m, pairs: map[int]*[2]float64{}, pairSeen: map[int]int{}, totals: map[string][2]int{}, sprt: newSPRTTally(m),
			scale: r.pointsScale(m.Settings)}
		byID[m.ID] = s
		list = append(list, s)
	}
	for _, res := range results {
		s := byID[res.MatchupID]
		if s == nil && r.Comp.Proposer != nil && res.MatchupID == TuneMatchup {
			continue // a tuner's games are in its own section
		}
		if s == nil {
			// A matchup no longer in the control file keeps its results.
			m := &control.Matchup{ID: res.MatchupID, Name: res.MatchupID, PlayerA: res.PlayerA, PlayerB: res.PlayerB,
				Settings: r.Game.DefaultSettings()}
			if res.Swapped {
				m.PlayerA, m.PlayerB = res.PlayerB, res.PlayerA
			}
			s = &matchupStats{m: m, ghost: true, pairs: map[int]*[2]float64{}, pairSeen: map[int]int{}, totals: map[string][2]int{},
				scale: r.pointsScale(m.Settings)}
			byID[res.MatchupID] = s
			list = append(list, s)
		}
		luck, ok := d.luck[res.GameID]
		var luckAdjusted *[2]float64
		if ok {
			luckAdjusted = &luck
		}
		s.add(res, luckAdjusted)
		if ok {
			// Seat A's luck-adjusted points, from the matchup's view.
			if res.Swapped {
				luck[0] = luck[1]
			}
			s.luck = append(s.luck, luck[0])
		}
	}
	return list
}

// add counts a result; luckAdjusted is its analysis's luck-adjusted
// points by seat, or nil.
func (s *matchupStats) add(res store.GameResult, luckAdjusted *[2]float64) {
	if s.sprt != nil {
		s.sprt.add(res, luckAdjusted)
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
	switch {
	case w >= 0:
		s.wins[w]++
	case res.Draw():
		s.draws++
		s.wins[0] += 0.5
		s.wins[1] += 0.5
	default:
		s.unknown++
		if res.Ending == "move_limit" {
			s.atMoveLimit++
		}
	}
	if f := idx(res.FirstMover); f >= 0 {
		s.firstGames[f]++
		switch w {
		case f:
			s.firstWins[f]++
		case 1 - f:
			// Counted directly: a game with no winner is nobody's win.
			s.otherFirstWins[w]++
		}
	}
	if fb := idx(res.ForfeitBy); fb >= 0 {
		s.forfeits[fb]++
		s.forfeitReasons = append(s.forfeitReasons, res.GameID+": "+res.Detail)
	}
	pa := float64(sides[0].Points)
	s.points = append(s.points, pa)
	if s.m.Settings.PairedGames() {
		k := res.Number / 2
		if s.pairs[k] == nil {
			s.pairs[k] = &[2]float64{}
		}
		s.pairs[k][res.Number%2] = pa
		s.pairSeen[k]++
	}
	for name, v := range res.Stats {
		if res.Swapped {
			v[0], v[1] = v[1], v[0]
		}
		s.totals[name] = referee.CombineStat(name, s.totals[name], v)
	}
	for i := 0; i < 2; i++ {
		s.cpu[i] += sides[i].CPU.Seconds()
		s.decisions[i] += sides[i].Decisions
	}
}

// eloWithheld says why the matchup's Elo is not given, or returns "": a
// disputed result (referee.StatDisputes) is no result, so an Elo from the
// wins would count the undisputed games only.
func (s *matchupStats) eloWithheld() string {
	d := s.totals[referee.StatDisputes]
	if d == [2]int{} {
		return ""
	}
	return fmt.Sprintf("%s, which an Elo from the wins would leave out (%s %d, %s %d)",
		plural(s.unknownDisputed(), "disputed result"), s.m.PlayerA, d[0], s.m.PlayerB, d[1])
}

// unknownDisputed is how many of the matchup's games were left unsettled
// (no winner, not a draw, not the move limit).
func (s *matchupStats) unknownDisputed() int { return s.unknown - s.atMoveLimit }

// summary is the points-per-game estimate: by pairs for paired dice (each
// pair's sum is one sample, which cancels most of the dice luck), by games
// otherwise; its interval is ratings.Summary's, with the game's scale.
func (s *matchupStats) summary() (ratings.Summary, string) {
	if s.m.Settings.PairedGames() {
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
			return ratings.PairedPointsPerGameIn(pairs, s.scale), fmt.Sprintf("%d complete pairs", len(pairs))
		}
	}
	return ratings.PointsPerGameIn(s.points, s.scale), plural(len(s.points), "game")
}
