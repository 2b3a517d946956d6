package bgammontest

import (
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol/bgammon"
)

// Every legal move of a roll, written in slash notation and read back,
// leads where the rules say.
func TestStepsReachTheLegalBoards(t *testing.T) {
	st := bg.NewMatch(bg.Rules{Variant: bg.Standard, MatchLength: 3, Cube: true})
	if err := st.StartGame(0, 6, 1); err != nil {
		t.Fatal(err)
	}
	moves, boards := bg.LegalMoves(st.Board, 6, 1)
	for i, m := range moves {
		cmd := bgammon.MoveCommand(m)
		words := strings.Fields(cmd)
		if len(words) == 0 || words[0] != "move" {
			t.Fatalf("%q: not a move command", cmd)
		}
		steps, err := bgammon.ParseSteps(words[1:])
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		got, ok := applySteps(st.Board, steps)
		if !ok || got != boards[i] {
			t.Errorf("%s (%s): reached %v (ok %v), want %v", cmd, bg.Format(st.Board, m), got, ok, boards[i])
		}
	}
}
