package server

import "math"

// Standing is a player's FIBS rating and experience. Every account starts
// at 1500 and 0.
type Standing struct {
	Rating     float64
	Experience int // the sum of the lengths of the rated matches finished
}

// InitialRating is every new account's rating (its experience is 0).
const InitialRating = 1500.0

// UpsetChance is the FIBS formula's chance that the lower-rated of two
// players, D rating points apart, wins an n-point match:
// 1 / (10^(D*sqrt(n)/2000) + 1).
func UpsetChance(d float64, n int) float64 {
	return 1 / (math.Pow(10, math.Abs(d)*math.Sqrt(float64(n))/2000) + 1)
}

// experienceFactor is K = max(1, 5 - experience/100): a new player's
// rating moves up to five times as fast, an experience of 400 or more
// moves it at the plain rate.
func experienceFactor(experience int) float64 {
	return math.Max(1, 5-float64(experience)/100)
}

// Rate applies the FIBS rating formula to the winner and the loser of an
// n-point match. P is the chance the winner had of losing (the upset
// chance when the favourite won, one minus it when the underdog did);
// each player's rating moves by 4 * K * sqrt(n) * P with their own K from
// their experience before the match, up for the winner and down for the
// loser, and both gain n experience.
func Rate(winner, loser Standing, n int) (Standing, Standing) {
	upset := UpsetChance(winner.Rating-loser.Rating, n)
	p := upset
	if winner.Rating < loser.Rating {
		p = 1 - upset
	}
	step := 4 * math.Sqrt(float64(n)) * p
	winner.Rating += experienceFactor(winner.Experience) * step
	loser.Rating -= experienceFactor(loser.Experience) * step
	winner.Experience += n
	loser.Experience += n
	return winner, loser
}
