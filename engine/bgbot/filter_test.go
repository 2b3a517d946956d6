package bgbot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// TestPruneMatchesStableSort checks that the move filter keeps the same
// candidates in the same order as a stable sort by score would, over
// lists full of equal scores.
func TestPruneMatchesStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for range 5000 {
		n := 1 + rng.IntN(40)
		c := make([]candidate, n)
		for i := range c {
			c[i].move = backgammon.Move{N: int8(i % 5)}
			c[i].move.Steps[0] = backgammon.Step{From: int8(i / 5), To: int8(i % 7)}
			c[i].score = float32(rng.IntN(8)) / 16 // many ties
		}
		f := Filter{Keep: 1 + rng.IntN(10), Margin: float32(rng.IntN(5)) / 16}
		want := slices.Clone(c)
		slices.SortStableFunc(want, func(a, b candidate) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			}
			return 0
		})
		k := 1
		for k < len(want) && k < f.Keep && want[k].score >= want[0].score-f.Margin {
			k++
		}
		got := prune(slices.Clone(c), f)
		if !slices.Equal(got, want[:k]) {
			t.Fatalf("keep %d margin %v: prune kept %v, want %v", f.Keep, f.Margin, got, want[:k])
		}
	}
}
