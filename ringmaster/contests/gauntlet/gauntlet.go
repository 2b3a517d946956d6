// Package gauntlet is the gauntlet competition type: each challenger
// plays every opponent of a field, and nobody else meets (cutechess's and
// fastchess's gauntlet, with several challengers allowed).
package gauntlet

import (
	"github.com/gamemill/gamemill/ringmaster/contest"
)

// Name is the gauntlet's competition_type.
const Name = "gauntlet"

// Type is the gauntlet competition type.
type Type struct{}

func (Type) Name() string { return Name }
func (Type) Keys() []string {
	return []string{"challengers", "opponents", "number_of_games", "alternating"}
}

// MatchupID is the id of challenger c's matchup against opponent o:
// "c~o", stable when the lists are reordered or grow.
func MatchupID(c, o string) string { return c + "~" + o }

// Load reads challengers, opponents, number_of_games (per pairing) and
// alternating (default true: seats swap every game) and adds a matchup
// per challenger and opponent, challengers in order, each against the
// opponents in order.
func (Type) Load(b contest.Builder) {
	challengers := players(b, "challengers")
	opponents := players(b, "opponents")
	isOpponent := map[string]bool{}
	for _, o := range opponents {
		isOpponent[o] = true
	}
	if v, ok := b.Get("challengers"); ok {
		for i, c := range challengers {
			if isOpponent[c] {
				v.At(i).Errorf("%q is also an opponent: a gauntlet's challengers and opponents are two separate lists", c)
			}
		}
	}
	games, alternating := contest.GamesAndSeats(b, "the number of games each challenger plays each opponent", 0, 1_000_000_000)
	b.CheckSettings()
	if b.Errors() > 0 {
		return
	}
	b.SetCompetitors(append(append([]string{}, challengers...), opponents...))
	for _, c := range challengers {
		for _, o := range opponents {
			id := MatchupID(c, o)
			if !contest.IsIdentifier(id) {
				b.Errorf("challengers", "matchup id %q is not valid (%s): use shorter player codes", id, contest.IdentifierChars)
				return
			}
			b.Add(contest.Matchup{ID: id, A: c, B: o, Games: games, Alternating: alternating})
		}
	}
}

// players reads a list of at least one distinct defined player code.
func players(b contest.Builder, key string) []string {
	codes, v := contest.PlayerList(b, key, "a list of player codes", "player")
	if v != nil && len(codes) == 0 {
		v.Errorf("needs at least 1 player code(s), got 0")
	}
	return codes
}
