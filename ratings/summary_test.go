package ratings

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPointsPerGameHandComputed(t *testing.T) {
	// 1..5: mean 3, variance 2.5, stderr sqrt(0.5), t(0.975, 4) = 2.776445.
	s := PointsPerGame([]float64{1, 2, 3, 4, 5})
	want := Summary{
		Mean: 3, StdDev: math.Sqrt(2.5), StdErr: math.Sqrt(0.5), N: 5, Samples: 5,
		Low: 3 - 2.7764451052*math.Sqrt(0.5), High: 3 + 2.7764451052*math.Sqrt(0.5),
	}
	checkSummary(t, s, want)

	// 99% with t(0.995, 4) = 4.604095.
	lo, hi := s.Interval(0.99)
	if !close(lo, 3-4.6040948713*math.Sqrt(0.5), 1e-8) || !close(hi, 3+4.6040948713*math.Sqrt(0.5), 1e-8) {
		t.Errorf("Interval(0.99) = (%g, %g)", lo, hi)
	}
}

func TestPairedPointsPerGameHandComputed(t *testing.T) {
	// Pair sums 0, 2, 2 -> per-game 0, 1, 1: mean 2/3, variance 1/3,
	// stderr 1/3, t(0.975, 2) = 4.302653.
	s := PairedPointsPerGame([][2]float64{{1, -1}, {2, 0}, {3, -1}})
	want := Summary{
		Mean: 2.0 / 3, StdDev: math.Sqrt(1.0 / 3), StdErr: 1.0 / 3, N: 6, Samples: 3,
		Low: 2.0/3 - 4.3026527297/3, High: 2.0/3 + 4.3026527297/3,
	}
	checkSummary(t, s, want)
}

func checkSummary(t *testing.T, got, want Summary) {
	t.Helper()
	if got.N != want.N || got.Samples != want.Samples {
		t.Errorf("N, Samples = %d, %d; want %d, %d", got.N, got.Samples, want.N, want.Samples)
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"Mean", got.Mean, want.Mean},
		{"StdDev", got.StdDev, want.StdDev},
		{"StdErr", got.StdErr, want.StdErr},
		{"Low", got.Low, want.Low},
		{"High", got.High, want.High},
	} {
		if !close(f.got, f.want, 1e-8) {
			t.Errorf("%s = %.12g, want %.12g", f.name, f.got, f.want)
		}
	}
}

func TestPointsPerGameDegenerate(t *testing.T) {
	s := PointsPerGame(nil)
	if s.N != 0 || !math.IsNaN(s.Mean) || !math.IsNaN(s.Low) || !math.IsNaN(s.High) {
		t.Errorf("empty: %+v", s)
	}
	s = PointsPerGame([]float64{2})
	if s.Mean != 2 || !math.IsNaN(s.StdDev) || !math.IsNaN(s.StdErr) || !math.IsNaN(s.Low) {
		t.Errorf("one game: %+v", s)
	}
	s = PointsPerGame([]float64{1, 1, 1})
	if s.Mean != 1 || s.StdDev != 0 || s.Low != 1 || s.High != 1 {
		t.Errorf("constant: %+v", s)
	}
	for _, level := range []float64{0, 1, -0.5, 2, math.NaN()} {
		if lo, hi := PointsPerGame([]float64{1, 2, 3}).Interval(level); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("Interval(%g) = (%g, %g), want NaN", level, lo, hi)
		}
	}
}

func TestPointsPerGameStableForLargeOffset(t *testing.T) {
	// The two-pass variance must not cancel catastrophically.
	s := PointsPerGame([]float64{1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4, 1e9 + 5})
	if !close(s.StdDev, math.Sqrt(2.5), 1e-6) {
		t.Errorf("StdDev = %.12g", s.StdDev)
	}
}

// backgammonPoints draws points per game from a rough backgammon-like
// distribution: single, gammon, backgammon, cubed.
func backgammonPoints(r *rand.Rand, edge float64) float64 {
	v := 1.0
	switch u := r.Float64(); {
	case u < 0.02:
		v = 3
	case u < 0.25:
		v = 2
	}
	v *= float64(int(1) << r.IntN(3))
	if r.Float64() < 0.5+edge {
		return v
	}
	return -v
}

func TestIntervalProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	prevWidth := math.Inf(1)
	for _, n := range []int{2, 5, 10, 40, 160, 640, 2560} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = backgammonPoints(r, 0.05)
		}
		s := PointsPerGame(xs)
		if !(s.Low <= s.Mean && s.Mean <= s.High) {
			t.Errorf("n=%d: interval (%g, %g) excludes mean %g", n, s.Low, s.High, s.Mean)
		}
		lo99, hi99 := s.Interval(0.99)
		lo80, hi80 := s.Interval(0.80)
		if !(lo99 <= s.Low && s.Low <= lo80 && hi80 <= s.High && s.High <= hi99) {
			t.Errorf("n=%d: intervals not nested by level: 80%% (%g,%g) 95%% (%g,%g) 99%% (%g,%g)",
				n, lo80, hi80, s.Low, s.High, lo99, hi99)
		}
		width := s.High - s.Low
		if n >= 10 && !(width < prevWidth) {
			t.Errorf("n=%d: width %g did not shrink from %g", n, width, prevWidth)
		}
		if n >= 10 {
			prevWidth = width
		}
	}
}

func TestIntervalCoverage(t *testing.T) {
	// Simulated coverage of the 95% interval for a known mean, with small
	// samples where the t correction matters (normal z would cover ~88%
	// at n=5).
	r := rand.New(rand.NewPCG(3, 4))
	const trials = 4000
	hits := 0
	for range trials {
		xs := make([]float64, 5)
		for i := range xs {
			xs[i] = 0.7 + 2*r.NormFloat64()
		}
		s := PointsPerGame(xs)
		if s.Low <= 0.7 && 0.7 <= s.High {
			hits++
		}
	}
	cov := float64(hits) / trials
	if cov < 0.935 || cov > 0.965 {
		t.Errorf("coverage %.3f, want about 0.95", cov)
	}
}

func TestPairedReducesVariance(t *testing.T) {
	// Model: each pair's dice give luck L to the first seat; A's results
	// are skill + L in one seat and skill - L in the other. Pairing
	// cancels L exactly, leaving only the small per-game noise.
	r := rand.New(rand.NewPCG(5, 6))
	const n = 400
	pairs := make([][2]float64, n)
	var flat []float64
	for i := range pairs {
		luck := 2 * r.NormFloat64()
		pairs[i] = [2]float64{0.1 + luck + 0.2*r.NormFloat64(), 0.1 - luck + 0.2*r.NormFloat64()}
		flat = append(flat, pairs[i][0], pairs[i][1])
	}
	p := PairedPointsPerGame(pairs)
	u := PointsPerGame(flat)
	if p.Mean != u.Mean && !close(p.Mean, u.Mean, 1e-12) {
		t.Errorf("means differ: paired %g unpaired %g", p.Mean, u.Mean)
	}
	if !(p.StdErr < u.StdErr/5) {
		t.Errorf("paired stderr %g not much below unpaired %g", p.StdErr, u.StdErr)
	}
	if !(p.Low <= 0.1 && 0.1 <= p.High) {
		t.Errorf("paired interval (%g, %g) misses true mean 0.1", p.Low, p.High)
	}
}
