package ratings

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPointsPerGameHandComputed(t *testing.T) {
	// -1.5 .. 2.5 by 1: mean 0.5, variance 2.5, stderr sqrt(0.5),
	// t(0.975, 4) = 2.776445. The floor (two more games at +-1.5, the
	// root mean square) gives a variance of 14.857/6 < 2.5: inactive.
	s := PointsPerGame([]float64{-1.5, -0.5, 0.5, 1.5, 2.5})
	want := Summary{
		Mean: 0.5, StdDev: math.Sqrt(2.5), StdErr: math.Sqrt(0.5), N: 5, Samples: 5,
		Low: 0.5 - 2.7764451052*math.Sqrt(0.5), High: 0.5 + 2.7764451052*math.Sqrt(0.5),
	}
	checkSummary(t, s, want)
	if s.IntervalStdErr != s.StdErr || s.Edge != 1.5 {
		t.Errorf("IntervalStdErr %g, Edge %g; want StdErr %g and 1.5", s.IntervalStdErr, s.Edge, s.StdErr)
	}

	// 99% with t(0.995, 4) = 4.604095.
	lo, hi := s.Interval(0.99)
	if !close(lo, 0.5-4.6040948713*math.Sqrt(0.5), 1e-8) || !close(hi, 0.5+4.6040948713*math.Sqrt(0.5), 1e-8) {
		t.Errorf("Interval(0.99) = (%g, %g)", lo, hi)
	}
}

func TestPairedPointsPerGameHandComputed(t *testing.T) {
	// Pair sums 0, 2, 2 -> per-game 0, 1, 1: mean 2/3, variance 1/3,
	// stderr 1/3. The floor is active: with two more pairs at +-sqrt(2/3)
	// (the root mean square) the mean is 2/5 and the squared deviations
	// sum to 2/3 + 3(4/15)^2 + 2(2/3) + 2(2/5)^2 = 2.5333, a variance of
	// 19/30 over 4; IntervalStdErr = sqrt(19/90), t(0.975, 2) = 4.302653.
	s := PairedPointsPerGame([][2]float64{{1, -1}, {2, 0}, {3, -1}})
	se := math.Sqrt(19.0 / 90)
	want := Summary{
		Mean: 2.0 / 3, StdDev: math.Sqrt(1.0 / 3), StdErr: 1.0 / 3, N: 6, Samples: 3,
		Low: 2.0/3 - 4.3026527297*se, High: 2.0/3 + 4.3026527297*se,
	}
	checkSummary(t, s, want)
	if !close(s.IntervalStdErr, se, 1e-12) {
		t.Errorf("IntervalStdErr = %.12g, want %.12g", s.IntervalStdErr, se)
	}
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
	for _, level := range []float64{0, 1, -0.5, 2, math.NaN()} {
		if lo, hi := PointsPerGame([]float64{1, 2, 3}).Interval(level); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("Interval(%g) = (%g, %g), want NaN", level, lo, hi)
		}
	}
}

// TestIntervalAtSmallN covers n = 1, 2 and 4 with and without a known
// bound: one game gives the whole possible range or no interval, never
// NaN beside a bound, and a sample without spread never a point.
func TestIntervalAtSmallN(t *testing.T) {
	winLoss := Scale{Unit: 1, Bound: 1}
	// One game.
	if s := PointsPerGameIn([]float64{1}, winLoss); s.Mean != 1 || s.Low != -1 || s.High != 1 {
		t.Errorf("one win of a win-or-loss game: %+v, want the range -1 to +1", s)
	}
	if s := PointsPerGame([]float64{2}); s.Mean != 2 || !math.IsNaN(s.StdDev) || !math.IsNaN(s.Low) || !math.IsNaN(s.High) {
		t.Errorf("one game, no bound: %+v, want no interval", s)
	}
	// Two games, one each way: the t interval with 1 degree of freedom
	// reaches past the bound, so it is the whole range.
	if s := PointsPerGameIn([]float64{1, -1}, winLoss); s.Mean != 0 || s.Low != -1 || s.High != 1 {
		t.Errorf("a win and a loss: %+v", s)
	}
	// Two wins: still the whole range at n = 2 (t(0.975, 1) = 12.7).
	if s := PointsPerGameIn([]float64{1, 1}, winLoss); s.Low != -1 || s.High != 1 {
		t.Errorf("two wins: %+v", s)
	}
	// Four losses: the floor is the variance of {-1 x4, +1, -1}:
	// mean -2/3, squared deviations 5(1/3)^2 + (5/3)^2 = 10/3, over 5
	// 2/3; stderr sqrt(2/3/4), t(0.975, 3) = 3.182446.
	s := PointsPerGameIn([]float64{-1, -1, -1, -1}, winLoss)
	half := 3.1824463053 * math.Sqrt(2.0/3/4)
	if s.Mean != -1 || s.StdDev != 0 || s.Low != -1 || !close(s.High, -1+half, 1e-8) {
		t.Errorf("four losses: %+v, want -1 to %.6f", s, -1+half)
	}
	// Four games of the same points, no bound: the floor's games are at
	// +-1 (the root mean square), and the interval is not clipped.
	s = PointsPerGame([]float64{1, 1, 1, 1})
	if !close(s.Low, 1-half, 1e-8) || !close(s.High, 1+half, 1e-8) {
		t.Errorf("four equal games, no bound: (%g, %g), want 1 -+ %.6f", s.Low, s.High, half)
	}
	// Four pairs, each split: every sample is 0, so the spread comes from
	// the unit: pairs averaging +-1.
	s = PairedPointsPerGameIn([][2]float64{{1, -1}, {-1, 1}, {1, -1}, {-1, 1}}, winLoss)
	if s.Mean != 0 || !(s.High-s.Low > 1) || s.Low != -s.High {
		t.Errorf("four split pairs: %+v, want a wide interval about 0", s)
	}
	// Without a unit or bound, samples all 0 show no spread at all.
	if s := PointsPerGame([]float64{0, 0, 0}); s.Low != 0 || s.High != 0 {
		t.Errorf("all zero, nothing known: (%g, %g)", s.Low, s.High)
	}
}

