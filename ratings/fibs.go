package ratings

import "math"

// The FIBS rating formula, as published in the First Internet Backgammon
// Server's online help ("help formula", reproduced in the rec.games.backgammon
// FAQ and in Kevin Bastian's article "The FIBS Rating System"):
//
//	D       = |r1 - r2|
//	P_upset = 1/(10^(D*sqrt(n)/2000) + 1)       (the underdog wins an n-point match)
//	P       = P_upset if the favourite wins, 1-P_upset if the underdog wins
//	K       = max(1, 5 - experience/100)         (per player, own experience)
//	change  = 4*K*sqrt(n)*P                      (added to the winner, subtracted from the loser)
//
// Experience is the sum of the lengths of all matches a player has
// finished; players start at rating 1500 and experience 0.

// FIBSExpected returns the probability, under the FIBS rating model, that
// a player rated ratingDiff points above the opponent wins a match of
// matchLength points: 1/(1+10^(-D*sqrt(N)/2000)). The model assumes the
// per-point skill edge compounds with the square root of the match length.
// A matchLength below 1 gives NaN.
func FIBSExpected(ratingDiff float64, matchLength int) float64 {
	if matchLength < 1 {
		return math.NaN()
	}
	return 1 / (1 + math.Pow(10, -ratingDiff*math.Sqrt(float64(matchLength))/2000))
}

// FIBSUpdate returns both players' ratings after the winner beat the loser
// in a match of matchLength points, by the FIBS formula above.
//
// The base change is 4*sqrt(N)*(1-P), where P is the winner's expected
// chance of winning (FIBSExpected): a favourite that wins gains
// 4*sqrt(N)*P_upset, an underdog that wins gains 4*sqrt(N)*(1-P_upset).
// Each player's change is then multiplied by their own experience factor
// K = max(1, 5 - experience/100), so players with under 400 experience
// move up to five times as fast; the two changes need not cancel.
//
// experienceWinner and experienceLoser are the players' experience before
// this match, as in the FIBS help text (some clients, such as MacFIBS,
// include the current match: pass experience+matchLength to get that).
// Negative experience counts as 0. A matchLength below 1 leaves both
// ratings unchanged.
func FIBSUpdate(ratingWinner, ratingLoser float64, matchLength int, experienceWinner, experienceLoser int) (newWinner, newLoser float64) {
	if matchLength < 1 {
		return ratingWinner, ratingLoser
	}
	base := 4 * math.Sqrt(float64(matchLength)) * (1 - FIBSExpected(ratingWinner-ratingLoser, matchLength))
	return ratingWinner + fibsK(experienceWinner)*base, ratingLoser - fibsK(experienceLoser)*base
}

// fibsK is the FIBS experience multiplier max(1, 5 - experience/100).
func fibsK(experience int) float64 {
	if experience < 0 {
		experience = 0
	}
	return math.Max(1, 5-float64(experience)/100)
}
