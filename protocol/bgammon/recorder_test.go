package bgammon

import (
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
)

var start = [25]int8{5: 5, 7: 3, 12: 5, 23: 2}

// board is a canonical board of a 3-point match between bot and ann.
func board(me, opp [25]int8, turn, r1, r2 int, score [2]int) *GameState {
	return &GameState{PlayerNumber: 1, Points: 3, DoubleValue: 1, Turn: turn, Roll1: r1, Roll2: r2,
		Player1: Player{Number: 1, Name: "bot", Points: score[0]},
		Player2: Player{Number: 2, Name: "ann", Points: score[1]},
		Board:   BoardView(me, opp)}
}

// A game the bot drops, then one the opponent resigns: the record has both
// ends, read from the win events, and the moves read from the boards.
func TestRecorderDropAndResignation(t *testing.T) {
	r := newRecorder("bot", "ann", 3)
	r.board(board(start, start, 1, 3, 1, [2]int{}))
	after := start
	after[7], after[5], after[4] = 2, 4, 2 // 8/5 6/5
	b := board(after, start, 2, 0, 0, [2]int{})
	r.board(b)             // the turn passed: the move is read
	b.DoubleOffered = true // ann doubles
	r.board(b)
	r.win(Win{Player: "ann", Points: 1, Resigned: "bot"})
	r.board(board(start, start, 0, 0, 0, [2]int{0, 1}))
	// Game 2: ann wins the opening with 5-2 and resigns a gammon before moving.
	r.board(board(start, start, 2, 2, 5, [2]int{0, 1}))
	r.win(Win{Player: "bot", Points: 2, Resigned: "ann"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	m := r.match()
	if len(m.Games) != 2 || m.Comment != "" {
		t.Fatalf("games %d, comment %q", len(m.Games), m.Comment)
	}
	g1, g2 := m.Games[0], m.Games[1]
	if g1.End != bg.GameDropped || g1.Winner != 1 || g1.Points != 1 || g1.Actions[0].Move != "8/5 6/5" {
		t.Errorf("game 1: %+v", g1)
	}
	if g2.End != bg.GameResigned || g2.Winner != 0 || g2.Points != 2 || g2.Result != bg.Gammon {
		t.Errorf("game 2: %+v", g2)
	}
	if sc := m.FinalScore(); sc != [2]int{2, 1} {
		t.Errorf("final score %v", sc)
	}
}

// A board that no legal move explains stops the record there; the
// record keeps its finished games and says where it stopped.
func TestRecorderOutOfStep(t *testing.T) {
	r := newRecorder("bot", "ann", 3)
	r.board(board(start, start, 1, 3, 1, [2]int{}))
	wrong := start
	wrong[23], wrong[22] = 1, 1 // 24/23: not a whole 31
	r.board(board(wrong, start, 2, 4, 4, [2]int{}))
	if r.err == nil || !strings.Contains(r.err.Error(), "no legal move") {
		t.Fatalf("err = %v", r.err)
	}
	m := r.match()
	if len(m.Games) != 0 || !strings.Contains(m.Comment, "record stopped") {
		t.Fatalf("games %d, comment %q", len(m.Games), m.Comment)
	}
}
