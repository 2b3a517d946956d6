package bgbot

import (
	"math"
	"testing"
)

// Non-finite input (a NaN learning rate spreads NaN through the weights)
// must not index the table: NaN stays NaN, the infinities saturate.
func TestSigmoidNonFinite(t *testing.T) {
	if y := sigmoid(float32(math.NaN())); !math.IsNaN(float64(y)) {
		t.Errorf("sigmoid(NaN) = %v, want NaN", y)
	}
	if y := sigmoid(float32(math.Inf(1))); y != 1 {
		t.Errorf("sigmoid(+Inf) = %v, want 1", y)
	}
	if y := sigmoid(float32(math.Inf(-1))); y != 0 {
		t.Errorf("sigmoid(-Inf) = %v, want 0", y)
	}
	for _, x := range []float32{-sigLimit, sigLimit, math.Nextafter32(sigLimit, 0), math.Nextafter32(-sigLimit, 0), math.MaxFloat32, -math.MaxFloat32} {
		want := 1 / (1 + math.Exp(-float64(x)))
		if d := math.Abs(float64(sigmoid(x)) - want); d > 2e-6 {
			t.Errorf("sigmoid(%v) off by %v", x, d)
		}
	}
}
