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
	var field []string
	if v, ok := b.Get("competitors"); !ok {
		b.Errorf("competitors", "required: a list of player codes")
	} else if codes, ok := v.Strings(); ok {
		if len(codes) < 2 {
			v.Errorf("an all-play-all needs at least two competitors, got %d", len(codes))
		}
		if len(codes) > MaxCompetitors {
			v.Errorf("too many competitors: %d (at most %d)", len(codes), MaxCompetitors)
		}
		seen := make(map[string]bool)
		for i, code := range codes {
			switch {
			case seen[code]:
				v.At(i).Errorf("duplicate competitor %q", code)
			case !b.Defined(code):
				v.At(i).Errorf("unknown player %q", code)
			}
			seen[code] = true
		}
		field = codes
		b.SetCompetitors(codes)
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
