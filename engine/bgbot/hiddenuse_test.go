package bgbot

import (
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
