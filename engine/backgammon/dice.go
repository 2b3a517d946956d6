package backgammon

import (
	"hash/fnv"
	"math/rand/v2"
)

// Dice is a seeded source of rolls. It uses the PCG-DXSM generator of Go's
// math/rand/v2 (128-bit state, specified and stable across platforms and Go
// releases) and maps its output onto 1..6 with rand's unbiased bounded
// method (Lemire's multiply-and-reject), so a seed gives the same rolls
// everywhere.
type Dice struct {
	rng *rand.Rand
}

// NewDice returns a dice source for a seed pair.
func NewDice(seed1, seed2 uint64) *Dice {
	return &Dice{rng: rand.New(rand.NewPCG(seed1, seed2))}
}

// DiceForGame derives an independent stream for one game of a competition:
// the competition seed and an FNV-1a hash of the game id seed the two PCG
// words, so a replayed game sees the same dice and games never share a stream.
func DiceForGame(seed uint64, gameID string) *Dice {
	h := fnv.New64a()
	h.Write([]byte(gameID))
	return NewDice(seed, h.Sum64())
}

// Die rolls one die.
func (d *Dice) Die() int { return d.rng.IntN(6) + 1 }

// Roll rolls two dice.
func (d *Dice) Roll() (int, int) { return d.Die(), d.Die() }

// Opening rolls one die per player until they differ, as the opening roll
// of a game: the player with the higher die starts with both dice.
// It returns the starting player (0 or 1) and the dice for its first move.
func (d *Dice) Opening() (first int, d0, d1 int) {
	for {
		a, b := d.Die(), d.Die()
		if a == b {
			continue
		}
		if a > b {
			return 0, a, b
		}
		return 1, a, b
	}
}
