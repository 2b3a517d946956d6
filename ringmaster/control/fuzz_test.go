package control_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
)

// FuzzParse checks that Parse never panics, that its errors are well
// formed, and that what it accepts is consistent.
func FuzzParse(f *testing.F) {
	f.Add([]byte(fullExample))
	f.Add([]byte(playoffHead + oneMatchup))
	f.Add([]byte(allPlayAllHead + "competitors = [\"a\", \"b\", \"c\"]\nrounds = 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parse("f.toml", data)
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
		if c.Type != "playoff" && c.Type != "allplayall" || c.Game != backgammon.Name {
			t.Fatalf("accepted type %q game %q", c.Type, c.Game)
		}
		if c.Type == "playoff" && len(c.Matchups) == 0 {
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
			if m.NumberOfGames < 0 || m.MoveLimit <= 0 || m.Settings.(*backgammon.Settings).MatchLength < 0 {
				t.Fatalf("bad matchup %+v", m)
			}
			if m.Settings.PairedGames() && m.NumberOfGames%2 != 0 {
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
