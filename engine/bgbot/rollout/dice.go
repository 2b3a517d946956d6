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
}

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

// trialDice is the dice of one trial.
type trialDice struct {
	quasi *quasiDice // nil for plain dice
	plain *backgammon.Dice
	trial int
}

func newTrialDice(q *quasiDice, seed uint64, trial int) *trialDice {
	return &trialDice{quasi: q, plain: backgammon.NewDice(seed, uint64(trial)), trial: trial}
}

// roll returns the dice of turn t (turns counted from 0, in order).
func (d *trialDice) roll(t int) (int, int) {
	if d.quasi != nil && t < rotatedTurns {
		return d.quasi.roll(t, d.trial)
	}
	return d.plain.Roll()
}
