package rollout

import (
	"context"
	"math"
	"testing"
)

// With the first roll stratified over the 21 rolls, any 21 aligned trials
// see each distinct roll once, their weights (a roll's chance times 21)
// sum to 21 with a non-double weighing twice a double, and every first
// roll meets each of the 36 second rolls once in 756 trials.
func TestFirstRollOver21Rolls(t *testing.T) {
	q := newQuasiDice(9)
	for block := range 4 {
		var seen [21]int
		sum, doubles, others := 0.0, 0.0, 0.0
		for g := block * 21; g < block*21+21; g++ {
			d := newTrialDice(q, true, 9, g)
			d1, d2 := d.roll(0)
			seen[rollIndex(d1, d2)]++
			w := d.weight()
			sum += w
			if d1 == d2 {
				doubles += w
			} else {
				others += w
			}
			want := 42.0 / 36
			if d1 == d2 {
				want = 21.0 / 36
			}
			if math.Abs(w-want) > 1e-12 {
				t.Errorf("trial %d, first roll %d%d: weight %v, want %v", g, d1, d2, w, want)
			}
		}
		for r, n := range seen {
			if n != 1 {
				t.Fatalf("block %d: roll %v seen %d times", block, rolls21[r], n)
			}
		}
		// 6 doubles at 21/36 and 15 non-doubles at 42/36.
		if math.Abs(sum-21) > 1e-12 || math.Abs(doubles-6*21.0/36) > 1e-12 || math.Abs(others-15*42.0/36) > 1e-12 {
			t.Errorf("block %d: weights sum to %v (doubles %v, others %v), want 21 (3.5, 17.5)", block, sum, doubles, others)
		}
	}
	pairs := map[[4]int]int{}
	for g := range 756 {
		d := newTrialDice(q, true, 9, g)
		a, b := d.roll(0)
		c, e := d.roll(1)
		pairs[[4]int{a, b, c, e}]++
	}
	if len(pairs) != 756 {
		t.Errorf("the first two turns of 756 trials hold %d distinct pairs of rolls, want 756", len(pairs))
	}
	// Stratifying over 36 leaves every trial its weight of 1.
	if w := newTrialDice(q, false, 9, 5).weight(); w != 1 {
		t.Errorf("a trial of the 36-roll stratification weighs %v", w)
	}
}

// A rollout truncated after one turn, without luck correction, averages
// the bot's evaluation after its move for each first roll: over 21 trials
// stratified by the 21 rolls, or 36 trials by the 36, that is exactly the
// 1-ply average over the 21 distinct rolls, each weighted by its chance.
func TestOnePlyRolloutOver21Rolls(t *testing.T) {
	s := state(t, "4HPwATDgc/ABMA", "cAkAAAAAAAAA")
	bot, err := newBot()
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, r := range rolls21 {
		m, _, _ := bot.ChooseMove(s.Board, r[0], r[1])
		after := s.Board.Apply(m).Swap()
		want += rollWeight(r[0], r[1]) * float64(bot.Probs(after).Invert().Equity())
	}
	for _, c := range []struct{ stratify, trials int }{{21, 21}, {36, 36}, {21, 42}} {
		r, err := NewPosition(s, rules, Settings{Seed: 5, Truncate: 1, NoVarianceReduction: true, NoBearoffTruncation: true, Stratify: c.stratify, Bot: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(context.Background(), c.trials, RunConfig{NewBot: newBot, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		got := r.Results()[0].Equity.Mean
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("stratified over %d, %d trials: mean %.9f, want the 1-ply average %.9f", c.stratify, c.trials, got, want)
		}
	}
	// 21 trials stratified over the 36 rolls miss some: not the average.
	r, err := NewPosition(s, rules, Settings{Seed: 5, Truncate: 1, NoVarianceReduction: true, NoBearoffTruncation: true, Stratify: 36, Bot: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), 21, RunConfig{NewBot: newBot}); err != nil {
		t.Fatal(err)
	}
	if got := r.Results()[0].Equity.Mean; math.Abs(got-want) < 1e-6 {
		t.Errorf("21 trials stratified over 36 rolls average %.9f, the 1-ply average", got)
	}
}

// The weighted standard error reduces to the plain one when every weight
// is 1, and counts the effective number of trials otherwise.
func TestEstimateWeights(t *testing.T) {
	xs := []float64{0.2, -0.5, 1.0, 0.4}
	a := &Alternative{}
	for _, x := range xs {
		a.Trials++
		a.Weight++
		a.WeightSq++
		a.Sum[outEquity] += x
		a.SumSq[outEquity] += x * x
	}
	n, mean, ss := 4.0, 0.275, 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	e := estimate(a, outEquity)
	if math.Abs(e.Mean-mean) > 1e-15 || math.Abs(e.StdErr-math.Sqrt(ss/(n-1)/n)) > 1e-15 {
		t.Errorf("unit weights: %+v, want mean %v stderr %v", e, mean, math.Sqrt(ss/(n-1)/n))
	}
	// Doubling every weight changes nothing.
	b := &Alternative{Trials: a.Trials, Weight: 2 * a.Weight, WeightSq: 4 * a.WeightSq}
	for k := range b.Sum {
		b.Sum[k], b.SumSq[k] = 2*a.Sum[k], 2*a.SumSq[k]
	}
	if f := estimate(b, outEquity); math.Abs(f.Mean-e.Mean) > 1e-15 || math.Abs(f.StdErr-e.StdErr) > 1e-15 {
		t.Errorf("doubled weights: %+v, want %+v", f, e)
	}
}

// bgbot's luck table covers the 21 rolls with weights that sum to one.
func TestRollWeightsSumToOne(t *testing.T) {
	sum := 0.0
	for _, r := range rolls21 {
		sum += rollWeight(r[0], r[1])
	}
	if math.Abs(sum-1) > 1e-15 {
		t.Errorf("the 21 rolls' chances sum to %v", sum)
	}
}
