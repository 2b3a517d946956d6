package bgbot

import (
	"math"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// IdleContribution is the spread below which HiddenUse calls a hidden unit
// idle: a unit whose effect on the output logits varies by less than this
// (standard deviation over positions) shifts no output by more than about
// a quarter of a percent of probability.
const IdleContribution = 0.01

// HiddenUse measures how much each hidden unit of the network for class
// contributes across boards (positions before the roll; those of other
// classes are skipped): for unit j, the standard deviation over the
// positions of its activation times the norm of its output weights, the
// spread of what it adds to the output logits. A unit that sits at the same
// activation for every position acts only as a bias, whatever its weights.
// It returns one figure per unit and the number of positions used.
func (w *Weights) HiddenUse(boards []backgammon.Board, class int) ([]float64, int) {
	ev := w.NewEvaluator()
	n, _ := w.netFor(class)
	H := n.hidden
	sum := make([]float64, H)
	sq := make([]float64, H)
	count := 0
	for i := range boards {
		if Class(&boards[i]) != class {
			continue
		}
		ev.forward(&boards[i])
		if ev.cls != class {
			continue // a file without this class's network
		}
		count++
		for j, a := range ev.hid {
			sum[j] += float64(a)
			sq[j] += float64(a) * float64(a)
		}
	}
	use := make([]float64, H)
	if count == 0 {
		return use, 0
	}
	for j := range use {
		m := sum[j] / float64(count)
		sd := math.Sqrt(max(sq[j]/float64(count)-m*m, 0))
		var norm float64
		for k := 0; k < NumOutputs; k++ {
			v := float64(n.w2[k*H+j])
			norm += v * v
		}
		use[j] = sd * math.Sqrt(norm)
	}
	return use, count
}
