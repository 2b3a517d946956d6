package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// inputRate scales the first layer's step and leaves the output layer's
// alone.
func TestLearnInputRate(t *testing.T) {
	base, err := NewWeightsLayout(LayoutV2, 8, SeededRand(9))
	if err != nil {
		t.Fatal(err)
	}
	b := backgammon.Standard.StartBoard()
	target := Probs{Win: 1, WinGammon: 0.3}
	step := func(rate float32) (d1, d2 float64) {
		w := base.Clone()
		ev := w.NewEvaluator()
		ev.inputRate = rate
		ev.learn(&b, target, 0.1)
		n, o := w.nets[ClassContact], base.nets[ClassContact]
		for i := range n.w1 {
			d1 += math.Abs(float64(n.w1[i] - o.w1[i]))
		}
		for i := range n.b1 {
			d1 += math.Abs(float64(n.b1[i] - o.b1[i]))
		}
		for i := range n.w2 {
			d2 += math.Abs(float64(n.w2[i] - o.w2[i]))
		}
		return d1, d2
	}
	full1, full2 := step(1)
	part1, part2 := step(0.25)
	if full1 == 0 || full2 == 0 {
		t.Fatalf("a step moved nothing: first layer %g, output layer %g", full1, full2)
	}
	if r := part1 / full1; math.Abs(r-0.25) > 1e-3 {
		t.Errorf("first-layer step at rate 0.25 is %.4f of the full one", r)
	}
	if part2 != full2 {
		t.Errorf("output-layer step changed with the input rate: %g against %g", part2, full2)
	}
}
