package bgbot

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Adam's moment decays and its guard against division by zero, the values
// of Kingma and Ba's paper.
const (
	adamBeta1   = 0.9
	adamBeta2   = 0.999
	adamEpsilon = 1e-8
)

// adamNet holds one network's gradient sum over the current mini-batch
// and its Adam moments, each laid out as the network's parameters are:
// w1, b1, w2, b2.
type adamNet struct {
	n       *net
	g, m, v [4][]float32
	samples int // positions in the current batch
	steps   int // updates so far, for the bias correction
}

func newAdamNet(n *net) *adamNet {
	a := &adamNet{n: n}
	for p, s := range a.params() {
		a.g[p] = make([]float32, len(s))
		a.m[p] = make([]float32, len(s))
		a.v[p] = make([]float32, len(s))
	}
	return a
}

// params are the network's parameter slices, in adamNet's layout.
func (a *adamNet) params() [4][]float32 {
	return [4][]float32{a.n.w1, a.n.b1, a.n.w2, a.n.b2[:]}
}

// accumulate adds the gradient of the cross-entropy of each output (as
// learn uses, in the direction that lowers it) at the position e last ran
// forward on, toward target.
func (a *adamNet) accumulate(e *NetEvaluator, target Probs) {
	H := a.n.hidden
	var delta [NumOutputs]float32
	for k := range delta {
		delta[k] = target[k] - e.out[k]
	}
	g := e.grd
	for j, h := range e.hid {
		var s float32
		for k := range delta {
			s += delta[k] * a.n.w2[k*H+j]
		}
		g[j] = s * h * (1 - h)
	}
	gw1, gb1, gw2, gb2 := a.g[0], a.g[1], a.g[2], a.g[3]
	for k := range delta {
		axpy(gw2[k*H:k*H+H], e.hid, delta[k])
		gb2[k] += delta[k]
	}
	addTo(gb1, g)
	for _, i := range e.nz {
		axpy(gw1[int(i)*H:int(i)*H+H], g, e.x[i])
	}
	a.samples++
}

// update applies one Adam step of size rate with the batch's mean
// gradient, then clears the sum. A network that saw no position in the
// batch is left alone, moments included.
func (a *adamNet) update(rate float64) {
	if a.samples == 0 {
		return
	}
	a.steps++
	scale := float32(1 / float64(a.samples))
	c1 := 1 - math.Pow(adamBeta1, float64(a.steps))
	c2 := 1 - math.Pow(adamBeta2, float64(a.steps))
	step := float32(rate * math.Sqrt(c2) / c1)
	for p, params := range a.params() {
		g, m, v := a.g[p], a.m[p], a.v[p]
		for i := range params {
			gi := g[i] * scale
			m[i] = adamBeta1*m[i] + (1-adamBeta1)*gi
			v[i] = adamBeta2*v[i] + (1-adamBeta2)*gi*gi
			params[i] += step * m[i] / (float32(math.Sqrt(float64(v[i]))) + adamEpsilon)
			g[i] = 0
		}
	}
	a.samples = 0
}

// FitAdam trains w toward the labels as Fit does, but in mini-batches of
// batch positions with the Adam rule (Kingma and Ba 2015): each weight's
// step is scaled by running estimates of its gradient's mean and spread,
// which per-position steps with one rate for all weights lack. rate is
// Adam's step size (about 0.001 suits), decaying linearly to rateEnd (0
// keeps rate). Each class's network keeps its own moments and is updated
// only by batches that held positions of its class. It is sequential, so
// reproducible.
func FitAdam(ctx context.Context, w *Weights, data []Labelled, epochs, batch int, rate, rateEnd float64, seed uint64, progress func(done, total int)) error {
	return FitAdamRanked(ctx, w, data, nil, 0, epochs, batch, rate, rateEnd, seed, progress)
}

// FitAdamRanked is FitAdam that also fits the differences between
// siblings: positions that share a group number in groups (SampleDecisions'
// groups: the results of one decision's candidate moves, in contiguous
// runs). To each position's cross-entropy it adds rank/2 times d², d being
// the position's cubeless equity error less the mean error of its group.
// An error that all the siblings share changes no move choice, while one
// that sets them apart changes which move is played; plain fitting weighs
// both alike. The shuffles then visit whole groups, and progress counts
// groups. With rank 0 or groups nil it is FitAdam, step for step.
func FitAdamRanked(ctx context.Context, w *Weights, data []Labelled, groups []int32, rank float64, epochs, batch int, rate, rateEnd float64, seed uint64, progress func(done, total int)) error {
	if epochs < 1 || batch < 1 || !(rate > 0) || rateEnd < 0 || !(rank >= 0) {
		return fmt.Errorf("fit adam: bad configuration: epochs %d batch %d rate %v rate-end %v rank %v", epochs, batch, rate, rateEnd, rank)
	}
	if groups != nil && len(groups) != len(data) {
		return fmt.Errorf("fit adam: %d groups for %d positions", len(groups), len(data))
	}
	if rateEnd == 0 {
		rateEnd = rate
	}
	if rank == 0 {
		groups = nil // no term to fit: FitAdam's order, position by position
	}
	ev := w.NewEvaluator()
	nets := make([]*adamNet, len(w.nets))
	for c, n := range w.nets {
		nets[c] = newAdamNet(n)
	}
	// Without groups each position is a run of its own.
	runs := groupRuns(groups, len(data))
	total := epochs * (len(runs) - 1)
	flush := func(step int) {
		r := rate + (rateEnd-rate)*float64(step)/float64(max(total, 1))
		for _, a := range nets {
			a.update(r)
		}
	}
	// The cubeless equity's derivatives with respect to the outputs
	// (Probs.Equity).
	equityWeights := [NumOutputs]float32{2, 1, 1, -1, -1}
	var errs []float32 // each member's equity error, for the ranking term
	seen := 0          // positions visited
	rng := rand.New(rand.NewPCG(seed, 0x6164616d))
	err := visitShuffled(ctx, "fit adam", len(runs)-1, epochs, rng, progress, func(g, step int) {
		members := data[runs[g]:runs[g+1]]
		ranked := rank > 0 && len(members) > 1
		var mean float32
		if ranked {
			errs = errs[:0]
			for i := range members {
				ev.forward(&members[i].Board)
				e := Probs(ev.out).Equity() - members[i].Probs.Equity()
				errs = append(errs, e)
				mean += e
			}
			mean /= float32(len(members))
		}
		for i := range members {
			ev.forward(&members[i].Board)
			target := members[i].Probs
			if ranked {
				// The term's gradient at each output's input is
				// rank*d*(dEquity/dOutput)*o(1-o); accumulate steps along
				// target - output, so the target moves by its negative.
				d := float32(rank) * (errs[i] - mean)
				for k := range target {
					o := ev.out[k]
					target[k] -= d * equityWeights[k] * o * (1 - o)
				}
			}
			nets[ev.cls].accumulate(ev, target)
			if seen++; seen%batch == 0 {
				flush(step + 1)
			}
		}
	})
	if err != nil {
		return err
	}
	flush(total)
	return nil
}

// groupRuns returns the starts of the runs of equal group numbers in
// groups, followed by n (so run g is [runs[g], runs[g+1])); with groups nil
// every position is a run.
func groupRuns(groups []int32, n int) []int {
	runs := make([]int, 0, n+1)
	for i := range n {
		if groups == nil || i == 0 || groups[i] != groups[i-1] {
			runs = append(runs, i)
		}
	}
	return append(runs, n)
}
