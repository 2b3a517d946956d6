package bgbot

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestCrashed(t *testing.T) {
	side := func(points map[int]int8) *[25]int8 {
		var s [25]int8
		for p, n := range points {
			s[p-1] = n
		}
		return &s
	}
	start := backgammon.Standard.StartBoard()
	cases := []struct {
		name string
		side *[25]int8
		want bool
	}{
		{"start", &start[0], false},
		{"ten on the ace, five elsewhere", side(map[int]int8{1: 10, 7: 2, 13: 3}), true},
		{"nine on the ace, six elsewhere", side(map[int]int8{1: 9, 7: 3, 13: 3}), false},
		{"ace and deuce piled", side(map[int]int8{1: 5, 2: 6, 8: 1, 20: 3}), true},
		{"ace and deuce piled, one more out", side(map[int]int8{1: 5, 2: 5, 8: 2, 20: 3}), false},
		{"six left, none deep", side(map[int]int8{3: 2, 5: 2, 24: 2}), true},
		{"seven left, none deep", side(map[int]int8{3: 2, 5: 2, 24: 2, 25: 1}), false},
		{"single checkers on ace and deuce are in play", side(map[int]int8{1: 1, 2: 1, 6: 3, 20: 2}), false},
	}
	for _, c := range cases {
		if got := Crashed(c.side); got != c.want {
			t.Errorf("%s: crashed %v, want %v", c.name, got, c.want)
		}
	}

	// Class: a crashed side in contact is crashed; without contact it is a race.
	var b backgammon.Board
	b[0] = *side(map[int]int8{1: 10, 7: 2, 13: 3})
	b[1] = *side(map[int]int8{24: 2, 13: 5, 8: 3, 6: 5})
	if c := Class(&b); c != ClassCrashed {
		t.Errorf("crashed side in contact: class %d", c)
	}
	b[1] = *side(map[int]int8{6: 15})
	if c := Class(&b); c != ClassRace {
		t.Errorf("crashed side in a race: class %d", c)
	}
}

// Splitting off a crashed network keeps what the weights compute, survives
// a round trip through the file format, and training then changes the
// crashed network alone on crashed positions.
func TestSplitCrashed(t *testing.T) {
	// A network of two classes, as TD training makes them (the embedded
	// default has its crashed network already).
	w, err := NewWeightsLayout(LayoutV2, 32, SeededRand(11))
	if err != nil {
		t.Fatal(err)
	}
	if w.Classes() != 2 {
		t.Fatalf("new weights have %d classes", w.Classes())
	}
	split, err := w.SplitCrashed()
	if err != nil {
		t.Fatal(err)
	}
	if split.Classes() != ClassCrashed+1 {
		t.Fatalf("split weights have %d classes", split.Classes())
	}
	if _, err := split.SplitCrashed(); err == nil {
		t.Error("splitting twice accepted")
	}
	var buf bytes.Buffer
	if _, err := split.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	read, err := ParseWeights(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if read.Classes() != ClassCrashed+1 {
		t.Fatalf("read back %d classes", read.Classes())
	}

	positions := samplePositions(t, rand.New(rand.NewPCG(3, 4)), 3000)
	var crashed []backgammon.Board
	a, c := w.NewEvaluator(), read.NewEvaluator()
	for _, b := range positions {
		if Class(&b) == ClassCrashed {
			crashed = append(crashed, b)
		}
		if pa, pc := a.Evaluate(b), c.Evaluate(b); pa != pc {
			t.Fatalf("%v: %v before the split, %v after", b, pa, pc)
		}
	}
	if len(crashed) < 20 {
		t.Fatalf("only %d crashed positions in %d", len(crashed), len(positions))
	}

	// Widening keeps all three networks and what they compute.
	wide, err := read.Widen(LayoutV2, read.Hidden+4, SeededRand(5))
	if err != nil || wide.Classes() != ClassCrashed+1 {
		t.Fatalf("widened: %v classes, %v", wide.Classes(), err)
	}
	we := wide.NewEvaluator()
	for _, b := range crashed[:20] {
		pa, pw := c.Evaluate(b), we.Evaluate(b)
		for k := range pa {
			if d := pa[k] - pw[k]; d > 1e-5 || d < -1e-5 {
				t.Fatalf("%v: %v before widening, %v after", b, pa, pw)
			}
		}
	}

	// One learning step on a crashed position moves the crashed network
	// and leaves the contact network as it was.
	tr := read.Clone()
	ev := tr.NewEvaluator()
	before := ev.Evaluate(crashed[0])
	ev.learn(&crashed[0], Probs{1, 1, 1, 0, 0}, 0.1)
	if after := ev.Evaluate(crashed[0]); after == before {
		t.Error("learning on a crashed position changed nothing")
	}
	for c, n := range tr.nets[:ClassCrashed] {
		if !equalFloats(n.w1, read.nets[c].w1) || !equalFloats(n.w2, read.nets[c].w2) {
			t.Errorf("learning on a crashed position changed network %d", c)
		}
	}

	// A file claiming another number of classes is refused.
	for _, classes := range []byte{1, 4, 5} {
		data := append([]byte(nil), buf.Bytes()...)
		data[8] = classes
		if _, err := ParseWeights(data); !errors.Is(err, ErrBadWeights) {
			t.Errorf("%d classes: %v", classes, err)
		}
	}
}

// Training with a crashed network runs and ends with a crashed network
// that differs from the contact one.
func TestTrainCrashed(t *testing.T) {
	w, err := NewWeightsLayout(LayoutV2, 8, SeededRand(1))
	if err != nil {
		t.Fatal(err)
	}
	if w, err = w.SplitCrashed(); err != nil {
		t.Fatal(err)
	}
	if _, err := Train(context.Background(), w, TrainConfig{Games: 30, Alpha: 0.1, AlphaEnd: 0.05, Lambda: 0.7, Seed: 2, Workers: 2, SyncEvery: 5}); err != nil {
		t.Fatal(err)
	}
	if w.Classes() != ClassCrashed+1 {
		t.Fatalf("%d classes after training", w.Classes())
	}
	if equalFloats(w.nets[ClassCrashed].w1, w.nets[ClassContact].w1) {
		t.Error("30 games left the crashed network equal to the contact network")
	}
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
