package server

import "github.com/gamemill/gamemill/ratings"

// Standing is a player's FIBS rating and experience. Every account starts
// at 1500 and 0.
type Standing struct {
	Rating     float64
	Experience int // the sum of the lengths of the rated matches finished
}

// InitialRating is every new account's rating (its experience is 0).
const InitialRating = 1500.0

// Rate applies the FIBS rating formula (ratings.FIBSUpdate) to the winner
// and the loser of an n-point match: each rating moves by
// 4 * K * sqrt(n) * P with the player's own K from their experience
// before the match, up for the winner and down for the loser, and both
// gain n experience.
func Rate(winner, loser Standing, n int) (Standing, Standing) {
	winner.Rating, loser.Rating = ratings.FIBSUpdate(winner.Rating, loser.Rating, n, winner.Experience, loser.Experience)
	winner.Experience += n
	loser.Experience += n
	return winner, loser
}
