package ratings_test

import (
	"fmt"

	"github.com/gamemill/gamemill/ratings"
)

func ExampleSPRT() {
	test := ratings.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	llr := test.LLR(3300, 4000, 3000) // wins, draws, losses
	lower, upper := test.Bounds()
	fmt.Printf("LLR %.2f in [%.2f, %.2f]: %v\n", llr, lower, upper, test.Decide(llr))
	// Output: LLR 5.32 in [-2.94, 2.94]: H1
}

func ExamplePairedPointsPerGame() {
	// A's points in each duplicate-dice pair: first seat, second seat.
	s := ratings.PairedPointsPerGame([][2]float64{{1, -1}, {2, 0}, {3, -1}, {-1, 2}})
	fmt.Printf("%.3f ppg ± %.3f over %d games (%d pairs), 95%% [%.2f, %.2f]\n",
		s.Mean, s.StdErr, s.N, s.Samples, s.Low, s.High)
	// Output: 0.625 ppg ± 0.239 over 8 games (4 pairs), 95% [-0.46, 1.71]
}

func ExampleEloInterval() {
	elo, low, high := ratings.EloInterval(60, 30, 10, 0.95)
	fmt.Printf("%+.1f Elo [%+.1f, %+.1f], LOS %.4f\n", elo, low, high, ratings.LOS(60, 30))
	// Output: +107.5 Elo [+36.6, +178.4], LOS 0.9992
}
