package ratings

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestBradleyTerryTwoPlayers(t *testing.T) {
	// 750-250 is a 0.75 score: 190.85 Elo apart, so ±95.42 around the
	// mean. The one-game prior pulls each side in by well under 1 Elo.
	rs, err := mmBradleyTerry([]string{"a", "b"}, []pairResult{{A: "a", B: "b", WinsA: 750, WinsB: 250}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Player != "a" || rs[1].Player != "b" {
		t.Fatalf("order: %+v", rs)
	}
	if !close(rs[0].Elo, 95.424, 1) || !close(rs[1].Elo, -95.424, 1) || !(rs[0].Elo < 95.424) {
		t.Errorf("Elo = %g, %g; want about ±95.42, shrunk slightly", rs[0].Elo, rs[1].Elo)
	}
	// Var(θa-θb) ≈ 1/(n p q) = 1/187.5; centred SE is half of its root:
	// 0.0365148 nats = 6.3434 Elo (the prior makes it a little smaller).
	for _, r := range rs {
		if r.StdErr > 6.3434 || r.StdErr < 6.3434*0.98 {
			t.Errorf("%s StdErr = %g, want just under 6.343", r.Player, r.StdErr)
		}
	}
	if rs[0].Games != 1000 || rs[0].Score != 750 || rs[1].Score != 250 {
		t.Errorf("games/score: %+v", rs)
	}
	lo, hi := rs[0].Interval(0.95)
	if !close(hi-lo, 2*1.959964*rs[0].StdErr, 1e-5) || !close((lo+hi)/2, rs[0].Elo, 1e-9) {
		t.Errorf("Interval = (%g, %g)", lo, hi)
	}
}

func TestBradleyTerryScoreEquations(t *testing.T) {
	// At the posterior mode each player's actual points (plus the prior's
	// half point) equal the expected points (plus the prior's expected
	// score against the Elo 0 virtual player). The ratings returned are
	// centred, so first recover the common shift c back to the virtual
	// player's scale, then check every player's equation.
	players := []string{"w", "x", "y", "z"}
	results := []pairResult{
		{A: "w", B: "x", WinsA: 7, WinsB: 3, Draws: 2},
		{A: "w", B: "y", WinsA: 4, WinsB: 4},
		{A: "x", B: "y", WinsA: 1, WinsB: 6, Draws: 1},
		{A: "y", B: "z", WinsA: 5, WinsB: 5},
		{A: "z", B: "w", WinsA: 2, WinsB: 9},
	}
	rs, err := mmBradleyTerry(players, results, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Sum over all players of (points - expected points) in real games is
	// zero, so the prior terms must also sum to zero: sum_i (0.5 - p_iV)
	// = 0. Find the shift c that satisfies that, then check each player.
	residual := func(c float64) float64 {
		var s float64
		for _, r := range rs {
			s += 0.5 - ScoreFromElo(r.Elo+c)
		}
		return s
	}
	lo, hi := -1000.0, 1000.0
	for range 200 {
		mid := (lo + hi) / 2
		if residual(mid) > 0 { // residual falls as c grows
			lo = mid
		} else {
			hi = mid
		}
	}
	c := (lo + hi) / 2
	elo := map[string]float64{}
	for _, r := range rs {
		elo[r.Player] = r.Elo
	}
	for _, r := range rs {
		expected := ScoreFromElo(r.Elo + c)
		actual := 0.5
		for _, pr := range results {
			g := pr.WinsA + pr.WinsB + pr.Draws
			switch r.Player {
			case pr.A:
				actual += pr.WinsA + pr.Draws/2
				expected += g * ScoreFromElo(r.Elo-elo[pr.B])
			case pr.B:
				actual += pr.WinsB + pr.Draws/2
				expected += g * ScoreFromElo(r.Elo-elo[pr.A])
			}
		}
		if !close(actual, expected, 1e-6) {
			t.Errorf("%s: points %g, expected %g", r.Player, actual, expected)
		}
	}
	var mean float64
	for _, r := range rs {
		mean += r.Elo
	}
	if !close(mean, 0, 1e-9) {
		t.Errorf("mean Elo = %g, want 0", mean/float64(len(rs)))
	}
}

func TestBradleyTerryUnbeatenIsFinite(t *testing.T) {
	rs, err := mmBradleyTerry([]string{"champ", "b", "c", "idle"}, []pairResult{
		{A: "champ", B: "b", WinsA: 10},
		{A: "champ", B: "c", WinsA: 10},
		{A: "b", B: "c", WinsA: 5, WinsB: 5},
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if math.IsInf(r.Elo, 0) || math.IsNaN(r.Elo) || math.IsNaN(r.StdErr) || !(r.StdErr > 0) {
			t.Errorf("%+v not finite", r)
		}
	}
	if !(rs[0].Elo > rs[1].Elo+200) {
		t.Errorf("unbeaten player only at %g vs %g", rs[0].Elo, rs[1].Elo)
	}
	// The player with no games sits at the prior (Elo 0 against the
	// virtual player) with a large standard error.
	if rs[3].Games != 0 || !(rs[3].StdErr > 2*rs[1].StdErr) {
		t.Errorf("idle player: %+v", rs[3])
	}
}

func TestBradleyTerryRecoversStrengths(t *testing.T) {
	truth := []float64{-250, -100, 0, 50, 120, 180}
	players := []string{"p0", "p1", "p2", "p3", "p4", "p5"}
	var mean float64
	for _, e := range truth {
		mean += e
	}
	mean /= float64(len(truth))
	r := rand.New(rand.NewPCG(42, 2004))
	const reps = 60
	const gamesPerPair = 300
	var sumZ2 float64
	var count int
	for rep := range reps {
		var results []pairResult
		for i := range players {
			for j := i + 1; j < len(players); j++ {
				// Draw 10% of the time; otherwise a decisive game with
				// the conditional win chance that keeps the expected
				// score at ScoreFromElo(diff).
				p := ScoreFromElo(truth[i] - truth[j])
				const draw = 0.1
				pr := pairResult{A: players[i], B: players[j]}
				for range gamesPerPair {
					switch u := r.Float64(); {
					case u < draw:
						pr.Draws++
					case u < draw+(1-draw)*((p-draw/2)/(1-draw)):
						pr.WinsA++
					default:
						pr.WinsB++
					}
				}
				results = append(results, pr)
			}
		}
		rs, err := mmBradleyTerry(players, results, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, rt := range rs {
			z := (rt.Elo - (truth[i] - mean)) / rt.StdErr
			if rep == 0 && math.Abs(z) > 3.5 {
				t.Errorf("%s: Elo %.1f ± %.1f, truth %.1f", rt.Player, rt.Elo, rt.StdErr, truth[i]-mean)
			}
			sumZ2 += z * z
			count++
		}
	}
	// If the standard errors are right, z is about N(0,1) and its mean
	// square is about 1. Draws make the standard errors a little
	// conservative (a drawn game varies less than the win/loss game the
	// model assumes), so with 10% draws expect about 0.9; without draws
	// this simulation gives 0.945.
	msz := sumZ2 / float64(count)
	if msz < 0.6 || msz > 1.2 {
		t.Errorf("mean squared z = %.3f, want about 1", msz)
	}
	t.Logf("mean squared z over %d ratings: %.3f", count, msz)
}

func TestBradleyTerryErrors(t *testing.T) {
	tests := []struct {
		name    string
		players []string
		results []pairResult
		want    string
	}{
		{"no players", nil, nil, "at least one"},
		{"duplicate", []string{"a", "a"}, nil, "duplicate"},
		{"empty name", []string{"a", ""}, nil, "empty"},
		{"unknown", []string{"a", "b"}, []pairResult{{A: "a", B: "c", WinsA: 1}}, "unknown"},
		{"self", []string{"a", "b"}, []pairResult{{A: "a", B: "a", WinsA: 1}}, "itself"},
		{"negative", []string{"a", "b"}, []pairResult{{A: "a", B: "b", WinsA: -1}}, "invalid"},
		{"nan", []string{"a", "b"}, []pairResult{{A: "a", B: "b", Draws: math.NaN()}}, "invalid"},
	}
	for _, tc := range tests {
		_, err := mmBradleyTerry(tc.players, tc.results, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestInvert(t *testing.T) {
	m := [][]float64{{4, -2, 1}, {-2, 4, -2}, {1, -2, 4}}
	inv, err := invert(m)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 3 {
			var s float64
			for k := range 3 {
				s += m[i][k] * inv[k][j]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if !close(s, want, 1e-12) {
				t.Errorf("(m*inv)[%d][%d] = %g", i, j, s)
			}
		}
	}
	if m[0][0] != 4 {
		t.Error("invert modified its input")
	}
	if _, err := invert([][]float64{{1, 2}, {2, 4}}); err == nil {
		t.Error("singular matrix inverted")
	}
}
