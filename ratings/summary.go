package ratings

import "math"

// Summary describes the mean of a sample of per-game results (usually
// points per game in backgammon) together with its uncertainty.
//
// The interval assumes the samples are independent and identically
// distributed. It is a Student-t interval about the mean whose variance
// has a floor, so that it stays honest at small n and at the edges:
//
//   - The variance is at least that of the sample with two more virtual
//     games, one scoring +Edge and one -Edge, where Edge is the larger of
//     the sample's root mean square and the Scale's Unit and Bound: one
//     more game at each end of the results' own scale, in the spirit of
//     Agresti and Coull's "plus four" for proportions. A sample of
//     twenty wins out of twenty is not certainty, and the floor says so;
//     where the sample has spread and a mean near 0 the floor is below
//     the sample variance and changes nothing.
//   - With a known Bound (a win-or-loss game scores +1 or -1) the interval
//     is clipped to [-Bound, Bound], since no mean lies outside, and one
//     game gives that whole range.
//   - Otherwise one game gives no interval (NaN bounds), as does none.
//
// The t quantile keeps Samples-1 degrees of freedom. Simulated coverage
// of the 95% interval at n = 4 to 16 is at least 90% for win-or-loss
// games from even to 95% wins (the lattice of a few games keeps some
// near-even cases at 92%), and at least nominal less a small margin for
// normal and backgammon-like points (summary_test.go). The floor binds
// only on samples whose spread is small beside their mean, so it errs
// wide (about 97% rather than 95% for normal data at n = 8) and leaves
// large samples with spread alone.
type Summary struct {
	// Mean is the estimated expected points per game.
	Mean float64
	// StdDev is the sample standard deviation (n-1 denominator) of one
	// independent sample, expressed per game. For PointsPerGame a sample
	// is one game; for PairedPointsPerGame it is one pair's average
	// points per game.
	StdDev float64
	// StdErr is the standard error of Mean from the sample alone:
	// StdDev/sqrt(Samples). The interval uses the larger IntervalStdErr.
	StdErr float64
	// IntervalStdErr is the standard error behind the interval: StdErr,
	// or the floor's when that is larger (see Summary). NaN with fewer
	// than two samples.
	IntervalStdErr float64
	// N is the number of games.
	N int
	// Samples is the number of independent samples behind the estimate:
	// N for PointsPerGame, the number of pairs for PairedPointsPerGame.
	// The t interval has Samples-1 degrees of freedom.
	Samples int
	// Edge is the score of the floor's two virtual games (+Edge, -Edge).
	Edge float64
	// Bound, when above 0, is the most one game can score either way;
	// the interval stays inside [-Bound, Bound].
	Bound float64
	// Low and High bound the two-sided 95% confidence interval for the
	// mean, the same as Interval(0.95).
	Low, High float64
}

// Scale is what a caller knows about one game's score, for the interval's
// floor. The zero Scale knows nothing: the floor then comes from the
// sample's own root mean square.
type Scale struct {
	// Unit is the score of the smallest decisive result (one point for a
	// single game won), so that the floor's virtual games score at least
	// that much even when every sample is 0, as when every pair of a
	// duplicate-dice sample splits.
	Unit float64
	// Bound, when above 0, is the most one game can score either way
	// (1 for a game that is won, lost or drawn): the interval is clipped
	// to [-Bound, Bound] and one game gives that whole range.
	Bound float64
}