// TestIntervalAllWins: twenty wins in twenty win-or-loss games (the
// README's main job as it was: "+1.000 to +1.000") is not certainty.
func TestIntervalAllWins(t *testing.T) {
	xs := make([]float64, 20)
	for i := range xs {
		xs[i] = 1
	}
	s := PointsPerGameIn(xs, Scale{Unit: 1, Bound: 1})
	if s.Mean != 1 || s.High != 1 || !(s.Low < 0.85) || !(s.Low > 0.5) {
		t.Errorf("20 of 20: %+v, want about +0.8 to +1", s)
	}
	// Paired: twenty pairs won twice.
	pairs := make([][2]float64, 20)
	for i := range pairs {
		pairs[i] = [2]float64{1, 1}
	}
	p := PairedPointsPerGameIn(pairs, Scale{Unit: 1, Bound: 1})
	if p.Low != s.Low || p.High != 1 {
		t.Errorf("20 pairs won twice: (%g, %g), want (%g, 1)", p.Low, p.High, s.Low)
	}
	// More wins, a narrower interval, always below +1.
	prev := s.Low
	for _, n := range []int{40, 160, 640} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 1
		}
		s := PointsPerGameIn(xs, Scale{Unit: 1, Bound: 1})
		if !(s.Low > prev && s.Low < 1) {
			t.Errorf("%d of %d: low %g, want in (%g, 1)", n, n, s.Low, prev)
		}
		prev = s.Low
	}
	// Wilson's score interval for the same: never zero width either.
	lo, hi := ScoreInterval(20, 20, 0.95)
	if hi != 1 || !(lo > 0.8 && lo < 0.9) {
		t.Errorf("ScoreInterval(20, 20) = (%g, %g), want about (0.84, 1)", lo, hi)
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

// TestIntervalCoverage simulates the 95% interval's coverage of a known
// mean at small n: win-or-loss games near even and near the edges (where
// a plain t interval collapses on samples of all wins), normal points
// (where the t correction matters: z would cover about 88% at n = 5) and
// backgammon-like points. Coverage must be at least nominal less a margin
// for the lattice of small discrete samples; the floor may make it
// higher.
func TestIntervalCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const trials = 1000
	coverage := func(n int, mean float64, sc Scale, draw func() float64) float64 {
		hits := 0
		xs := make([]float64, n)
		for range trials {
			for i := range xs {
				xs[i] = draw()
			}
			if s := PointsPerGameIn(xs, sc); s.Low <= mean && mean <= s.High {
				hits++
			}
		}
		return float64(hits) / trials
	}
	// A backgammon-like game's expected |points|: 1.29 for the game's
	// kind times 7/3 for the cube.
	bgMean := func(edge float64) float64 { return 2 * edge * (0.75 + 2*0.23 + 3*0.02) * 7 / 3 }
	for _, n := range []int{4, 8, 16} {
		for _, p := range []float64{0.5, 0.8, 0.95} {
			c := coverage(n, 2*p-1, Scale{Unit: 1, Bound: 1}, func() float64 {
				if r.Float64() < p {
					return 1
				}
				return -1
			})
			if c < 0.90 {
				t.Errorf("win or loss, P(win) %.2f, n %d: coverage %.3f", p, n, c)
			}
		}
		for _, mu := range []float64{0, 0.7, 3} {
			if c := coverage(n, mu, Scale{}, func() float64 { return mu + 2*r.NormFloat64() }); c < 0.93 {
				t.Errorf("normal, mean %.1f, n %d: coverage %.3f", mu, n, c)
			}
		}
		for _, edge := range []float64{0, 0.2, 0.45} {
			if c := coverage(n, bgMean(edge), Scale{Unit: 1}, func() float64 { return backgammonPoints(r, edge) }); c < 0.90 {
				t.Errorf("backgammon-like, edge %.2f, n %d: coverage %.3f", edge, n, c)
			}
		}
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
