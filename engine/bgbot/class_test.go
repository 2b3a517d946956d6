package bgbot

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// A bearoff has every checker of both sides at home; a checker outside
// either home board or on the bar makes it another race or contact.
func TestIsBearoff(t *testing.T) {
	home := func() backgammon.Board {
		var b backgammon.Board
		b[backgammon.OnRoll][0], b[backgammon.OnRoll][5] = 3, 2
		b[backgammon.Opponent][2] = 4
		return b
	}
	b := home()
	if !IsBearoff(&b) || Class(&b) != ClassRace {
		t.Errorf("both sides at home: bearoff %v, class %s", IsBearoff(&b), ClassName(Class(&b)))
	}
	var empty backgammon.Board
	if !IsBearoff(&empty) {
		t.Error("no checkers left: not a bearoff")
	}
	for name, move := range map[string]func(*backgammon.Board){
		"on roll's 7-point":   func(b *backgammon.Board) { b[backgammon.OnRoll][6] = 1 },
		"opponent's 8-point":  func(b *backgammon.Board) { b[backgammon.Opponent][7] = 1 },
		"on roll on the bar":  func(b *backgammon.Board) { b[backgammon.OnRoll][backgammon.BarIndex] = 1 },
		"opponent on the bar": func(b *backgammon.Board) { b[backgammon.Opponent][backgammon.BarIndex] = 1 },
	} {
		b := home()
		move(&b)
		if IsBearoff(&b) {
			t.Errorf("a checker on the %s: a bearoff", name)
		}
	}
	start := backgammon.Standard.StartBoard()
	if IsBearoff(&start) {
		t.Error("the starting position is a bearoff")
	}
}
