package tuners

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestCEUpdateByHand checks the cross-entropy step on numbers worked by
// hand: elites (1, 12) and (3, 8) have means 2 and 10 and population
// variances 1 and 4; with step 0.25 from means (0, 6) and variances
// (2, 8): mean 0.25·2 + 0.75·0 = 0.5, variance 0.25·1 + 0.75·2 = 1.75;
// mean 0.25·10 + 0.75·6 = 7, variance 0.25·4 + 0.75·8 = 7.
// gomill 0.8.3's update_distribution gives the same: [(0.5, 1.75), (7.0, 7.0)].
func TestCEUpdateByHand(t *testing.T) {
	means, vars := updateDistribution([]float64{0, 6}, []float64{2, 8}, [][]float64{{1, 12}, {3, 8}}, 0.25)
	want := []float64{0.5, 7, 1.75, 7}
	got := []float64{means[0], means[1], vars[0], vars[1]}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("got means %v variances %v, want %v", means, vars, want)
			break
		}
	}
}

// TestCEGeneration plays one generation by hand and checks gomill's rules:
// games round by round over the candidates, a wait at the barrier, the
// elite by wins with ties to the higher index, half points counted, and
// the update from the elite's samples.
func TestCEGeneration(t *testing.T) {
	tu, err := NewCE(CEConfig{
		Parameters:          []CEParameter{{Code: "x", InitialMean: 1, InitialVariance: 4}},
		NumberOfGenerations: 2, SamplesPerGeneration: 4, BatchSize: 2, EliteProportion: 0.5, StepSize: 0.5,
	}, 9)
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string][]float64{"g0#0": {1, 0.5}, "g0#1": {0, 0}, "g0#2": {1, 0.5}, "g0#3": {0.5, 1}}
	samples := map[string]float64{}
	var games []Game
	for n := 0; n < 8; n++ {
		g, st := tu.Next(n)
		if st != Ready {
			t.Fatalf("Next(%d): %v", n, st)
		}
		if want := "g0#" + string(rune('0'+n%4)); g.A.Name != want {
			t.Fatalf("game %d plays %s, want %s", n, g.A.Name, want)
		}
		samples[g.A.Name] = g.A.Params["x"].Num
		if err := tu.Issued(g); err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	if _, st := tu.Next(8); st != Wait {
		t.Fatalf("Next(8) before the generation's results: %v, want Wait", st)
	}
	for _, g := range games {
		s := scores[g.A.Name][g.Number/4]
		if err := tu.Record(g, s); err != nil {
			t.Fatal(err)
		}
	}
	// wins: #0 1.5, #1 0, #2 1.5, #3 1.5: the elite is #3 and #2.
	eliteMean := (samples["g0#3"] + samples["g0#2"]) / 2
	d := samples["g0#3"] - eliteMean
	wantMean, wantVar := 0.5*eliteMean+0.5*1, 0.5*d*d+0.5*4
	f := tu.Figures()[0].Figures
	if math.Abs(f[0].Value-wantMean) > 1e-12 || math.Abs(f[1].Value-wantVar) > 1e-12 {
		t.Errorf("distribution %v, want mean %v variance %v", f, wantMean, wantVar)
	}
	g, st := tu.Next(8)
	if st != Ready || g.A.Name != "g1#0" {
		t.Fatalf("Next(8) after the barrier: %v %s", st, g.A.Name)
	}
	var b strings.Builder
	if err := tu.WriteReport(&b, true); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"generation 1\n\nwins from current samples:\n[0, 0, 0, 0]\n\ndistribution for generation 1:\nx:",
		"\nGeneration 0\nDistribution\nx:1\n 1.00~4.00\ng0#3* x:", "\ng0#2* x:", "\ng0#0  x:", "\ng0#1  x:"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, b.String())
		}
	}
}

func TestCEClipsAndRounds(t *testing.T) {
	tu, err := NewCE(CEConfig{
		Parameters:          []CEParameter{{Code: "x", InitialMean: 0, InitialVariance: 100, Min: ptr(-1), Max: ptr(2), Integer: true}},
		NumberOfGenerations: 1, SamplesPerGeneration: 50, BatchSize: 1, EliteProportion: 0.5, StepSize: 0.5,
	}, 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for n := 0; n < 50; n++ {
		g, _ := tu.Next(n)
		seen[g.A.Params["x"].Text] = true
	}
	for v := range seen {
		if v != "-1" && v != "0" && v != "1" && v != "2" {
			t.Errorf("value %q outside the clipped integers", v)
		}
	}
	if !seen["-1"] || !seen["2"] {
		t.Errorf("a variance of 100 never reached the bounds: %v", seen)
	}
}

func TestCEDone(t *testing.T) {
	tu, err := NewCE(CEConfig{Parameters: []CEParameter{{Code: "x"}}, NumberOfGenerations: 1, SamplesPerGeneration: 1, BatchSize: 1, EliteProportion: 0.5, StepSize: 0.5}, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := tu.Next(0)
	if err := tu.Issued(g); err != nil {
		t.Fatal(err)
	}
	if err := tu.Record(g, 0); err != nil {
		t.Fatal(err)
	}
	if _, st := tu.Next(1); st != Done {
		t.Errorf("Next after the last generation: %v", st)
	}
	var b strings.Builder
	if err := tu.WriteReport(&b, false); err != nil || !strings.Contains(b.String(), "final distribution:") {
		t.Errorf("report %q, %v", b.String(), err)
	}
}

func TestCEConfigErrors(t *testing.T) {
	ok := func() CEConfig {
		return CEConfig{Parameters: []CEParameter{{Code: "x", InitialVariance: 1}, {Code: "y", InitialVariance: 1}},
			NumberOfGenerations: 3, SamplesPerGeneration: 5, BatchSize: 2, EliteProportion: 0.2, StepSize: 0.5}
	}
	cases := []struct {
		want   string
		change func(*CEConfig)
	}{
		{"parameters: at least one parameter is needed", func(c *CEConfig) { c.Parameters = nil }},
		{"parameters[1].initial_variance: must be at least 0", func(c *CEConfig) { c.Parameters[1].InitialVariance = -1 }},
		{"parameters[0].initial_mean: must be a finite number", func(c *CEConfig) { c.Parameters[0].InitialMean = math.Inf(1) }},
		{"parameters[1].max: must be greater than min", func(c *CEConfig) { c.Parameters[1].Min, c.Parameters[1].Max = ptr(2), ptr(2) }},
		{"number_of_generations: must be a positive integer", func(c *CEConfig) { c.NumberOfGenerations = 0 }},
		{"samples_per_generation: must be a positive integer", func(c *CEConfig) { c.SamplesPerGeneration = -1 }},
		{"batch_size: must be a positive integer", func(c *CEConfig) { c.BatchSize = 0 }},
		{"elite_proportion: out of range (0.0 to 1.0)", func(c *CEConfig) { c.EliteProportion = 1 }},
		{"step_size: out of range (0.0 to 1.0)", func(c *CEConfig) { c.StepSize = 0 }},
	}
	for _, c := range cases {
		cfg := ok()
		c.change(&cfg)
		_, err := NewCE(cfg, 0)
		var ce *ConfigError
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &ce) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	if _, err := NewCE(ok(), 0); err != nil {
		t.Errorf("valid config: %v", err)
	}
}
