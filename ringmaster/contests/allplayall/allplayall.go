// Package allplayall is the all-play-all competition type: every pair of
// competitors plays the same number of games, alternating seats, and the
// report opens with a grid of the pairs' scores (gomill's allplayall).
package allplayall

import (
	"github.com/gamemill/gamemill/ringmaster/contest"
)

// Name is the all-play-all's competition_type.
const Name = "allplayall"

// MaxCompetitors is the number of competitors that two letters can name.
const MaxCompetitors = 26 * 27

// Letter returns the letter of the competitor at index i: A to Z, then
// AA, AB, ... (as gomill).
func Letter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return string(rune('A'+i/26-1)) + string(rune('A'+i%26))
}

// Type is the all-play-all competition type.
type Type struct{}

func (Type) Name() string   { return Name }
func (Type) Keys() []string { return []string{"competitors", "rounds"} }

// Load reads competitors and rounds and adds a matchup for each pair,
// named by the competitors' letters: AvB, AvC, ..., BvC, ...
func (Type) Load(b contest.Builder) {
	field, v := contest.PlayerList(b, "competitors", "a list of player codes", "competitor")
	if v != nil {
		if len(field) < 2 {
			v.Errorf("an all-play-all needs at least two competitors, got %d", len(field))
		}
		if len(field) > MaxCompetitors {
			v.Errorf("too many competitors: %d (at most %d)", len(field), MaxCompetitors)
		}
		b.SetCompetitors(field)
	}
	rounds, haveRounds := 0, false
	if v, ok := b.Get("rounds"); !ok {
		b.Errorf("rounds", "required: the number of games for each pair of competitors")
	} else if rounds, haveRounds = v.Int(0, 1_000_000_000); haveRounds && b.PairedGames() && rounds%2 != 0 {
		v.Errorf("paired games need an even number of rounds, got %d", rounds)
	}
	b.CheckSettings()
	if b.Errors() > 0 {
		return
	}
	for i, a := range field {
		for j := i + 1; j < len(field); j++ {
			b.Add(contest.Matchup{ID: Letter(i) + "v" + Letter(j), A: a, B: field[j], Games: rounds, Alternating: true})
		}
	}
}
