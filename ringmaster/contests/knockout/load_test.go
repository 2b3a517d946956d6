package knockout_test

import (
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
)

const field = `competition_type = "knockout"
game = "backgammon"
number_of_games = 2
competitors = ["a", "b", "c"]
SPRT

[players.a]
kind = "builtin"
[players.b]
kind = "builtin"
[players.c]
kind = "builtin"
`

// TestKnockoutRefusesSPRT: a sequential test cannot stop a knockout's
// match (the bracket needs every match's score), so sprt is refused at
// its line rather than ignored.
func TestKnockoutRefusesSPRT(t *testing.T) {
	if _, err := control.Parse("k.toml", []byte(strings.Replace(field, "SPRT", "", 1)), backgammon.New()); err != nil {
		t.Fatalf("a knockout without sprt: %v", err)
	}
	_, err := control.Parse("k.toml", []byte(strings.Replace(field, "SPRT", "sprt = { elo0 = 0, elo1 = 30 }", 1)), backgammon.New())
	want := "k.toml:5: sprt: not allowed in a knockout"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a knockout with sprt: %v, want %q", err, want)
	}
}
