// Package knockout is the knockout competition type: a single-elimination
// bracket from competitors in seeding order, each round a match of a
// fixed number of games, the winner going through.
//
// The bracket is the usual seeded one: with P the field rounded up to a
// power of two, the first round pairs seed s with seed P+1-s, arranged so
// that the first two seeds can meet only in the final; the top P-n seeds
// get byes. A match is won on score (a win counts 1, a game with no
// winner half). A match tied after its games plays two more at a time
// (seats swapped, dice paired where the game pairs them), at most
// number_of_games more; still tied, the higher seed goes through.
package knockout

import (
	"fmt"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

// Name is the knockout's competition_type.
const Name = "knockout"

// Type is the knockout competition type.
type Type struct{}

func (Type) Name() string { return Name }
func (Type) Keys() []string {
	return []string{"competitors", "number_of_games", "alternating"}
}

// MaxCompetitors bounds the field (ten rounds).
const MaxCompetitors = 1024

// Load reads competitors (seeding order), number_of_games (per match) and
// alternating (default true) and sets the bracket as the planner.
func (Type) Load(b contest.Builder) {
	field, v := contest.PlayerList(b, "competitors", "a list of player codes in seeding order", "competitor")
	if v != nil && (len(field) < 2 || len(field) > MaxCompetitors) {
		v.Errorf("a knockout needs 2 to %d competitors, got %d", MaxCompetitors, len(field))
	}
	games, alternating := contest.GamesAndSeats(b, "the number of games in each match of the bracket", 1, 1_000_000)
	if v, ok := b.Get("sprt"); ok {
		v.Errorf("not allowed in a knockout: a match plays its number_of_games (and any tie-break) in full, " +
			"since a match stopped early by a sequential test would have no score to settle it")
	}
	b.CheckSettings()
	if b.Errors() > 0 {
		return
	}
	b.SetCompetitors(field)
	b.SetPlanner(&Bracket{Field: field, Games: games, Alternating: alternating})
}

// Bracket plans a knockout's matchups from its results.
type Bracket struct {
	Field       []string // seeding order
	Games       int      // games per match before any tie-break
	Alternating bool
}

// Match is one match of the bracket as the report shows it.
type Match struct {
	Round, Index int    // from 1
	ID           string // "r1m1"
	A, B         string // B is empty for a bye
	Seeds        [2]int // from 1
	Games        int    // games planned, tie-break included
	Played       int
	Score        [2]float64
	Winner       string // empty while undecided
	TieBroken    bool   // decided by seed after the extra games
}

// MatchID is the id of match i (from 1) of round r (from 1).
func MatchID(r, i int) string { return fmt.Sprintf("r%dm%d", r, i) }

// order returns the seeds of a bracket of size p (a power of two) in
// first-round slot order: 1, p, then recursively so that seeds 1 and 2
// are in opposite halves.
func order(p int) []int {
	o := []int{1}
	for size := 2; size <= p; size *= 2 {
		next := make([]int, 0, size)
		for _, s := range o {
			next = append(next, s, size+1-s)
		}
		o = next
	}
	return o
}

// Rounds works out the bracket from the results: every match whose
// players are known, round by round, with its score and winner.
func (k *Bracket) Rounds(results []contest.Result) [][]Match {
	p := 1
	for p < len(k.Field) {
		p *= 2
	}
	byMatch := map[string]map[int]float64{} // id → game number → first player's score
	for _, r := range results {
		if byMatch[r.MatchupID] == nil {
			byMatch[r.MatchupID] = map[int]float64{}
		}
		byMatch[r.MatchupID][r.Number] = r.Score
	}
	// slots hold the seed (from 1) in each position of the current
	// round, 0 for an empty slot (a bye's missing opponent or a match
	// not yet decided).
	slots := order(p)
	for i, s := range slots {
		if s > len(k.Field) {
			slots[i] = 0
		}
	}
	var rounds [][]Match
	for r := 1; len(slots) > 1; r++ {
		var round []Match
		next := make([]int, len(slots)/2)
		for i := 0; i < len(slots); i += 2 {
			sa, sb := slots[i], slots[i+1]
			if sa == 0 && sb != 0 || sa != 0 && sb != 0 && sb < sa {
				// The higher seed sits first (and goes through on a tie).
				sa, sb = sb, sa
			}
			m := Match{Round: r, Index: i/2 + 1, ID: MatchID(r, i/2+1), Seeds: [2]int{sa, sb}}
			switch {
			case sa == 0:
				// Both feeders undecided (or both empty): nothing yet.
				if r > 1 {
					round = append(round, m)
				}
				continue
			case sb == 0 && r == 1:
				m.A, m.Winner = k.Field[sa-1], k.Field[sa-1]
				next[i/2] = sa
				round = append(round, m)
				continue
			case sb == 0:
				m.A = k.Field[sa-1]
				round = append(round, m)
				continue
			}
			m.A, m.B = k.Field[sa-1], k.Field[sb-1]
			k.decide(&m, byMatch[m.ID])
			if m.Winner == m.A {
				next[i/2] = sa
			} else if m.Winner == m.B {
				next[i/2] = sb
			}
			round = append(round, m)
		}
		rounds = append(rounds, round)
		slots = next
	}
	return rounds
}

// decide fills m's games, score and winner from its games' scores.
func (k *Bracket) decide(m *Match, scores map[int]float64) {
	m.Games = k.Games
	for {
		m.Played, m.Score = 0, [2]float64{}
		for n := 0; n < m.Games; n++ {
			s, ok := scores[n]
			if !ok {
				continue
			}
			m.Played++
			m.Score[0] += s
			m.Score[1] += 1 - s
		}
		switch {
		case m.Played < m.Games:
			return
		case m.Score[0] > m.Score[1]:
			m.Winner = m.A
			return
		case m.Score[1] > m.Score[0]:
			m.Winner = m.B
			return
		case m.Games < 2*k.Games:
			m.Games += 2
		default:
			m.Winner, m.TieBroken = m.A, true // A is the higher seed
			return
		}
	}
}

// Plan lists the matches whose players are known; the knockout is done
// when the final has a winner.
func (k *Bracket) Plan(results []contest.Result) ([]contest.Matchup, bool) {
	rounds := k.Rounds(results)
	var out []contest.Matchup
	for _, round := range rounds {
		for _, m := range round {
			if m.B == "" {
				continue
			}
			out = append(out, contest.Matchup{ID: m.ID, A: m.A, B: m.B, Games: m.Games, Alternating: k.Alternating})
		}
	}
	final := rounds[len(rounds)-1][0]
	return out, final.Winner != ""
}
