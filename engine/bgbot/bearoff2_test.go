package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestBearoff2(t *testing.T) {
	db, err := NewBearoff2(3)
	if err != nil {
		t.Fatal(err)
	}
	one, err := NewBearoff(3)
	if err != nil {
		t.Fatal(err)
	}
	// One checker on our 6-point against the opponent's last checker: we
	// win when one roll takes it 6 pips, every roll but 1-1, 2-1, 3-1,
	// 4-1 and 3-2: 27/36. It is the last roll, so the double is right and
	// exactly at the opponent's take point: double/take = double/pass = 1.
	var b backgammon.Board
	b[backgammon.OnRoll][5] = 1
	b[backgammon.Opponent][0] = 1
	p, ok := db.Probs(&b)
	if !ok || math.Abs(float64(p[Win])-0.75) > 1e-6 {
		t.Errorf("6-point v ace: %v %v, want 0.75", p, ok)
	}
	ce, _ := db.MoneyCube(&b, true)
	if !ce.ShouldDouble() || math.Abs(ce.DoubleTake-1) > 1e-6 || math.Abs(ce.NoDouble-0.5) > 1e-6 {
		t.Errorf("6-point v ace: %+v, want no double 0.5, double/take 1", ce)
	}
	if e, _ := db.Cubeful(&b, CubeCentred); math.Abs(e-1) > 1e-6 {
		t.Errorf("6-point v ace, centred: equity %v, want 1", e)
	}
	if e, _ := db.Cubeful(&b, CubeUnavailable); math.Abs(e-0.5) > 1e-6 {
		t.Errorf("6-point v ace, opponent's cube: equity %v, want 0.5", e)
	}
	// Every entry: a probability, cubeful equities within [-1, 1] and
	// ordered by cube access; the win chance close to the one-sided
	// database's (which plays to bear off soonest, not to win).
	var worst float64
	for a := 1; a < db.n; a++ {
		for c := 1; c < db.n; c++ {
			k := a*db.n + c
			w := float64(db.win[k])
			if w < -1e-6 || w > 1+1e-6 {
				t.Fatalf("pair %d: win %v", k, w)
			}
			eo, ec, eu := db.equity(k, CubeOwned), db.equity(k, CubeCentred), db.equity(k, CubeUnavailable)
			if !(eo >= ec-1e-6 && ec >= eu-1e-6 && eo <= 1+1e-6 && eu >= -1-1e-6) {
				t.Fatalf("pair %d: owned %v centred %v unavailable %v", k, eo, ec, eu)
			}
			var bb backgammon.Board
			pos := db.one.positions()
			copy(bb[backgammon.OnRoll][:6], pos[a][:])
			copy(bb[backgammon.Opponent][:6], pos[c][:])
			p1, _ := one.Probs(&bb)
			worst = max(worst, math.Abs(float64(p1[Win])-w))
		}
	}
	if worst > 0.05 {
		t.Errorf("two-sided and one-sided win chances differ by up to %v", worst)
	}
	if _, err := NewBearoff2(7); err == nil {
		t.Error("7 checkers accepted")
	}
	b[backgammon.OnRoll][5] = 4
	if _, ok := db.Probs(&b); ok {
		t.Error("4 checkers found in a 3-checker database")
	}
}
