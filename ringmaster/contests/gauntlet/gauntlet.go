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
	challengers := players(b, "challengers", 1)
	opponents := players(b, "opponents", 1)
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
	games := 0
	if v, ok := b.Get("number_of_games"); !ok {
		b.Errorf("number_of_games", "required: the number of games each challenger plays each opponent")
	} else if n, ok := v.Int(0, 1_000_000_000); ok {
		games = n
		if b.PairedGames() && n%2 != 0 {
			v.Errorf("paired games need an even number of games, got %d", n)
		}
	}
	alternating := true
	if v, ok := b.Get("alternating"); ok {
		if a, ok := v.Bool(); ok {
			alternating = a
		}
	}
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

// players reads a list of at least min distinct defined player codes.
func players(b contest.Builder, key string, min int) []string {
	v, ok := b.Get(key)
	if !ok {
		b.Errorf(key, "required: a list of player codes")
		return nil
	}
	codes, ok := v.Strings()
	if !ok {
		return nil
	}
	if len(codes) < min {
		v.Errorf("needs at least %d player code(s), got %d", min, len(codes))
	}
	seen := map[string]bool{}
	for i, code := range codes {
		switch {
		case seen[code]:
			v.At(i).Errorf("duplicate player %q", code)
		case !b.Defined(code):
			v.At(i).Errorf("unknown player %q", code)
		}
		seen[code] = true
	}
	return codes
}
