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
	if epochs < 1 || batch < 1 || !(rate > 0) || rateEnd < 0 {
		return fmt.Errorf("fit adam: bad configuration: epochs %d batch %d rate %v rate-end %v", epochs, batch, rate, rateEnd)
	}
	if rateEnd == 0 {
		rateEnd = rate
	}
	ev := w.NewEvaluator()
	nets := make([]*adamNet, len(w.nets))
	for c, n := range w.nets {
		nets[c] = newAdamNet(n)
	}
	total := epochs * len(data)
	flush := func(step int) {
		r := rate + (rateEnd-rate)*float64(step)/float64(max(total, 1))
		for _, a := range nets {
			a.update(r)
		}
	}
	err := visitShuffled(ctx, "fit adam", len(data), epochs, rand.New(rand.NewPCG(seed, 0x6164616d)), progress, func(i, step int) {
		ev.forward(&data[i].Board)
		nets[ev.cls].accumulate(ev, data[i].Probs)
		if (step+1)%batch == 0 {
			flush(step + 1)
		}
	})
	if err != nil {
		return err
	}
	flush(total)
	return nil
}
