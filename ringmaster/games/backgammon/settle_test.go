package backgammon

import (
	"math"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
)

// raceState is a money game in play, the mover (seat 0) to decide before
// its roll, with mover and opponent checkers on their points (index 0 is
// the 1-point).
func raceState(cube bool, mover, opponent map[int]int8) *bg.State {
	s := bg.NewMatch(bg.Rules{Cube: cube})
	for p, n := range mover {
		s.Board[bg.OnRoll][p] = n
	}
	for p, n := range opponent {
		s.Board[bg.Opponent][p] = n
	}
	s.GameState, s.Move, s.Turn = bg.GamePlaying, 0, 0
	return s
}

// TestSettleRace: the settled points are the bearoff databases' figures,
// the cubeless equity without the cube and the cubeful decision's equity
// with it, times the cube; contact and match play are not settled.
func TestSettleRace(t *testing.T) {
	one, err := bgbot.NewBearoff(6)
	if err != nil {
		t.Fatal(err)
	}
	two, err := bgbot.NewBearoff2(3)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

	// Cubeless: the one-sided database's equity.
	s := raceState(false, map[int]int8{4: 1, 5: 2}, map[int]int8{0: 1, 3: 1, 5: 1})
	got, ok := SettleRace(s, one, two)
	p, _ := one.Probs(&s.Board)
	if !ok || got.Cubeful || got.Mover != 0 || !near(got.Points, float64(p.Equity())) {
		t.Errorf("cubeless race: %+v %v, want the database's equity %v", got, ok, p.Equity())
	}

	// With the cube: a sure win is a double and pass when the cube is
	// centred (1 point), the full cube when the opponent owns it at 2.
	sure := raceState(true, map[int]int8{0: 2}, map[int]int8{5: 2})
	if got, ok := SettleRace(sure, one, two); !ok || !got.Cubeful || !near(got.Points, 1) {
		t.Errorf("sure win, cube centred: %+v %v, want 1 point (double, pass)", got, ok)
	}
	sure.CubeValue, sure.CubeOwner = 2, 1
	if got, ok := SettleRace(sure, one, two); !ok || !near(got.Points, 2) {
		t.Errorf("sure win, the opponent owning the cube at 2: %+v %v, want 2 points", got, ok)
	}
	// A close race: the database's cubeful equity for each cube position.
	close := raceState(true, map[int]int8{3: 1, 4: 1, 5: 1}, map[int]int8{2: 1, 4: 1, 5: 1})
	for owner, own := range map[int]int{-1: bgbot.CubeCentred, 0: bgbot.CubeOwned, 1: bgbot.CubeUnavailable} {
		close.CubeValue, close.CubeOwner = 4, owner
		if owner < 0 {
			close.CubeValue = 1
		}
		want, _ := two.Cubeful(&close.Board, own)
		got, ok := SettleRace(close, one, two)
		if !ok || !near(got.Points, want*float64(close.CubeValue)) {
			t.Errorf("close race, cube owner %d: %+v %v, want %v", owner, got, ok, want*float64(close.CubeValue))
		}
	}

	contact := raceState(true, map[int]int8{0: 2, 20: 1}, map[int]int8{5: 2})
	if _, ok := SettleRace(contact, one, two); ok {
		t.Error("a position with contact was settled")
	}
	match := raceState(true, map[int]int8{0: 2}, map[int]int8{5: 2})
	match.MatchLength = 5
	if _, ok := SettleRace(match, one, two); ok {
		t.Error("a match game was settled")
	}
	big := raceState(true, map[int]int8{0: 4}, map[int]int8{5: 2})
	if _, ok := SettleRace(big, one, two); ok {
		t.Error("a side outside the two-sided database was settled")
	}
}
