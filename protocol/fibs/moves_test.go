package fibs

import (
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestParseSteps(t *testing.T) {
	for _, c := range []struct {
		text string
		want string
	}{
		{"8-4 6-4", "8-4 6-4"},
		{"bar-22", "bar-22"},
		{"5-off", "5-off"},
		{"8 4 6 4", "8-4 6-4"},
		{"b 22 o 3", "bar-22"}, // "o 3" is not a step: off is only a destination
		{"24-off 22-off .", "24-off 22-off"},
		{"13-7.", "13-7"},
	} {
		steps, err := ParseSteps(c.text)
		if c.text == "b 22 o 3" {
			if err == nil {
				t.Errorf("ParseSteps(%q) = %v, want an error", c.text, steps)
			}
			continue
		}
		if err != nil || FormatSteps(steps) != c.want {
			t.Errorf("ParseSteps(%q) = %q, %v; want %q", c.text, FormatSteps(steps), err, c.want)
		}
	}
	for _, bad := range []string{"8-", "-4", "8", "25-3", "3-0", "bar-off", "1-2 3-4 5-6 7-8 9-10", "x-y"} {
		if steps, err := ParseSteps(bad); err == nil {
			t.Errorf("ParseSteps(%q) = %v, want an error", bad, steps)
		}
	}
}

func TestToMoveDirections(t *testing.T) {
	// O (direction -1) enters from the bar onto 25-d and bears off from 1..6.
	m, err := ToMove([]Step{{0, 22}, {6, 0}}, -1)
	if err != nil || m.Steps[0] != (backgammon.Step{From: 25, To: 22}) || m.Steps[1] != (backgammon.Step{From: 6, To: 0}) {
		t.Errorf("O: %+v %v", m, err)
	}
	// X (direction 1) enters onto d and bears off from 19..24.
	m, err = ToMove([]Step{{0, 3}, {22, 0}, {1, 7}}, 1)
	if err != nil || m.Steps[0] != (backgammon.Step{From: 25, To: 22}) || m.Steps[1] != (backgammon.Step{From: 3, To: 0}) || m.Steps[2] != (backgammon.Step{From: 24, To: 18}) {
		t.Errorf("X: %+v %v", m, err)
	}
	if _, err := ToMove([]Step{{4, 8}}, -1); err == nil {
		t.Error("O moving up: no error")
	}
	if _, err := ToMove([]Step{{8, 4}}, 1); err == nil {
		t.Error("X moving down: no error")
	}
}

// Every legal move of random positions survives the trip to FIBS notation
// and back, in both directions, and reaches the same position.
func TestMoveRoundTripRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := backgammon.NewMoveGen()
	games := 40
	if testing.Short() {
		games = 10
	}
	for g := 0; g < games; g++ {
		b := backgammon.Standard.StartBoard()
		for ply := 0; ply < 200; ply++ {
			d1, d2 := rng.IntN(6)+1, rng.IntN(6)+1
			moves, _ := gen.Generate(b, d1, d2)
			for _, m := range moves {
				for _, dir := range []int{-1, 1} {
					text := FormatSteps(FromMove(m, dir))
					steps, err := ParseSteps(text)
					if err != nil {
						t.Fatalf("%q: %v", text, err)
					}
					back, err := ToMove(steps, dir)
					if err != nil {
						t.Fatalf("%q: %v", text, err)
					}
					if _, ok := gen.FindLegal(b, d1, d2, back); !ok {
						t.Fatalf("move %s as %q (direction %d) came back illegal", backgammon.Format(b, m), text, dir)
					}
					if b.Apply(back) != b.Apply(m) {
						t.Fatalf("move %s as %q (direction %d) came back different", backgammon.Format(b, m), text, dir)
					}
				}
			}
			moves, _ = gen.Generate(b, d1, d2)
			b = b.Apply(moves[rng.IntN(len(moves))])
			if b.OnBoard(backgammon.OnRoll) == 0 {
				break
			}
			b = b.Swap()
		}
	}
}
