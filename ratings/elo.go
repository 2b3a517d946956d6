package ratings

import "math"

// EloFromScore returns the Elo difference implied by an expected score s
// (wins plus half the draws, divided by games) under the logistic model:
// 400*log10(s/(1-s)). A score of 0 gives -Inf, 1 gives +Inf, and a score
// outside [0, 1] gives NaN.
func EloFromScore(score float64) float64 {
	switch {
	case math.IsNaN(score) || score < 0 || score > 1:
		return math.NaN()
	case score == 0:
		return math.Inf(-1)
	case score == 1:
		return math.Inf(1)
	}
	return 400 * math.Log10(score/(1-score))
}

// ScoreFromElo is the inverse of EloFromScore: the expected score of a
// player rated elo above the opponent, 1/(1+10^(-elo/400)).
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// EloInterval estimates the Elo difference between a player and its
// opponent from wins, losses and draws (counts may be fractional), with a
// two-sided confidence interval at the given level.
//
// The score s = (wins + draws/2)/n maps to Elo through EloFromScore, so a
// player who won every game has an estimate of +Inf. The interval is
// Wilson's score interval for a proportion, ScoreInterval, mapped through
// EloFromScore. Unlike the normal approximation s ± z*stderr, which
// collapses to a point when one side won every game, Wilson's interval
// keeps a finite end inside (0, 1) at any n: twenty wins in twenty games
// give roughly +370 to +Inf at 95%, not +Inf to +Inf. With no games every
// result is NaN; with a level outside (0, 1) the bounds are NaN.
func EloInterval(wins, losses, draws float64, level float64) (elo, low, high float64) {
	n := wins + losses + draws
	if !(n > 0) || wins < 0 || losses < 0 || draws < 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	elo = EloFromScore((wins + draws/2) / n)
	lo, hi := ScoreInterval(wins+draws/2, n, level)
	return elo, EloFromScore(lo), EloFromScore(hi)
}

// ScoreInterval is Wilson's score interval for the expected score of a
// player who scored points in n games (a win 1, a draw 1/2), at the
// two-sided level: the scores p whose distance from the observed score
// is within z standard errors of p's own, sqrt(p(1-p)/n), with z the
// normal quantile:
//
//	(s + z²/2n ± z*sqrt(s(1-s)/n + z²/4n²)) / (1 + z²/n)
//
// It is chosen over the normal approximation because it never has zero
// width: at s = 0 or 1 its far end still moves with n, and its coverage
// is close to nominal down to a handful of games (Brown, Cai and
// DasGupta, "Interval estimation for a binomial proportion", Statistical
// Science 16, 2001). Draws make a game vary less than p(1-p), so with
// draws the interval errs wide. NaN bounds for n <= 0, points outside
// [0, n] or a level outside (0, 1).
func ScoreInterval(points, n, level float64) (low, high float64) {
	p := twoSidedQuantile(level)
	if math.IsNaN(p) || !(n > 0) || !(points >= 0 && points <= n) {
		return math.NaN(), math.NaN()
	}
	z := normalQuantile(p)
	s := points / n
	z2n := z * z / n
	centre := (s + z2n/2) / (1 + z2n)
	half := z * math.Sqrt(s*(1-s)/n+z2n/(4*n)) / (1 + z2n)
	low, high = max(0, centre-half), min(1, centre+half)
	// At a score of 0 or 1 the near end is exactly that score; rounding
	// would leave it a hair inside, a huge finite Elo instead of an
	// infinite one.
	switch points {
	case 0:
		low = 0
	case n:
		high = 1
	}
	return low, high
}

// LOS returns the likelihood of superiority: the probability that the
// player with the given wins is truly stronger than its opponent, given
// only decisive games (draws carry no information on which side is
// stronger and are left out).
//
// It uses the normal approximation to the posterior of wins-losses with a
// flat prior: 0.5*(1+erf((wins-losses)/sqrt(2*(wins+losses)))). With no
// decisive games it returns 0.5.
func LOS(wins, losses float64) float64 {
	n := wins + losses
	if n == 0 {
		return 0.5
	}
	if !(n > 0) || wins < 0 || losses < 0 {
		return math.NaN()
	}
	return 0.5 * (1 + math.Erf((wins-losses)/math.Sqrt(2*n)))
}
