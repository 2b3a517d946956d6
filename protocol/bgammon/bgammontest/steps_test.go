package bgammontest

import (
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
		steps, err := bgammon.ParseSteps(splitArgs(cmd))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		got, ok := applySteps(st.Board, steps)
		if !ok || got != boards[i] {
			t.Errorf("%s (%s): reached %v (ok %v), want %v", cmd, bg.Format(st.Board, m), got, ok, boards[i])
		}
	}
}

func splitArgs(cmd string) []string {
	var out []string
	word := ""
	for _, r := range cmd + " " {
		if r == ' ' {
			if word != "" && word != "move" {
				out = append(out, word)
			}
			word = ""
			continue
		}
		word += string(r)
	}
	return out
}
