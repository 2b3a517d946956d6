package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestBearoff(t *testing.T) {
	db, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	var s [25]int8
	s[0] = 1 // one checker on the ace point: always one roll
	if m, ok := db.MeanRolls(&s); !ok || m != 1 {
		t.Errorf("one on the ace: %v %v", m, ok)
	}
	s[0], s[5] = 0, 2 // two on the six point: one roll only with doubles (6/36) ... or 6-6 etc.
	if m, _ := db.MeanRolls(&s); m <= 1 || m >= 2.2 {
		t.Errorf("two on the six point: %v rolls", m)
	}
	var b backgammon.Board
	b[backgammon.OnRoll][0] = 1
	b[backgammon.Opponent][0] = 1
	if p, ok := db.Probs(&b); !ok || p[Win] != 1 {
		t.Errorf("on roll, one checker each: %v %v", p, ok)
	}
	// 2 checkers on my 6 point against 1 on their ace: I win only by
	// rolling a double of 6... any double >= 3 bears both off? No: 3-3 moves
	// 4x3: 6->3->off and 6->3->off. Doubles 3..6 = 4/36.
	b[backgammon.OnRoll][0], b[backgammon.OnRoll][5] = 0, 2
	if p, _ := db.Probs(&b); math.Abs(float64(p[Win])-4.0/36) > 1e-5 {
		t.Errorf("two on the six vs one on the ace: %v, want %v", p[Win], 4.0/36)
	}
	b[backgammon.OnRoll][6] = 1
	if _, ok := db.Probs(&b); ok {
		t.Error("checker outside the home board accepted")
	}
	for _, d := range db.dist {
		var sum float32
		for _, x := range d {
			sum += x
		}
		if math.Abs(float64(sum)-1) > 1e-4 {
			t.Fatalf("distribution sums to %v", sum)
		}
	}
}
