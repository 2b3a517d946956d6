package control

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that its errors are well
// formed, and that what it accepts is consistent.
func FuzzParse(f *testing.F) {
	f.Add([]byte(fullExample))
	f.Add([]byte(playoffHead + oneMatchup))
	f.Add([]byte(allPlayAllHead + "competitors = [\"a\", \"b\", \"c\"]\nrounds = 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.toml", data)
		if err != nil {
			if c != nil {
				t.Fatal("competition returned with an error")
			}
			var list ErrorList
			if errors.As(err, &list) {
				if len(list) == 0 {
					t.Fatal("empty error list")
				}
				for _, e := range list {
					if !strings.HasPrefix(e.Error(), "f.toml") || e.Msg == "" {
						t.Fatalf("malformed error %q", e.Error())
					}
				}
			}
			return
		}
		if c.Type != Playoff && c.Type != AllPlayAll || c.Game != GameBackgammon {
			t.Fatalf("accepted type %q game %q", c.Type, c.Game)
		}
		if c.Type == Playoff && len(c.Matchups) == 0 {
			t.Fatal("playoff without matchups")
		}
		ids := make(map[string]bool)
		for _, m := range c.Matchups {
			if ids[m.ID] {
				t.Fatalf("duplicate matchup id %q", m.ID)
			}
			ids[m.ID] = true
			for _, code := range []string{m.PlayerA, m.PlayerB} {
				if c.Players[code] == nil {
					t.Fatalf("matchup %s names undefined player %q", m.ID, code)
				}
			}
			if m.NumberOfGames < 0 || m.Settings.MaxMoves <= 0 || m.Settings.MatchLength < 0 {
				t.Fatalf("bad matchup %+v", m)
			}
			if m.Settings.Dice == DicePaired && m.NumberOfGames%2 != 0 {
				t.Fatalf("paired matchup with %d games", m.NumberOfGames)
			}
		}
		for code, p := range c.Players {
			if p.Code != code || p.Timeout <= 0 {
				t.Fatalf("bad player %q: %+v", code, p)
			}
			if p.Kind == KindProtocol && len(p.Command) == 0 {
				t.Fatalf("protocol player %q without command", code)
			}
		}
	})
}

// FuzzKeyLines runs the position scanner on arbitrary input, valid TOML or
// not: it must neither panic nor hang, and every line it reports must lie
// in the input.
func FuzzKeyLines(f *testing.F) {
	f.Add(fullExample)
	f.Add("a = [1, {b = \"}\"}]\n[[c]]\n[c.d]\ne = '''\n'''\n")
	f.Add(`"\u00e9" = 1`)
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Count(src, "\n") + 1
		for k, line := range keyLines(src) {
			if line < 1 || line > lines {
				t.Fatalf("key %s at line %d of %d", k, line, lines)
			}
		}
	})
}
