package analysis

import "math"

// The rating labels and luck labels of GNU Backgammon's manual (gnubg 1.07,
// /usr/share/doc/gnubg/gnubg.html, section "Overall rating", "Threshold for
// ratings", and section "Luck analysis", "Luck ratings"). The thresholds are
// on the normalised error (luck) rate per decision (move) in EMG, not mEMG.

// ratingThresholds[i] is the upper end (exclusive) of ratingLabels[i].
var ratingThresholds = [...]float64{0.002, 0.005, 0.008, 0.012, 0.018, 0.026, 0.035}

var ratingLabels = [...]string{
	"Supernatural", "World Class", "Expert", "Advanced", "Intermediate",
	"Casual Player", "Beginner", "Awful!",
}

// RatingLabel names the standard of play of a normalised error rate per
// decision in EMG (0.004 is World Class): gnubg's manual's table, from
// Supernatural (below 0.002) to Awful! (0.035 and above). A NaN rate (no
// decisions) gives "".
func RatingLabel(errorRateEMG float64) string {
	if math.IsNaN(errorRateEMG) {
		return ""
	}
	for i, t := range ratingThresholds {
		if errorRateEMG < t {
			return ratingLabels[i]
		}
	}
	return ratingLabels[len(ratingLabels)-1]
}

// LuckLabel names a normalised luck rate per move in EMG by the manual's
// table: above 0.10 "Cheater :-)", 0.06 to 0.10 "Go to Las Vegas
// immediately", 0.02 to 0.06 "Good dice, man!", -0.02 to 0.02 "None",
// -0.06 to -0.02 "Better luck next time", -0.10 to -0.06 "Go to bed",
// below -0.10 "Haaa-haaa". A NaN rate gives "".
func LuckLabel(luckRateEMG float64) string {
	r := luckRateEMG
	switch {
	case math.IsNaN(r):
		return ""
	case r > 0.10:
		return "Cheater :-)"
	case r > 0.06:
		return "Go to Las Vegas immediately"
	case r > 0.02:
		return "Good dice, man!"
	case r >= -0.02:
		return "None"
	case r >= -0.06:
		return "Better luck next time"
	case r >= -0.10:
		return "Go to bed"
	}
	return "Haaa-haaa"
}

// Roll labels by the luck of one roll in EMG, as the manual marks them:
// above 0.6 very lucky, 0.3 to 0.6 lucky, below -0.3 unlucky, below -0.6
// very unlucky.
const (
	LuckyThreshold     = 0.3
	VeryLuckyThreshold = 0.6
)

// PerfectRating is the FIBS rating given to error-free play by
// AbsoluteRating: gnubg's default rating offset (the "Error based abs. FIBS
// rating" it prints for a player with no errors is 2050.0).
const PerfectRating = 2050

// ChequerRatingFactor is a2(N) = 8798 + 25526/N, the FIBS rating points one
// EMG of chequer error per unforced move costs in an N-point match (Kees
// van den Doel's fit, as gnubg uses it).
func ChequerRatingFactor(n int) float64 { return 8798 + 25526/float64(n) }

// CubeRatingFactor is b(N) = 863 - 519/N, the FIBS rating points one EMG
// of cube error per close cube decision costs in an N-point match.
func CubeRatingFactor(n int) float64 { return 863 - 519/float64(n) }

// SingleRateFactor is a(N) = 11971 + 23681/N, the FIBS rating points one
// EMG of overall error per decision costs (the one-rate form of the fit).
func SingleRateFactor(n int) float64 { return 11971 + 23681/float64(n) }

// AbsoluteRating estimates a player's FIBS rating from its error rates in
// an n-point match: PerfectRating - a2(N)*EPM - b(N)*EPC, with EPM the
// normalised chequer error per unforced move and EPC the normalised cube
// error per close cube decision, both in EMG. NaN for n < 1. A NaN rate
// (no decisions of that kind) counts as no error, as gnubg counts it.
func AbsoluteRating(epm, epc float64, n int) float64 {
	if n < 1 {
		return math.NaN()
	}
	if math.IsNaN(epm) {
		epm = 0
	}
	if math.IsNaN(epc) {
		epc = 0
	}
	return PerfectRating - ChequerRatingFactor(n)*epm - CubeRatingFactor(n)*epc
}

// RatingDifference is the rating of player A minus that of player B from
// their error rates: a2(N)*(EPM_B-EPM_A) + b(N)*(EPC_B-EPC_A).
func RatingDifference(epmA, epcA, epmB, epcB float64, n int) float64 {
	return AbsoluteRating(epmA, epcA, n) - AbsoluteRating(epmB, epcB, n)
}

// SingleRateDifference is the rating of A minus that of B by the one-rate
// form R = a(N)*DEPD, DEPD being B's overall error per decision minus A's
// (EMG).
func SingleRateDifference(epdA, epdB float64, n int) float64 {
	if n < 1 {
		return math.NaN()
	}
	return SingleRateFactor(n) * (epdB - epdA)
}

// LuckBasedRatingDifference is the FIBS rating difference implied by a
// match winning chance r of player A (for example 0.5 plus A's
// luck-adjusted result in match winning chance) in an n-point match, by
// inverting the FIBS formula: -2000/sqrt(N)*log10(1/r - 1). r is clamped
// into [0.001, 0.999].
func LuckBasedRatingDifference(r float64, n int) float64 {
	if n < 1 || math.IsNaN(r) {
		return math.NaN()
	}
	r = min(max(r, 0.001), 0.999)
	return -2000 / math.Sqrt(float64(n)) * math.Log10(1/r-1)
}
