package bgbot

import (
	"math"
	"math/rand/v2"

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
	n, _ := w.netFor(class)
	H := n.hidden
	sum := make([]float64, H)
	sq := make([]float64, H)
	count := w.eachActivation(boards, class, func(hid []float32) {
		for j, a := range hid {
			sum[j] += float64(a)
			sq[j] += float64(a) * float64(a)
		}
	})
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

// eachActivation runs the network for class on each of boards of that
// class and hands f the hidden activations; it returns how many it ran.
// A file without the class's network runs none.
func (w *Weights) eachActivation(boards []backgammon.Board, class int, f func(hid []float32)) int {
	ev := w.NewEvaluator()
	count := 0
	for i := range boards {
		if w.netClassOf(&boards[i]) != class {
			continue
		}
		ev.forward(&boards[i])
		if ev.cls != class {
			return 0
		}
		count++
		f(ev.hid)
	}
	return count
}

// Revive gives the idle hidden units of the network for class (those whose
// HiddenUse over boards is below IdleContribution) a fresh start: new
// random input weights at a new network's scale, a bias that centres the
// unit's input sum over boards, and zero output weights. What an idle unit
// added on average moves into the output biases, so the network computes
// what it did up to the idle units' spread. It returns how many units were
// revived. Widening leaves new units to grow out of zero output weights in
// a trained network, where many drift to a constant activation; this gives
// them another chance.
func (w *Weights) Revive(boards []backgammon.Board, class int, rng *rand.Rand) int {
	use, count := w.HiddenUse(boards, class)
	var idle []int
	for j, u := range use {
		if count > 0 && u < IdleContribution {
			idle = append(idle, j)
		}
	}
	if len(idle) == 0 {
		return 0
	}
	n, _ := w.netFor(class)
	H := n.hidden
	// Each idle unit's mean output moves into the output biases.
	meanAct := make([]float64, H)
	w.eachActivation(boards, class, func(hid []float32) {
		for _, j := range idle {
			meanAct[j] += float64(hid[j])
		}
	})
	r1 := 1 / float32(math.Sqrt(20)) // newNet's scale
	for _, j := range idle {
		for k := 0; k < NumOutputs; k++ {
			n.b2[k] += n.w2[k*H+j] * float32(meanAct[j]/float64(count))
			n.w2[k*H+j] = 0
		}
		for i := 0; i < n.inputs; i++ {
			n.w1[i*H+j] = (rng.Float32()*2 - 1) * r1
		}
		n.b1[j] = 0
	}
	// Centre the new units' input sums over the positions.
	logits := make([]float64, H)
	w.eachActivation(boards, class, func(hid []float32) {
		for _, j := range idle {
			a := min(max(float64(hid[j]), 1e-6), 1-1e-6)
			logits[j] += math.Log(a / (1 - a))
		}
	})
	for _, j := range idle {
		n.b1[j] = -float32(logits[j] / float64(count))
	}
	return len(idle)
}
