// Package playoff is the playoff competition type: matchups listed one by
// one in [[matchups]] tables, each a pair of players with settings of its
// own (gomill's playoff).
package playoff

import (
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

// Name is the playoff's competition_type.
const Name = "playoff"

// Type is the playoff competition type.
type Type struct{}

func (Type) Name() string   { return Name }
func (Type) Keys() []string { return []string{"matchups", "number_of_games", "alternating"} }

// Load reads the [[matchups]] tables; number_of_games and alternating at
// top level are defaults for every matchup.
func (Type) Load(b contest.Builder) {
	defaultGames, haveDefaultGames := 0, false
	if v, ok := b.Get("number_of_games"); ok {
		defaultGames, haveDefaultGames = v.Int(0, 1_000_000_000)
	}
	_, setDefaultGames := b.Get("number_of_games")
	defaultAlternating := false
	if v, ok := b.Get("alternating"); ok {
		if a, ok := v.Bool(); ok {
			defaultAlternating = a
		}
	}
	v, ok := b.Get("matchups")
	if !ok {
		b.Errorf("matchups", "required: a playoff needs at least one [[matchups]] entry")
		return
	}
	tables, ok := v.Tables()
	if !ok {
		return
	}
	if len(tables) == 0 {
		v.Errorf("empty list: a playoff needs at least one matchup")
		return
	}
	firstUse := make(map[string]int) // matchup id → index
	for i, t := range tables {
		t.CheckKeys("players", "id", "name", "number_of_games", "alternating")
		m := contest.Matchup{ID: strconv.Itoa(i), Games: defaultGames, Alternating: defaultAlternating, Table: t}
		if v, ok := t.Get("players"); !ok {
			t.Errorf("players", "required: a list of two player codes")
		} else if codes, ok := v.Strings(); ok {
			if len(codes) != 2 {
				v.Errorf("must list two player codes, got %d", len(codes))
			} else {
				for _, code := range codes {
					if !b.Defined(code) {
						v.Errorf("unknown player %q", code)
					}
				}
				m.A, m.B = codes[0], codes[1]
			}
		}
		if v, ok := t.Get("id"); ok {
			if s, ok := v.Str(); ok {
				if !contest.IsIdentifier(s) {
					v.Errorf("invalid matchup id %q: use %s", s, contest.IdentifierChars)
				}
				m.ID = s
			}
		}
		if j, dup := firstUse[m.ID]; dup {
			t.Errorf("id", "duplicate matchup id %q (also used by matchups[%d])", m.ID, j)
		} else {
			firstUse[m.ID] = i
		}
		if v, ok := t.Get("number_of_games"); ok {
			if n, ok := v.Int(0, 1_000_000_000); ok {
				m.Games = n
			}
		} else if !haveDefaultGames && !setDefaultGames {
			t.Errorf("number_of_games", "required: set it here or at top level")
		}
		if v, ok := t.Get("alternating"); ok {
			if a, ok := v.Bool(); ok {
				m.Alternating = a
			}
		}
		if v, ok := t.Get("name"); ok {
			if s, ok := v.Str(); ok {
				m.Name = strings.TrimSpace(s)
			}
		}
		b.Add(m)
	}
}
