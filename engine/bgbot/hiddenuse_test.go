package bgbot

import (
	"math"
	"math/rand/v2"
	"testing"
)

// HiddenUse tells working units from those that only act as a bias (their
// input weights are zero) or feed nothing (their output weights are zero).
func TestHiddenUse(t *testing.T) {
	w, err := NewWeightsLayout(LayoutV2, 16, SeededRand(3))
	if err != nil {
		t.Fatal(err)
	}
	n := w.nets[ClassContact]
	const constant, unused = 2, 5
	for i := 0; i < n.inputs; i++ {
		n.w1[i*n.hidden+constant] = 0
	}
	for k := 0; k < NumOutputs; k++ {
		n.w2[k*n.hidden+unused] = 0
	}
	boards := samplePositions(t, rand.New(rand.NewPCG(5, 6)), 300)
	use, count := w.HiddenUse(boards, ClassContact)
	if count < 100 {
		t.Fatalf("only %d of %d sample positions are contact", count, len(boards))
	}
	for j, u := range use {
		idle := u < IdleContribution
		if want := j == constant || j == unused; idle != want {
			t.Errorf("unit %d: contribution %.4f, idle %v, want idle %v", j, u, idle, want)
		}
	}
	if _, c := w.HiddenUse(boards, ClassCrashed); c != 0 {
		t.Errorf("a two-class file reported %d crashed positions for its missing network", c)
	}
}

// Revive restarts exactly the idle units and keeps what the network
// computes.
func TestRevive(t *testing.T) {
	w, err := NewWeightsLayout(LayoutV2, 16, SeededRand(4))
	if err != nil {
		t.Fatal(err)
	}
	n := w.nets[ClassContact]
	const constant = 3
	for i := 0; i < n.inputs; i++ {
		n.w1[i*n.hidden+constant] = 0
	}
	n.b1[constant] = -2 // a constant activation of about 0.12, feeding the outputs
	boards := samplePositions(t, rand.New(rand.NewPCG(7, 8)), 300)
	before := w.Clone()
	if got := w.Revive(boards, ClassContact, SeededRand(5)); got != 1 {
		t.Fatalf("revived %d units, want 1", got)
	}
	use, _ := w.HiddenUse(boards, ClassContact)
	if use[constant] != 0 {
		t.Errorf("the revived unit feeds the outputs at once: %g", use[constant])
	}
	var moved float64
	for i := 0; i < n.inputs; i++ {
		moved += math.Abs(float64(n.w1[i*n.hidden+constant]))
	}
	if moved == 0 {
		t.Error("the revived unit has no input weights")
	}
	a, b := before.NewEvaluator(), w.NewEvaluator()
	for i := range boards {
		p, q := a.Evaluate(boards[i]), b.Evaluate(boards[i])
		for k := range p {
			if math.Abs(float64(p[k]-q[k])) > 1e-4 {
				t.Fatalf("position %d output %d: %.5f before, %.5f after", i, k, p[k], q[k])
			}
		}
	}
	if got := w.Revive(boards, ClassContact, SeededRand(5)); got != 1 {
		// The revived unit feeds nothing yet, so it is idle again.
		t.Errorf("second revive: %d units, want the same 1", got)
	}
}
