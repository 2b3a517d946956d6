package bgcmd

import (
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func FuzzParseGameRules(f *testing.F) {
	for _, s := range []string{"standard 7 crawford", "nackgammon 0 jacoby beavers", "hypergammon2 0 cubeless", "standard 0 max_cube=16", "standard", "x -1 y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseGameRules(strings.Fields(s))
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("parsed %q to invalid %+v: %v", s, r, err)
		}
		again, err := ParseGameRules(r.Args())
		if err != nil || again != r {
			t.Fatalf("round trip of %q: %+v then %+v, %v", s, r, again, err)
		}
	})
}

// FuzzParseResignation: a genresign reply either parses to a level whose
// name parses back to it, or is refused.
func FuzzParseResignation(f *testing.F) {
	for _, s := range []string{"none", "single", "Gammon", "BACKGAMMON", "normal", "", "single "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		level, err := ParseResignation(s)
		if err != nil {
			return
		}
		name := NoResignation
		if level != backgammon.NoResult {
			name = level.String()
		}
		if !strings.EqualFold(s, name) {
			t.Fatalf("%q parsed to %v", s, level)
		}
		if again, err := ParseResignation(name); err != nil || again != level {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
	})
}
