package ratings

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func games(a, b string, wins, losses, draws int, first, length int) []Game {
	var g []Game
	for range wins {
		g = append(g, Game{A: a, B: b, Score: 1, First: first, MatchLength: length})
	}
	for range losses {
		g = append(g, Game{A: a, B: b, Score: 0, First: first, MatchLength: length})
	}
	for range draws {
		g = append(g, Game{A: a, B: b, Score: 0.5, First: first, MatchLength: length})
	}
	return g
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %.6g, want %.6g (within %g)", what, got, want, tol)
	}
}

// Two players: the maximum-likelihood difference is the Elo of the score,
// its variance (400/ln10)^2/(n p (1-p)).
func TestFitTwoPlayers(t *testing.T) {
	tab, err := FitBradleyTerry(games("a", "b", 30, 10, 0, -1, 0), FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tab.Rating("a")
	b, _ := tab.Rating("b")
	near(t, "a-b", a.Rating-b.Rating, 400*math.Log10(3), 1e-6)
	near(t, "mean", a.Rating+b.Rating, 0, 1e-9)
	sd := eloPerNat / math.Sqrt(40*0.75*0.25)
	near(t, "stderr of a", a.StdErr, sd/2, 1e-6)
	near(t, "cov(a,b)", tab.Cov[0][1], -sd*sd/4, 1e-6)
	near(t, "LOS(a>b)", tab.LOS[0][1], normalCDF((a.Rating-b.Rating)/sd), 1e-9)
	near(t, "LOS(b>a)", tab.LOS[1][0], 1-tab.LOS[0][1], 1e-12)
	if tab.Players[0].Player != "a" || a.Games != 40 || a.Score != 30 || b.Score != 10 {
		t.Errorf("table %+v", tab.Players)
	}
	near(t, "interval", a.High-a.Rating, 1.959963984540054*a.StdErr, 1e-9)
	if !math.IsNaN(tab.Advantage) || !math.IsNaN(tab.DrawElo) {
		t.Errorf("advantage %v, draw %v: neither was fitted", tab.Advantage, tab.DrawElo)
	}
}

// The FIBS relation: winning 60% of 5-point matches is a difference D with
// D*sqrt(5)/2000 = log10(1.5); matches of 1 and 9 points combine.
func TestFitMatchLengths(t *testing.T) {
	tab, err := FitBradleyTerry(games("a", "b", 6, 4, 0, -1, 5), FitOptions{Anchor: "b", AnchorRating: 1500})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tab.Rating("a")
	b, _ := tab.Rating("b")
	near(t, "a", a.Rating, 1500+2000*math.Log10(1.5)/math.Sqrt(5), 1e-6)
	near(t, "anchored b", b.Rating, 1500, 0)
	near(t, "anchored b's stderr", b.StdErr, 0, 0)
	if FIBSExpected(a.Rating-b.Rating, 5) < 0.6-1e-9 || FIBSExpected(a.Rating-b.Rating, 5) > 0.6+1e-9 {
		t.Errorf("FIBSExpected disagrees: %v", FIBSExpected(a.Rating-b.Rating, 5))
	}
	// The same difference predicts 1- and 9-point results; games drawn
	// at those rates give it back.
	d := 150.0
	p1, p9 := FIBSExpected(d, 1), FIBSExpected(d, 9)
	var g []Game
	g = append(g, Game{A: "a", B: "b", Score: p1, First: -1, MatchLength: 1})
	g = append(g, Game{A: "a", B: "b", Score: p9, First: -1, MatchLength: 9})
	tab, err = FitBradleyTerry(g, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ = tab.Rating("a")
	b, _ = tab.Rating("b")
	near(t, "a-b from 1- and 9-point matches", a.Rating-b.Rating, d, 1e-6)
}

// Rao-Kupper with two players has a closed form: P(win) = W/n and
// P(loss) = L/n, so u = logit(W/n), v = logit(L/n), the difference is
// (u-v)/2 and the draw parameter -(u+v)/2, in natural units.
func TestFitDraws(t *testing.T) {
	tab, err := FitBradleyTerry(games("a", "b", 20, 10, 15, -1, 0), FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	u, v := logit(20.0/45), logit(10.0/45)
	a, _ := tab.Rating("a")
	b, _ := tab.Rating("b")
	near(t, "a-b", a.Rating-b.Rating, eloPerNat*(u-v)/2, 1e-6)
	near(t, "draw elo", tab.DrawElo, -eloPerNat*(u+v)/2, 1e-6)
	if a.Score != 27.5 {
		t.Errorf("a's score %v, want 27.5", a.Score)
	}
}

// The first-move advantage, fitted from games where each side moves first
// half the time: a wins 15-5 moving first and 10-10 moving second.
func TestFitAdvantage(t *testing.T) {
	var g []Game
	g = append(g, games("a", "b", 15, 5, 0, 0, 0)...)
	g = append(g, games("a", "b", 10, 10, 0, 1, 0)...)
	tab, err := FitBradleyTerry(g, FitOptions{Advantage: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tab.Rating("a")
	b, _ := tab.Rating("b")
	// logit(3/4) = diff + adv and logit(1/2) = diff - adv in Elo.
	e75 := 400 * math.Log10(3)
	near(t, "a-b", a.Rating-b.Rating, e75/2, 1e-6)
	near(t, "advantage", tab.Advantage, e75/2, 1e-6)
	if !(tab.AdvantageStdErr > 0) {
		t.Errorf("advantage stderr %v", tab.AdvantageStdErr)
	}
}

// With one virtual draw per player against a player rated 0, the fit is
// the minorization-maximization oracle's (its prior), ratings and
// standard errors.
func TestFitPriorMatchesMM(t *testing.T) {
	results := []pairResult{
		{A: "a", B: "b", WinsA: 7, WinsB: 3, Draws: 2},
		{A: "b", B: "c", WinsA: 6, WinsB: 5},
		{A: "a", B: "c", WinsA: 9, WinsB: 1},
	}
	old, err := mmBradleyTerry([]string{"a", "b", "c"}, results, 0)
	if err != nil {
		t.Fatal(err)
	}
	var g []Game
	for _, r := range results {
		// Without the draw model a draw is half a win and half a loss,
		// as BradleyTerry scores it.
		g = append(g, games(r.A, r.B, int(r.WinsA), int(r.WinsB), 0, -1, 0)...)
		for range int(r.Draws) {
			g = append(g, Game{A: r.A, B: r.B, Score: 0.499999999999, First: -1})
		}
	}
	tab, err := FitBradleyTerry(g, FitOptions{Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range old {
		r, _ := tab.Rating(o.Player)
		near(t, o.Player+" rating", r.Rating, o.Elo, 1e-6)
		near(t, o.Player+" stderr", r.StdErr, o.StdErr, 1e-6)
	}
}

func TestFitErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		g    []Game
		opts FitOptions
	}{
		"none":         {nil, FitOptions{}},
		"self":         {[]Game{{A: "a", B: "a", Score: 1}}, FitOptions{}},
		"empty name":   {[]Game{{A: "", B: "a", Score: 1}}, FitOptions{}},
		"score":        {[]Game{{A: "a", B: "b", Score: 2}}, FitOptions{}},
		"first":        {[]Game{{A: "a", B: "b", Score: 1, First: 2}}, FitOptions{}},
		"length":       {[]Game{{A: "a", B: "b", Score: 1, MatchLength: -1}}, FitOptions{}},
		"sweep":        {games("a", "b", 5, 0, 0, -1, 0), FitOptions{}},
		"disconnected": {append(games("a", "b", 5, 5, 0, -1, 0), games("c", "d", 5, 5, 0, -1, 0)...), FitOptions{}},
		"anchor":       {games("a", "b", 5, 5, 0, -1, 0), FitOptions{Anchor: "z"}},
		"draw score":   {append(games("a", "b", 5, 5, 1, -1, 0), Game{A: "a", B: "b", Score: 0.3}), FitOptions{}},
		"level":        {games("a", "b", 5, 5, 0, -1, 0), FitOptions{Level: 1.5}},
	} {
		if _, err := FitBradleyTerry(tc.g, tc.opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A prior makes a sweep finite.
	if tab, err := FitBradleyTerry(games("a", "b", 5, 0, 0, -1, 0), FitOptions{Prior: 2}); err != nil || !(tab.Players[0].Rating > 0) {
		t.Errorf("sweep with a prior: %v", err)
	}
}

// simulateTournament plays an all-play-all between players of known
// strength: every pair meets in rounds games of mixed match lengths, with
// the first move alternating and worth adv rating points.
func simulateTournament(rng *rand.Rand, truth []float64, rounds int, adv float64) []Game {
	lengths := []int{1, 3, 5, 7, 11}
	var g []Game
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			for r := range rounds {
				first := r % 2
				d := truth[i] - truth[j]
				if first == 0 {
					d += adv
				} else {
					d -= adv
				}
				n := lengths[rng.IntN(len(lengths))]
				score := 0.0
				if rng.Float64() < FIBSExpected(d, n) {
					score = 1
				}
				g = append(g, Game{A: simNames[i], B: simNames[j], First: first, Score: score, MatchLength: n})
			}
		}
	}
	return g
}

// Coverage: over simulated tournaments between players of known strength,
// the 95% intervals cover the true (mean-centred) ratings about 95% of the
// time. With 1,000 tournaments of 6 players (6,000 intervals) the
// binomial standard error of the fraction is 0.28%, so 93-97% is a wide
// margin; -short runs 200.
func TestFitCoverage(t *testing.T) {
	tournaments := 1000
	if testing.Short() {
		tournaments = 200
	}
	truth := []float64{-180, -70, -20, 30, 90, 150} // FIBS points; mean 0
	rng := rand.New(rand.NewPCG(2026, 11))
	covered, total := 0, 0
	advCovered := 0
	for range tournaments {
		g := simulateTournament(rng, truth, 24, 40)
		tab, err := FitBradleyTerry(g, FitOptions{Advantage: true})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range truth {
			p, _ := tab.Rating(simNames[i])
			if p.Low <= r && r <= p.High {
				covered++
			}
			total++
		}
		if math.Abs(tab.Advantage-40) <= 1.959963984540054*tab.AdvantageStdErr {
			advCovered++
		}
	}
	frac := float64(covered) / float64(total)
	t.Logf("95%% intervals covering the true rating: %d of %d (%.2f%%); advantage: %d of %d",
		covered, total, 100*frac, advCovered, tournaments)
	lo, hi := 0.93, 0.97
	if testing.Short() {
		lo, hi = 0.92, 0.98
	}
	if frac < lo || frac > hi {
		t.Errorf("coverage %.4f outside [%v, %v]", frac, lo, hi)
	}
}

var simNames = []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}

func BenchmarkFitBradleyTerry(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := simulateTournament(rng, []float64{-180, -70, -20, 30, 90, 150}, 24, 40)
	b.ResetTimer()
	for b.Loop() {
		if _, err := FitBradleyTerry(g, FitOptions{Advantage: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// An all-draw tournament used to fail with "no convergence"; it now says why.
func TestFitAllDraws(t *testing.T) {
	games := []Game{{A: "a", B: "b", Score: 0.5, First: -1}, {A: "b", B: "a", Score: 0.5, First: -1}}
	if _, err := FitBradleyTerry(games, FitOptions{}); err == nil || !strings.Contains(err.Error(), "all 2 games are draws") {
		t.Errorf("all draws: %v", err)
	}
}

// DrawsAsHalf (Ordo's convention): a draw is half a win and half a loss,
// so two players' difference is the Elo of the score and no draw
// parameter is fitted; by default the same games fit the draw model.
func TestFitDrawsAsHalf(t *testing.T) {
	g := games("a", "b", 6, 2, 4, -1, 0)
	tab, err := FitBradleyTerry(g, FitOptions{DrawsAsHalf: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tab.Rating("a")
	b, _ := tab.Rating("b")
	near(t, "a-b", a.Rating-b.Rating, 400*math.Log10(2), 1e-6) // 8 of 12
	near(t, "stderr of a", a.StdErr, eloPerNat/math.Sqrt(12*2.0/3/3)/2, 1e-6)
	if !math.IsNaN(tab.DrawElo) || a.Score != 8 {
		t.Errorf("draw parameter %v, a's score %v: want NaN, 8", tab.DrawElo, a.Score)
	}
	rk, err := FitBradleyTerry(g, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(rk.DrawElo) || rk.DrawElo <= 0 {
		t.Errorf("without DrawsAsHalf the draw parameter is %v, want > 0", rk.DrawElo)
	}
}
