package ratings

import (
	"math"
	"testing"
)

func TestEloFromScore(t *testing.T) {
	tests := []struct{ s, want float64 }{
		{0.5, 0},
		{0.75, 190.8485019},  // 400*log10(3)
		{0.25, -190.8485019}, // symmetric
		{0.9, 381.6970038},   // 400*log10(9)
		{0, math.Inf(-1)},
		{1, math.Inf(1)},
		{-0.1, math.NaN()},
		{1.1, math.NaN()},
	}
	for _, tc := range tests {
		got := EloFromScore(tc.s)
		if !close(got, tc.want, 1e-6) {
			t.Errorf("EloFromScore(%g) = %.7f, want %.7f", tc.s, got, tc.want)
		}
	}
	for _, elo := range []float64{-500, -37.5, 0, 12, 190.85, 800} {
		if got := EloFromScore(ScoreFromElo(elo)); !close(got, elo, 1e-9) {
			t.Errorf("round trip %g -> %g", elo, got)
		}
	}
}

func TestEloInterval(t *testing.T) {
	// 60 wins, 30 losses, 10 draws: s = 0.65, z = 1.959964, z^2/n =
	// 0.0384146: Wilson's centre 0.6444510, half-width 0.0919065, score
	// interval 0.5525444 .. 0.7363575.
	elo, lo, hi := EloInterval(60, 30, 10, 0.95)
	if !close(elo, 107.5381249, 1e-6) || !close(lo, EloFromScore(0.5525444), 1e-3) || !close(hi, EloFromScore(0.7363575), 1e-3) {
		t.Errorf("EloInterval(60,30,10) = %.7f (%.7f, %.7f)", elo, lo, hi)
	}
	// Wider at 99%.
	_, lo99, hi99 := EloInterval(60, 30, 10, 0.99)
	if !(lo99 < lo && hi99 > hi) {
		t.Errorf("99%% interval (%g, %g) not wider than 95%% (%g, %g)", lo99, hi99, lo, hi)
	}
	// Even result: symmetric about 0.
	elo, lo, hi = EloInterval(50, 50, 0, 0.95)
	if elo != 0 || !close(lo, -hi, 1e-9) || !(hi > 0) {
		t.Errorf("EloInterval(50,50,0) = %g (%g, %g)", elo, lo, hi)
	}
	// All wins: infinite estimate and upper bound, and a finite lower
	// bound (Wilson: 10/(10+z^2) = 0.7225 at 95%).
	elo, lo, hi = EloInterval(10, 0, 0, 0.95)
	if !math.IsInf(elo, 1) || !math.IsInf(hi, 1) || !close(lo, EloFromScore(10/(10+1.959964*1.959964)), 1e-3) {
		t.Errorf("EloInterval(10,0,0) = %g (%g .. %g)", elo, lo, hi)
	}
	// At any n the estimate and the far bound of a clean sweep are
	// infinite, not a huge finite number left by rounding.
	for _, n := range []float64{1, 3, 40, 1000} {
		if elo, lo, hi := EloInterval(n, 0, 0, 0.95); !math.IsInf(elo, 1) || !math.IsInf(hi, 1) || math.IsInf(lo, 0) {
			t.Errorf("EloInterval(%g,0,0) = %g (%g .. %g)", n, elo, lo, hi)
		}
		if elo, lo, hi := EloInterval(0, n, 0, 0.95); !math.IsInf(elo, -1) || !math.IsInf(lo, -1) || math.IsInf(hi, 0) {
			t.Errorf("EloInterval(0,%g,0) = %g (%g .. %g)", n, elo, lo, hi)
		}
	}
	// All losses: the mirror image.
	if elo2, lo2, hi2 := EloInterval(0, 10, 0, 0.95); !math.IsInf(elo2, -1) || !math.IsInf(lo2, -1) || !close(hi2, -lo, 1e-9) {
		t.Errorf("EloInterval(0,10,0) = %g (%g .. %g)", elo2, lo2, hi2)
	}
	if e, l, h := EloInterval(0, 0, 0, 0.95); !math.IsNaN(e) || !math.IsNaN(l) || !math.IsNaN(h) {
		t.Errorf("no games: %g %g %g", e, l, h)
	}
	// Width shrinks with n at a fixed score.
	prev := math.Inf(1)
	for _, k := range []float64{1, 4, 16, 64} {
		_, lo, hi := EloInterval(6*k, 3*k, 1*k, 0.95)
		if !(hi-lo < prev) {
			t.Errorf("width did not shrink at scale %g", k)
		}
		prev = hi - lo
	}
}

func TestLOS(t *testing.T) {
	tests := []struct{ w, l, want, tol float64 }{
		{10, 0, 0.9992173, 1e-7}, // 0.5*(1+erf(sqrt(5)))
		{0, 10, 0.0007827, 1e-7},
		{55, 45, 0.8413447, 1e-7}, // erf(1/sqrt2): one sigma
		{20, 20, 0.5, 0},
		{0, 0, 0.5, 0},
	}
	for _, tc := range tests {
		if got := LOS(tc.w, tc.l); !close(got, tc.want, tc.tol) {
			t.Errorf("LOS(%g, %g) = %.7f, want %.7f", tc.w, tc.l, got, tc.want)
		}
	}
}
