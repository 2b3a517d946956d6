package analysis

import (
	"math"
	"testing"
)

func TestLabels(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want string
	}{
		{0, "Supernatural"}, {0.0019, "Supernatural"}, {0.002, "World Class"}, {0.0049, "World Class"},
		{0.005, "Expert"}, {0.008, "Advanced"}, {0.012, "Intermediate"}, {0.018, "Casual Player"},
		{0.026, "Beginner"}, {0.0349, "Beginner"}, {0.035, "Awful!"}, {1, "Awful!"}, {math.NaN(), ""},
	} {
		if got := RatingLabel(c.rate); got != c.want {
			t.Errorf("RatingLabel(%v) = %q, want %q", c.rate, got, c.want)
		}
	}
	for _, c := range []struct {
		rate float64
		want string
	}{
		{0.11, "Cheater :-)"}, {0.07, "Go to Las Vegas immediately"}, {0.03, "Good dice, man!"}, {0, "None"},
		{-0.02, "None"}, {-0.03, "Better luck next time"}, {-0.07, "Go to bed"}, {-0.2, "Haaa-haaa"}, {math.NaN(), ""},
	} {
		if got := LuckLabel(c.rate); got != c.want {
			t.Errorf("LuckLabel(%v) = %q, want %q", c.rate, got, c.want)
		}
	}
}

// The manual's formulas, worked by hand for a 5-point match.
func TestRatingFormulas(t *testing.T) {
	// a2(5) = 8798 + 5105.2 = 13903.2, b(5) = 863 - 103.8 = 759.2.
	if got, want := AbsoluteRating(0.010, 0.020, 5), 2050-139.032-15.184; math.Abs(got-want) > 1e-9 {
		t.Errorf("AbsoluteRating = %v, want %v", got, want)
	}
	if got := AbsoluteRating(0, 0, 7); got != PerfectRating {
		t.Errorf("perfect play rated %v", got)
	}
	if got, want := RatingDifference(0.005, 0, 0.010, 0, 5), 13903.2*0.005; math.Abs(got-want) > 1e-9 {
		t.Errorf("RatingDifference = %v, want %v", got, want)
	}
	// a(5) = 11971 + 4736.2.
	if got, want := SingleRateDifference(0.004, 0.010, 5), 16707.2*0.006; math.Abs(got-want) > 1e-9 {
		t.Errorf("SingleRateDifference = %v, want %v", got, want)
	}
	// Winning 60% of 5-point matches is log10(1.5)*2000/sqrt(5) points.
	if got, want := LuckBasedRatingDifference(0.6, 5), 2000*math.Log10(1.5)/math.Sqrt(5); math.Abs(got-want) > 1e-9 {
		t.Errorf("LuckBasedRatingDifference = %v, want %v", got, want)
	}
	if !math.IsNaN(AbsoluteRating(0.01, 0.01, 0)) {
		t.Error("a rating estimate for money play")
	}
}
