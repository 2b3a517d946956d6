package ratings

import "math"

// Summary describes the mean of a sample of per-game results (usually
// points per game in backgammon) together with its uncertainty.
//
// The interval fields assume the samples are independent and identically
// distributed, and that their mean is close enough to normal for a
// Student-t interval: exact for normal data, and by the central limit
// theorem a good approximation for the bounded per-game points of
// backgammon once there are a few dozen samples.
type Summary struct {
	// Mean is the estimated expected points per game.
	Mean float64
	// StdDev is the sample standard deviation (n-1 denominator) of one
	// independent sample, expressed per game. For PointsPerGame a sample
	// is one game; for PairedPointsPerGame it is one pair's average
	// points per game.
	StdDev float64
	// StdErr is the standard error of Mean: StdDev/sqrt(Samples).
	StdErr float64
	// N is the number of games.
	N int
	// Samples is the number of independent samples behind the estimate:
	// N for PointsPerGame, the number of pairs for PairedPointsPerGame.
	// The t interval has Samples-1 degrees of freedom.
	Samples int
	// Low and High bound the two-sided 95% confidence interval for the
	// mean, the same as Interval(0.95).
	Low, High float64
}

// Interval returns the two-sided confidence interval for the mean at the
// given level (for example 0.95 or 0.99): Mean ± t*StdErr, where t is the
// (1+level)/2 quantile of Student's t distribution with Samples-1 degrees
// of freedom. With fewer than two samples, or a level outside (0, 1), both
// bounds are NaN. When every sample is equal the interval collapses to the
// mean: the data carry no evidence of spread, which for small samples
// understates the real uncertainty.
func (s Summary) Interval(level float64) (low, high float64) {
	p := twoSidedQuantile(level)
	if s.Samples < 2 || math.IsNaN(p) || math.IsNaN(s.StdErr) {
		return math.NaN(), math.NaN()
	}
	t := studentTQuantile(p, float64(s.Samples-1))
	return s.Mean - t*s.StdErr, s.Mean + t*s.StdErr
}

// PointsPerGame summarises the points won per game by one player (negative
// for points lost), one value per game.
//
// It estimates the player's expected points per game, assuming games are
// independent draws from one distribution. Games with swapped seats and
// the same dice are not independent; use PairedPointsPerGame for those.
// With no games every float field is NaN; with one game only Mean is set.
func PointsPerGame(points []float64) Summary {
	return summarize(points, len(points))
}

// PairedPointsPerGame summarises duplicate-dice results. Each pair holds
// the points player A won in two games played with the same dice sequence,
// once in each seat: pair[0] with A in the first seat, pair[1] with A in
// the second. Points are from A's point of view (negative when A lost).
//
// The pair's sum is one independent sample; the mean points per game is
// mean(pair sums)/2. Because both games see the same dice, most of the
// luck cancels inside a pair: a lucky roll sequence that helps A in one
// seat helps the opponent in the other. The variance of a pair sum is
// therefore usually far smaller than twice the variance of a single game,
// which gives a much narrower interval for the same number of games. The
// price is that the two games of a pair are correlated, so the pair, not
// the game, is the unit of independence: the t interval uses pairs-1
// degrees of freedom.
//
// StdDev is the standard deviation of pair sum/2 (a pair's average points
// per game), so StdErr = StdDev/sqrt(pairs). N counts games (2 per pair).
func PairedPointsPerGame(pairs [][2]float64) Summary {
	per := make([]float64, len(pairs))
	for i, p := range pairs {
		per[i] = (p[0] + p[1]) / 2
	}
	return summarize(per, 2*len(pairs))
}

// summarize computes a Summary of independent samples xs that stand for
// games games.
func summarize(xs []float64, games int) Summary {
	nan := math.NaN()
	s := Summary{Mean: nan, StdDev: nan, StdErr: nan, Low: nan, High: nan, N: games, Samples: len(xs)}
	n := len(xs)
	if n == 0 {
		return s
	}
	// Two passes: the mean first, then squared deviations from it, which
	// avoids the cancellation of the sum-of-squares formula.
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	s.Mean = mean
	if n < 2 {
		return s
	}
	var ss, comp float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
		comp += d
	}
	// comp corrects for rounding in mean (Chan, Golub & LeVeque's
	// corrected two-pass algorithm).
	variance := (ss - comp*comp/float64(n)) / float64(n-1)
	if variance < 0 {
		variance = 0
	}
	s.StdDev = math.Sqrt(variance)
	s.StdErr = s.StdDev / math.Sqrt(float64(n))
	s.Low, s.High = s.Interval(0.95)
	return s
}