// Interval returns the two-sided confidence interval for the mean at the
// given level (for example 0.95 or 0.99): Mean ± t*IntervalStdErr, where
// t is the (1+level)/2 quantile of Student's t distribution with
// Samples-1 degrees of freedom, clipped to [-Bound, Bound] when Bound is
// set. One sample gives [-Bound, Bound] with a Bound and NaN bounds
// without; no samples, or a level outside (0, 1), give NaN bounds.
func (s Summary) Interval(level float64) (low, high float64) {
	p := twoSidedQuantile(level)
	switch {
	case math.IsNaN(p) || s.Samples < 1:
		return math.NaN(), math.NaN()
	case s.Samples == 1 && s.Bound > 0:
		return -s.Bound, s.Bound
	case s.Samples == 1 || math.IsNaN(s.IntervalStdErr):
		return math.NaN(), math.NaN()
	}
	t := studentTQuantile(p, float64(s.Samples-1))
	low, high = s.Mean-t*s.IntervalStdErr, s.Mean+t*s.IntervalStdErr
	if s.Bound > 0 {
		low, high = max(low, -s.Bound), min(high, s.Bound)
	}
	return low, high
}

// PointsPerGame summarises the points won per game by one player (negative
// for points lost), one value per game, with the zero Scale: see
// PointsPerGameIn.
func PointsPerGame(points []float64) Summary {
	return PointsPerGameIn(points, Scale{})
}

// PointsPerGameIn summarises the points won per game by one player
// (negative for points lost), one value per game, with what sc says of a
// game's score.
//
// It estimates the player's expected points per game, assuming games are
// independent draws from one distribution. Games with swapped seats and
// the same dice are not independent; use PairedPointsPerGameIn for those.
// With no games every float field is NaN; with one game Mean and Edge are
// set, and the interval is [-Bound, Bound] with a Bound, NaN without.
func PointsPerGameIn(points []float64, sc Scale) Summary {
	return summarize(points, len(points), sc)
}

// PairedPointsPerGame is PairedPointsPerGameIn with the zero Scale.
func PairedPointsPerGame(pairs [][2]float64) Summary {
	return PairedPointsPerGameIn(pairs, Scale{})
}

// PairedPointsPerGameIn summarises duplicate-dice results. Each pair holds
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
// The floor's virtual samples are pairs averaging +Edge and -Edge.
func PairedPointsPerGameIn(pairs [][2]float64, sc Scale) Summary {
	per := make([]float64, len(pairs))
	for i, p := range pairs {
		per[i] = (p[0] + p[1]) / 2
	}
	return summarize(per, 2*len(pairs), sc)
}

// summarize computes a Summary of independent samples xs that stand for
// games games.
func summarize(xs []float64, games int, sc Scale) Summary {
	nan := math.NaN()
	s := Summary{Mean: nan, StdDev: nan, StdErr: nan, IntervalStdErr: nan, Low: nan, High: nan, N: games, Samples: len(xs),
		Bound: max(sc.Bound, 0), Edge: nan}
	n := len(xs)
	if n == 0 {
		return s
	}
	// Two passes: the mean first, then squared deviations from it, which
	// avoids the cancellation of the sum-of-squares formula.
	var sum, squares float64
	for _, x := range xs {
		sum += x
		squares += x * x
	}
	mean := sum / float64(n)
	s.Mean = mean
	s.Edge = max(math.Sqrt(squares/float64(n)), sc.Unit, s.Bound)
	if n < 2 {
		s.Low, s.High = s.Interval(0.95)
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
	ss = max(ss-comp*comp/float64(n), 0)
	variance := ss / float64(n-1)
	s.StdDev = math.Sqrt(variance)
	s.StdErr = s.StdDev / math.Sqrt(float64(n))
	s.IntervalStdErr = math.Sqrt(max(variance, floorVariance(n, mean, ss, s.Edge)) / float64(n))
	s.Low, s.High = s.Interval(0.95)
	return s
}

// floorVariance is the sample variance of n samples with mean m and sum of
// squared deviations ss after two more samples, +edge and -edge, are
// added: their mean is n*m/(n+2), and the n real samples move by
// m - n*m/(n+2) each.
func floorVariance(n int, m, ss, edge float64) float64 {
	nf := float64(n)
	m2 := nf * m / (nf + 2)
	ss2 := ss + nf*(m-m2)*(m-m2) + (edge-m2)*(edge-m2) + (edge+m2)*(edge+m2)
	return ss2 / (nf + 1)
}
