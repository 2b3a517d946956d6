package bgcmd

import (
	"strings"
	"testing"
)

func FuzzParseGameRules(f *testing.F) {
	for _, s := range []string{"standard 7 crawford", "nackgammon 0 jacoby beavers", "hypergammon2 0 cubeless", "standard", "x -1 y"} {
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
