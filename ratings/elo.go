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
// The score s = (wins + draws/2)/n is treated as the mean of n independent
// trinomial samples (1, 1/2, 0). Its standard error uses the sample
// variance of one game, (wins + draws/4)/n - s^2, divided by n; the bounds
// are s ± z*stderr with z the normal quantile, mapped through EloFromScore.
// This is the normal approximation used by engine-testing tools such as
// cutechess-cli; it is poor for a handful of games or for scores near 0
// or 1, where a bound becomes ±Inf once the score interval leaves (0, 1).
// With no games every result is NaN.
func EloInterval(wins, losses, draws float64, level float64) (elo, low, high float64) {
	n := wins + losses + draws
	if !(n > 0) || wins < 0 || losses < 0 || draws < 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	s := (wins + draws/2) / n
	elo = EloFromScore(s)
	p := twoSidedQuantile(level)
	if math.IsNaN(p) {
		return elo, math.NaN(), math.NaN()
	}
	variance := (wins+draws/4)/n - s*s
	if variance < 0 {
		variance = 0
	}
	delta := normalQuantile(p) * math.Sqrt(variance/n)
	return elo, EloFromScore(math.Max(0, s-delta)), EloFromScore(math.Min(1, s+delta))
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
