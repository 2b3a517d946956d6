package tuners

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func newSPSAInternal(t *testing.T, cfg SPSAConfig, seed int64) *spsaTuner {
	t.Helper()
	tu, err := NewSPSA(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return tu.(*spsaTuner)
}

// TestSPSASchedule checks fishtest's schedule: c_k = c_end·N^γ/k^γ and
// r_k = a/(A+k)^α/c_k² with a = r_end·c_end²·(A+N)^α, so that the last
// iteration has c_end and r_end; and fishtest's defaults.
func TestSPSASchedule(t *testing.T) {
	tu := newSPSAInternal(t, SPSAConfig{
		Parameters: []SPSAParameter{{Code: "x", Start: 50, Min: 0, Max: 100, CEnd: 2, REnd: 0.002}},
		Iterations: 1000,
	}, 1)
	if tu.a != 100 || tu.alpha != 0.602 || tu.gamma != 0.101 {
		t.Errorf("defaults A %v alpha %v gamma %v, want 100, 0.602, 0.101", tu.a, tu.alpha, tu.gamma)
	}
	if c, r := tu.ck(0, 1000), tu.rk(0, 1000); math.Abs(c-2) > 1e-12 || math.Abs(r-0.002) > 1e-15 {
		t.Errorf("iteration N: c %v r %v, want 2 and 0.002", c, r)
	}
	c1 := 2 * math.Pow(1000, 0.101)
	r1 := 0.002 * 4 * math.Pow(1100, 0.602) / math.Pow(101, 0.602) / (c1 * c1)
	if c, r := tu.ck(0, 1), tu.rk(0, 1); math.Abs(c-c1) > 1e-12 || math.Abs(r-r1) > 1e-15 {
		t.Errorf("iteration 1: c %v r %v, want %v and %v", c, r, c1, r1)
	}
}

// playIteration plays iteration 1 with the given scores for A and
// returns its perturbation sign and θ after it.
func playIteration(t *testing.T, tu *spsaTuner, s0, s1 float64) (flip, theta float64) {
	t.Helper()
	g0, _ := tu.Next(0)
	if err := tu.Issued(g0); err != nil {
		t.Fatal(err)
	}
	g1, _ := tu.Next(1)
	if err := tu.Issued(g1); err != nil {
		t.Fatal(err)
	}
	if g0.Pair != 0 || g1.Pair != 0 {
		t.Fatalf("pairs %d %d, want 0 0", g0.Pair, g1.Pair)
	}
	flip = math.Copysign(1, g0.A.Params["x"].Num-50)
	if err := tu.Record(g1, s1); err != nil {
		t.Fatal(err)
	}
	if tu.theta[0] != 50 {
		t.Fatalf("θ moved with half an iteration in: %v", tu.theta[0])
	}
	if err := tu.Record(g0, s0); err != nil {
		t.Fatal(err)
	}
	return flip, tu.theta[0]
}

// TestSPSAUpdate checks one iteration by hand in both modes: θ moves by
// r_1·c_1·result·sign, result being plus's wins minus losses.
func TestSPSAUpdate(t *testing.T) {
	cfg := SPSAConfig{Parameters: []SPSAParameter{{Code: "x", Start: 50, Min: 0, Max: 100, CEnd: 2, REnd: 0.002}}, Iterations: 1000}
	step := func(tu *spsaTuner) float64 { return tu.rk(0, 1) * tu.ck(0, 1) }

	// Pair: A is plus in game 0 and minus in game 1. Plus wins game 0
	// and game 1 (A scores 0): result 2.
	tu := newSPSAInternal(t, cfg, 1)
	g0, _ := tu.Next(0)
	g1, _ := tu.Next(1)
	if g0.A.Name != "i1+" || g0.B == nil || g0.B.Name != "i1-" || g1.A.Name != "i1-" || g1.B.Name != "i1+" {
		t.Fatalf("pair games: %s v %v, %s v %v", g0.A.Name, g0.B, g1.A.Name, g1.B)
	}
	if math.Abs(math.Abs(g0.A.Params["x"].Num-50)-tu.ck(0, 1)) > 1e-9 || math.Abs(g0.A.Params["x"].Num+g0.B.Params["x"].Num-100) > 1e-9 {
		t.Fatalf("plus %v minus %v around 50 by c_1 %v", g0.A.Params["x"], g0.B.Params["x"], tu.ck(0, 1))
	}
	flip, theta := playIteration(t, tu, 1, 0)
	if want := 50 + step(tu)*2*flip; theta != want {
		t.Errorf("pair: θ %v, want %v", theta, want)
	}

	// Opponent: plus draws the opponent, minus beats it: result 2·(0.5−1) = −1.
	cfg.Mode = SPSAOpponent
	tu = newSPSAInternal(t, cfg, 1)
	g0, _ = tu.Next(0)
	g1, _ = tu.Next(1)
	if g0.A.Name != "i1+" || g0.B != nil || g1.A.Name != "i1-" || g1.B != nil {
		t.Fatalf("opponent games: %s v %v, %s v %v", g0.A.Name, g0.B, g1.A.Name, g1.B)
	}
	flip, theta = playIteration(t, tu, 0.5, 1)
	if want := 50 - step(tu)*flip; theta != want {
		t.Errorf("opponent: θ %v, want %v", theta, want)
	}
}

func TestSPSAClips(t *testing.T) {
	tu := newSPSAInternal(t, SPSAConfig{
		Parameters: []SPSAParameter{{Code: "x", Start: 0.5, Min: 0, Max: 1, CEnd: 0.4, REnd: 1000}},
		Iterations: 10,
	}, 1)
	d := newDriver(tu, simOpponent{bump, 1}, 2)
	for d.step(t) {
		if th := tu.theta[0]; th < 0 || th > 1 {
			t.Fatalf("θ %v outside [0,1]", th)
		}
		for _, g := range d.inFlight {
			if x := g.A.Params["x"].Num; x < 0 || x > 1 {
				t.Fatalf("game %d plays x = %v", g.Number, x)
			}
		}
	}
	if th := tu.theta[0]; th != 0 && th != 1 {
		t.Errorf("a rate of 1000 left θ at %v, inside the bounds", th)
	}
}

// TestSPSAIntegerRounding checks the stochastic rounding of integer
// parameters: with c_k below one half, plus and minus still differ on
// average by 2·c_k in the direction of the sign.
func TestSPSAIntegerRounding(t *testing.T) {
	const n = 4000
	tu := newSPSAInternal(t, SPSAConfig{
		Parameters: []SPSAParameter{{Code: "x", Start: 10.3, Min: 0, Max: 20, CEnd: 0.2, REnd: 0.002, Integer: true}},
		Iterations: n,
	}, 1)
	var got, want float64
	for k := 1; k <= n; k++ {
		plus, minus := tu.candidates(k, []float64{10.3})
		p, m := plus.Params["x"], minus.Params["x"]
		if p.Text != strings.TrimSuffix(p.Text, ".") || p.Num != math.Floor(p.Num) || m.Num != math.Floor(m.Num) {
			t.Fatalf("iteration %d: %v %v not whole", k, p, m)
		}
		got += (p.Num - m.Num) * tu.flips(k)[0]
		want += 2 * tu.ck(0, k)
	}
	if math.Abs(got-want)/n > 0.03 {
		t.Errorf("mean plus−minus along the sign %v, want %v", got/n, want/n)
	}
	if best := tu.Best()["x"]; best.Text != "10" {
		t.Errorf("best %v, want θ 10.3 rounded to 10", best)
	}
}

// TestSPSAParallel checks the behaviour with games in flight: a later
// iteration is built from θ as recorded so far, and an iteration's second
// game keeps the θ its first was built from even when θ has moved since.
func TestSPSAParallel(t *testing.T) {
	tu := newSPSAInternal(t, SPSAConfig{
		Parameters: []SPSAParameter{{Code: "x", Start: 50, Min: 0, Max: 100, CEnd: 2, REnd: 0.01}},
		Iterations: 100, Mode: SPSAOpponent,
	}, 1)
	var games []Game
	for n := 0; n < 3; n++ {
		g, _ := tu.Next(n)
		if err := tu.Issued(g); err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	if games[2].Detail != "50" {
		t.Fatalf("iteration 2 built from %q before any result, want 50", games[2].Detail)
	}
	for _, g := range games[:2] {
		if err := tu.Record(g, float64(g.Number%2)); err != nil {
			t.Fatal(err)
		}
	}
	moved := tu.theta[0]
	if moved == 50 {
		t.Fatal("iteration 1 did not move θ")
	}
	g3, _ := tu.Next(3)
	if g3.Detail != "50" || g3.A.Name != "i2-" {
		t.Errorf("iteration 2's second game: %s from %q, want i2- from 50", g3.A.Name, g3.Detail)
	}
	if err := tu.Issued(g3); err != nil {
		t.Fatal(err)
	}
	g4, _ := tu.Next(4)
	if g4.Detail != formatVector([]float64{moved}) {
		t.Errorf("iteration 3 built from %q, want θ %v", g4.Detail, moved)
	}
}

func TestSPSAReport(t *testing.T) {
	tu := newSPSAInternal(t, SPSAConfig{
		Parameters: []SPSAParameter{{Code: "x", Start: 50, Min: 0, Max: 100, CEnd: 2, REnd: 0.002}, {Code: "yy", Start: 1, Min: 0, Max: 2, CEnd: 0.1, REnd: 0.1}},
		Iterations: 1000, A: ptr(50),
	}, 1)
	var b strings.Builder
	if err := tu.WriteReport(&b, false); err != nil {
		t.Fatal(err)
	}
	want := "iter: 0/1000, A: 50, alpha: 0.602, gamma: 0.101, mode: pair\n\n" +
		"Best parameters: x:50; yy:1\n\n" +
		"param  theta  start  min  max  c      c_end  r         r_end\n"
	if !strings.HasPrefix(b.String(), want) || !strings.Contains(b.String(), "\nx      50     50     0    100  4.02   2      3.06e-03  2.00e-03\nyy     1      1      0    2    0.201  0.1    1.53e-01  1.00e-01\n") {
		t.Errorf("report:\n%s\nwant it to start\n%s", b.String(), want)
	}
}

func TestSPSAConfigErrors(t *testing.T) {
	ok := func() SPSAConfig {
		return SPSAConfig{Parameters: []SPSAParameter{{Code: "x", Start: 1, Max: 2, CEnd: 1, REnd: 0.1}, {Code: "y", Start: 1, Max: 2, CEnd: 1, REnd: 0.1}},
			Iterations: 100}
	}
	cases := []struct {
		want   string
		change func(*SPSAConfig)
	}{
		{"parameters: at least one parameter is needed", func(c *SPSAConfig) { c.Parameters = nil }},
		{"iterations: must be a positive integer", func(c *SPSAConfig) { c.Iterations = 0 }},
		{"A: must be a number, at least 0", func(c *SPSAConfig) { c.A = ptr(-1) }},
		{"alpha: must be a number, at least 0", func(c *SPSAConfig) { c.Alpha = ptr(math.NaN()) }},
		{"gamma: must be a number, at least 0", func(c *SPSAConfig) { c.Gamma = ptr(-0.1) }},
		{`mode: must be "pair" or "opponent", not "both"`, func(c *SPSAConfig) { c.Mode = "both" }},
		{"parameters[1].max: must be greater than min", func(c *SPSAConfig) { c.Parameters[1].Max = 0 }},
		{"parameters[1].start: must be within [min, max]", func(c *SPSAConfig) { c.Parameters[1].Start = 3 }},
		{"parameters[0].c_end: must be greater than 0", func(c *SPSAConfig) { c.Parameters[0].CEnd = 0 }},
		{"parameters[0].r_end: must be at least 0", func(c *SPSAConfig) { c.Parameters[0].REnd = -1 }},
		{"parameters[0].max: an integer parameter needs a whole number", func(c *SPSAConfig) {
			c.Parameters[0] = SPSAParameter{Code: "x", Start: 0.3, Min: 0.2, Max: 0.8, CEnd: 1, Integer: true}
		}},
	}
	for _, c := range cases {
		cfg := ok()
		c.change(&cfg)
		_, err := NewSPSA(cfg, 0)
		var ce *ConfigError
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &ce) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	if _, err := NewSPSA(ok(), 0); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

// FuzzSPSADetail feeds stored base vectors to Issued: it accepts or
// refuses, never panics, and a game it accepts can be recorded.
func FuzzSPSADetail(f *testing.F) {
	for _, s := range []string{"50", "0.5 7", "", "NaN", "1e400", "-1", "100", "50 50", " 50 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, detail string) {
		tu, err := NewSPSA(SPSAConfig{Parameters: []SPSAParameter{{Code: "x", Start: 50, Min: 0, Max: 100, CEnd: 2, REnd: 0.002}}, Iterations: 10}, 1)
		if err != nil {
			t.Fatal(err)
		}
		st := tu.(*spsaTuner)
		g, _ := tu.Next(0)
		g.Detail = detail
		if base, err := st.parseVector(detail); err == nil {
			g = st.game(0, base)
		}
		if err := tu.Issued(g); err != nil {
			return
		}
		if err := tu.Record(g, 1); err != nil {
			t.Fatalf("accepted %q but cannot record it: %v", detail, err)
		}
	})
}
