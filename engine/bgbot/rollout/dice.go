package rollout

import (
	"math/rand/v2"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Quasi-random dice. Each turn t of trial g takes its roll from a chain of
// permutations of the 36 rolls, one per base-36 digit of g up to the t-th
// (gnubg's "rotation"): turn t's roll is perm[0][t][g mod 36], then passed
// through perm[1][t] shifted by the next digit, and so on. So every turn
// sees each of the 36 rolls exactly once in any 36 consecutive trials
// aligned on a multiple of 36, every pair of the first two turns once in
// 1,296 trials, and so on for the first few turns: the early dice, the
// largest source of a rollout's variance, are spread evenly over the
// trials rather than sampled. Turns from rotatedTurns on use plain dice.
const (
	generations  = 6   // 36^6 trials before the pattern repeats
	rotatedTurns = 128 // turns with rotated dice; later ones are plain
)

// quasiDice holds the permutations of one seed. It is read-only once made.
type quasiDice struct {
	perm [generations][rotatedTurns][36]uint8
	// first21 orders the 21 distinct rolls for a first roll stratified
	// over them (rolls21 numbers them).
	first21 [21]uint8
}

// rolls21 lists the 21 distinct rolls, higher die first, in the order of
// rollIndex.
var rolls21 = func() (r [21][2]int) {
	for hi := 1; hi <= 6; hi++ {
		for lo := 1; lo <= hi; lo++ {
			r[rollIndex(hi, lo)] = [2]int{hi, lo}
		}
	}
	return r
}()

// newQuasiDice draws the permutations from seed.
func newQuasiDice(seed uint64) *quasiDice {
	q := &quasiDice{}
	rng := rand.New(rand.NewPCG(seed, 0x71756173692d6469))
	for i := range q.perm {
		for t := range q.perm[i] {
			p := &q.perm[i][t]
			for k := range p {
				p[k] = uint8(k)
			}
			rng.Shuffle(len(p), func(a, b int) { p[a], p[b] = p[b], p[a] })
		}
	}
	// Drawn after the permutations above, which stay those of the seed.
	f := &q.first21
	for k := range f {
		f[k] = uint8(k)
	}
	rng.Shuffle(len(f), func(a, b int) { f[a], f[b] = f[b], f[a] })
	return q
}

// roll is the roll of turn t in trial g.
func (q *quasiDice) roll(t, g int) (int, int) {
	j, k := 0, 1
	for i := 0; i < generations && i <= t; i++ {
		j = int(q.perm[i][t][(g/k+j)%36])
		k *= 36
	}
	return j/6 + 1, j%6 + 1
}

// roll21 is the roll of turn t in trial g when the first roll is
// stratified over the 21 distinct rolls: trial g's first roll is the
// (g mod 21)-th of the seed's order, and the later turns follow the chain
// of roll over the block number g/21, shifted by the first roll, so that
// every first roll meets each of the 36 second rolls once in 756 trials.
func (q *quasiDice) roll21(t, g int) (int, int) {
	r, h := g%21, g/21
	if t == 0 {
		d := rolls21[q.first21[r]]
		return d[0], d[1]
	}
	j, k := r, 1
	for i := 0; i < generations && i < t; i++ {
		j = int(q.perm[i][t][(h/k+j)%36])
		k *= 36
	}
	return j/6 + 1, j%6 + 1
}

// firstRollWeight is the weight of a trial whose first roll is d1, d2 when
// the first roll is stratified over the 21 distinct rolls: its chance
// times 21, so that a non-double counts twice a double and the 21 weights
// sum to 21.
func firstRollWeight(d1, d2 int) float64 { return 21 * rollWeight(d1, d2) }

// trialDice is the dice of one trial.
type trialDice struct {
	quasi *quasiDice // nil for plain dice
	by21  bool       // the first roll stratified over the 21 distinct rolls
	plain *backgammon.Dice
	trial int
}

func newTrialDice(q *quasiDice, by21 bool, seed uint64, trial int) *trialDice {
	return &trialDice{quasi: q, by21: by21 && q != nil, plain: backgammon.NewDice(seed, uint64(trial)), trial: trial}
}

// roll returns the dice of turn t (turns counted from 0, in order).
func (d *trialDice) roll(t int) (int, int) {
	switch {
	case d.quasi != nil && t < rotatedTurns && d.by21:
		return d.quasi.roll21(t, d.trial)
	case d.quasi != nil && t < rotatedTurns:
		return d.quasi.roll(t, d.trial)
	}
	return d.plain.Roll()
}

// weight is the trial's weight in the rollout's means: 1, or with the
// first roll stratified over the 21 rolls, firstRollWeight of it.
func (d *trialDice) weight() float64 {
	if !d.by21 {
		return 1
	}
	d1, d2 := d.quasi.roll21(0, d.trial)
	return firstRollWeight(d1, d2)
}
