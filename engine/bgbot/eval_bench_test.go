package bgbot

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// BenchmarkNetEvaluate measures one network evaluation (features included).
func BenchmarkNetEvaluate(b *testing.B) {
	w, err := DefaultWeights()
	if err != nil {
		b.Fatal(err)
	}
	ev := w.NewEvaluator()
	bd := backgammon.Standard.StartBoard()
	for i := 0; i < b.N; i++ {
		ev.Evaluate(bd)
	}
}
