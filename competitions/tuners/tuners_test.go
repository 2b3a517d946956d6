package tuners

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func ptr(x float64) *float64 { return &x }

// tune is one simulated tune: a tuner config against a strength.
type tune struct {
	name     string
	make     func(seed int64) (Tuner, error)
	strength func(Params) float64
}

func mc1(games int) func(int64) (Tuner, error) {
	return func(seed int64) (Tuner, error) {
		return NewMC(MCConfig{
			Parameters:             []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 5}},
			ExplorationCoefficient: 0.5, InitialVisits: 2, InitialWins: 1, MaxDepth: 3, NumberOfGames: games,
		}, seed)
	}
}

func mc2(games int) func(int64) (Tuner, error) {
	return func(seed int64) (Tuner, error) {
		return NewMC(MCConfig{
			Parameters:             []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 4}, {Code: "y", Min: 0, Max: 1, Split: 4}},
			ExplorationCoefficient: 0.5, InitialVisits: 2, InitialWins: 1, MaxDepth: 3, NumberOfGames: games,
		}, seed)
	}
}

func ce1(gens int) func(int64) (Tuner, error) {
	return func(seed int64) (Tuner, error) {
		return NewCE(CEConfig{
			Parameters:          []CEParameter{{Code: "x", InitialMean: 0.7, InitialVariance: 0.1, Min: ptr(0), Max: ptr(1)}},
			NumberOfGenerations: gens, SamplesPerGeneration: 10, BatchSize: 10, EliteProportion: 0.2, StepSize: 0.5,
		}, seed)
	}
}

func ce2(gens int) func(int64) (Tuner, error) {
	return func(seed int64) (Tuner, error) {
		return NewCE(CEConfig{
			Parameters: []CEParameter{
				{Code: "x", InitialMean: 0.7, InitialVariance: 0.1, Min: ptr(0), Max: ptr(1)},
				{Code: "y", InitialMean: 0.2, InitialVariance: 0.1, Min: ptr(0), Max: ptr(1)},
			},
			NumberOfGenerations: gens, SamplesPerGeneration: 16, BatchSize: 20, EliteProportion: 0.25, StepSize: 0.6,
		}, seed)
	}
}

func spsa1(iters int, mode string) func(int64) (Tuner, error) {
	return func(seed int64) (Tuner, error) {
		return NewSPSA(SPSAConfig{
			Parameters: []SPSAParameter{{Code: "x", Start: 0.75, Min: 0, Max: 1, CEnd: 0.1, REnd: 0.05}},
			Iterations: iters, Mode: mode,
		}, seed)
	}
}

func spsa2(iters int) func(int64) (Tuner, error) {
	return func(seed int64) (Tuner, error) {
		return NewSPSA(SPSAConfig{
			Parameters: []SPSAParameter{
				{Code: "x", Start: 0.75, Min: 0, Max: 1, CEnd: 0.1, REnd: 0.05},
				{Code: "y", Start: 0.2, Min: 0, Max: 1, CEnd: 0.1, REnd: 0.05},
			},
			Iterations: iters,
		}, seed)
	}
}

func mustNew(tb testing.TB, make func(int64) (Tuner, error), seed int64) Tuner {
	tb.Helper()
	t, err := make(seed)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestFindsOptimum plays each tuner against a simulated opponent whose
// win probability is 0.5 + 0.4·exp(−((x−0.3)/0.25)²) (one parameter) or
// 0.5 + 0.4·exp(−((x−0.3)/0.25)² − ((y−0.6)/0.3)²) (two), and checks
// that Best is within the stated distance of the optimum in every
// coordinate. The tolerances hold with a margin over seeds 1 to 20 (the
// worst of those in brackets); the test runs three of them.
func TestFindsOptimum(t *testing.T) {
	cases := []struct {
		name      string
		make      func(int64) (Tuner, error)
		strength  func(Params) float64
		games     int
		tolerance float64
	}{
		{"mc_tuner 1 parameter", mc1(2000), bump, 2000, 0.15},                   // (0.120)
		{"mc_tuner 2 parameters", mc2(4000), bump2, 4000, 0.2},                  // (0.158)
		{"ce_tuner 1 parameter", ce1(20), bump, 2000, 0.15},                     // (0.107)
		{"ce_tuner 2 parameters", ce2(12), bump2, 3840, 0.3},                    // (0.238)
		{"spsa pair 1 parameter", spsa1(1000, "pair"), bump, 2000, 0.06},        // (0.041)
		{"spsa opponent 1 parameter", spsa1(1000, "opponent"), bump, 2000, 0.1}, // (0.073)
		{"spsa pair 2 parameters", spsa2(2000), bump2, 4000, 0.08},              // (0.051)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, seed := range []int64{1, 2, 3} {
				tu := mustNew(t, c.make, seed)
				d := newDriver(tu, simOpponent{c.strength, seed}, 1)
				d.run(t)
				if d.issued != c.games || len(d.finished) != c.games {
					t.Fatalf("seed %d: %d games issued, %d finished; want %d", seed, d.issued, len(d.finished), c.games)
				}
				best := tu.Best()
				want := map[string]float64{"x": 0.3, "y": 0.6}
				for code, v := range best {
					if e := math.Abs(v.Num - want[code]); e > c.tolerance {
						t.Errorf("seed %d: best %s = %s, %.3f from %g (tolerance %g)", seed, code, v.Text, e, want[code], c.tolerance)
					}
				}
			}
		})
	}
}

// small tunes for the properties below: a few dozen games each, with
// parallel games, UCT expansion, several generations and integer
// parameters exercised.
func smallTunes() []tune {
	return []tune{
		{"mc_tuner", mc2(60), bump2},
		{"mc_tuner explicit", func(seed int64) (Tuner, error) {
			return NewMC(MCConfig{
				Parameters: []MCParameter{
					{Code: "x", Scale: "explicit", Values: []any{"0.1", int64(3), 0.5, "fast"}},
					{Code: "y", Scale: "log", Min: 1, Max: 100, Integer: true, Split: 3},
				},
				ExplorationCoefficient: 0.5, InitialVisits: 1, InitialWins: 1, MaxDepth: 2, NumberOfGames: 50,
			}, seed)
		}, bump},
		{"ce_tuner", func(seed int64) (Tuner, error) {
			return NewCE(CEConfig{
				Parameters: []CEParameter{
					{Code: "x", InitialMean: 0.7, InitialVariance: 0.1, Min: ptr(0), Max: ptr(1)},
					{Code: "y", InitialMean: 5, InitialVariance: 4, Integer: true},
				},
				NumberOfGenerations: 4, SamplesPerGeneration: 5, BatchSize: 3, EliteProportion: 0.4, StepSize: 0.5,
			}, seed)
		}, bump2},
		{"spsa pair", func(seed int64) (Tuner, error) {
			return NewSPSA(SPSAConfig{
				Parameters: []SPSAParameter{
					{Code: "x", Start: 0.75, Min: 0, Max: 1, CEnd: 0.1, REnd: 0.05},
					{Code: "y", Start: 20, Min: 0, Max: 100, CEnd: 0.4, REnd: 0.5, Integer: true},
				},
				Iterations: 30,
			}, seed)
		}, bump2},
		{"spsa opponent", func(seed int64) (Tuner, error) {
			return NewSPSA(SPSAConfig{
				Parameters: []SPSAParameter{{Code: "x", Start: 0.75, Min: 0, Max: 1, CEnd: 0.1, REnd: 0.05}},
				Iterations: 30, Mode: SPSAOpponent,
			}, seed)
		}, bump},
	}
}

// TestResumeGivesTheSameState kills each small tune after every event
// (an issue or a result), rebuilds a fresh tuner from what the store would
// hold (finished games in the order they finished, then the games in
// flight), checks that its state equals the killed run's, lets it finish,
// and checks that the end equals a run never killed. With one game at a
// time that is the ringmaster's resume rule; with three, games finish out
// of order and the driver's completion order is carried over, so the
// continuation is the same too.
func TestResumeGivesTheSameState(t *testing.T) {
	for _, tn := range smallTunes() {
		for _, j := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s -j %d", tn.name, j), func(t *testing.T) {
				sim := simOpponent{tn.strength, 5}
				whole := newDriver(mustNew(t, tn.make, 5), sim, j)
				var states []string // JSON after each event
				states = append(states, jsonOf(t, whole.t))
				for whole.step(t) {
					states = append(states, jsonOf(t, whole.t))
				}
				final := states[len(states)-1]
				for kill := 0; kill < len(states); kill++ {
					d := newDriver(mustNew(t, tn.make, 5), sim, j)
					for d.events < kill {
						d.step(t)
					}
					r := d.resume(t, mustNew(t, tn.make, 5))
					if got := jsonOf(t, r.t); got != states[kill] {
						t.Fatalf("killed after event %d: resumed state\n%s\nwant\n%s", kill, got, states[kill])
					}
					r.run(t)
					if got := jsonOf(t, r.t); got != final {
						t.Fatalf("killed after event %d: final state\n%s\nwant\n%s", kill, got, final)
					}
				}
			})
		}
	}
}

// TestNextDoesNotChangeState asks Next twice at every point of a run and
// checks that both answers and the state are unchanged.
func TestNextDoesNotChangeState(t *testing.T) {
	for _, tn := range smallTunes() {
		t.Run(tn.name, func(t *testing.T) {
			d := newDriver(mustNew(t, tn.make, 3), simOpponent{tn.strength, 3}, 2)
			for {
				before := jsonOf(t, d.t)
				var report1, report2 strings.Builder
				if err := d.t.WriteReport(&report1, true); err != nil {
					t.Fatal(err)
				}
				g1, s1 := d.t.Next(d.issued)
				g2, s2 := d.t.Next(d.issued)
				if gameText(g1) != gameText(g2) || s1 != s2 {
					t.Fatalf("Next(%d) twice: %+v %v, then %+v %v", d.issued, g1, s1, g2, s2)
				}
				if err := d.t.WriteReport(&report2, true); err != nil {
					t.Fatal(err)
				}
				if after := jsonOf(t, d.t); after != before || report1.String() != report2.String() {
					t.Fatalf("Next(%d) changed the state", d.issued)
				}
				if !d.step(t) {
					break
				}
			}
		})
	}
}

// TestCandidateNames checks every candidate name of a run: valid, of the
// tuner's form, and the same name always with the same parameters.
func TestCandidateNames(t *testing.T) {
	forms := map[string]func(Game) []string{
		"mc_tuner":          func(g Game) []string { return []string{fmt.Sprintf("#%d", g.Number)} },
		"mc_tuner explicit": func(g Game) []string { return []string{fmt.Sprintf("#%d", g.Number)} },
		"ce_tuner":          func(g Game) []string { return []string{fmt.Sprintf("g%d#%d", g.Number/15, g.Number%15%5)} },
		"spsa pair": func(g Game) []string {
			k := g.Number/2 + 1
			if g.Number%2 == 0 {
				return []string{fmt.Sprintf("i%d+", k), fmt.Sprintf("i%d-", k)}
			}
			return []string{fmt.Sprintf("i%d-", k), fmt.Sprintf("i%d+", k)}
		},
		"spsa opponent": func(g Game) []string {
			k := g.Number/2 + 1
			if g.Number%2 == 0 {
				return []string{fmt.Sprintf("i%d+", k)}
			}
			return []string{fmt.Sprintf("i%d-", k)}
		},
	}
	for _, tn := range smallTunes() {
		t.Run(tn.name, func(t *testing.T) {
			d := newDriver(mustNew(t, tn.make, 4), simOpponent{tn.strength, 4}, 2)
			d.run(t)
			seen := map[string]Params{}
			for _, p := range d.finished {
				cands := []Candidate{p.g.A}
				if p.g.B != nil {
					cands = append(cands, *p.g.B)
				}
				var names []string
				for _, c := range cands {
					names = append(names, c.Name)
					if !ValidName(c.Name) {
						t.Errorf("game %d: invalid name %q", p.g.Number, c.Name)
					}
					if prev, ok := seen[c.Name]; ok && fmt.Sprint(prev) != fmt.Sprint(c.Params) {
						t.Errorf("%s: %v and %v", c.Name, prev, c.Params)
					}
					seen[c.Name] = c.Params
				}
				if want := forms[tn.name](p.g); !reflect.DeepEqual(names, want) {
					t.Errorf("game %d: names %v, want %v", p.g.Number, names, want)
				}
			}
		})
	}
}

func TestValidName(t *testing.T) {
	for _, s := range []string{"#0", "g12#3", "i7+", "i7-", strings.Repeat("a", 64)} {
		if !ValidName(s) {
			t.Errorf("ValidName(%q) = false", s)
		}
	}
	for _, s := range []string{"", "a b", "x/y", "é", strings.Repeat("a", 65)} {
		if ValidName(s) {
			t.Errorf("ValidName(%q) = true", s)
		}
	}
}

// TestJSONRoundTrip encodes each report, decodes it into its type and
// compares, and checks the keys the ringmaster's tuner section relies on.
func TestJSONRoundTrip(t *testing.T) {
	for _, tn := range smallTunes() {
		t.Run(tn.name, func(t *testing.T) {
			d := newDriver(mustNew(t, tn.make, 6), simOpponent{tn.strength, 6}, 2)
			for i := 0; i < 25; i++ {
				d.step(t)
			}
			v := d.t.JSON()
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			back := reflect.New(reflect.TypeOf(v).Elem())
			if err := json.Unmarshal(b, back.Interface()); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.Interface(), v) {
				t.Errorf("round trip:\n%#v\nwant\n%#v", back.Interface(), v)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			best, _ := m["best"].(map[string]any)
			params, _ := m["parameters"].([]any)
			if m["type"] == nil || len(best) == 0 || len(params) == 0 {
				t.Errorf("missing type, best or parameters: %s", b)
			}
			for code, v := range d.t.Best() {
				if fmt.Sprint(best[code]) != fmt.Sprint(jsonValue(v)) {
					t.Errorf("best[%s] = %v, want %v", code, best[code], jsonValue(v))
				}
			}
		})
	}
}

func TestFiguresFollowConfigOrder(t *testing.T) {
	for _, tn := range smallTunes() {
		tu := mustNew(t, tn.make, 1)
		figs := tu.Figures()
		best := tu.Best()
		if len(figs) != len(best) {
			t.Fatalf("%s: %d figures for %d parameters", tn.name, len(figs), len(best))
		}
		for i, f := range figs {
			if want := []string{"x", "y"}[i]; f.Code != want || best[f.Code] != f.Best && !math.IsNaN(f.Best.Num) {
				t.Errorf("%s: figures[%d] = %+v, want code %s best %v", tn.name, i, f, want, best[want])
			}
		}
	}
}

// TestRefusesGamesThatDoNotFit checks that a stored game the tuner cannot
// have proposed (the control file changed between runs, or the store was
// edited) is refused on resume rather than bent into the state.
func TestRefusesGamesThatDoNotFit(t *testing.T) {
	for _, tn := range smallTunes() {
		t.Run(tn.name, func(t *testing.T) {
			tu := mustNew(t, tn.make, 2)
			g, st := tu.Next(0)
			if st != Ready {
				t.Fatal(st)
			}
			changed := g
			changed.A.Params = Params{}
			for c, v := range g.A.Params {
				changed.A.Params[c] = Value{Text: v.Text + "1", Num: v.Num}
			}
			if err := tu.Issued(changed); err == nil {
				t.Error("a game with other parameters was accepted")
			}
			renamed := g
			renamed.A.Name += "x"
			if err := tu.Issued(renamed); err == nil {
				t.Error("a game with another name was accepted")
			}
			if err := tu.Record(g, 1); err == nil {
				t.Error("a game never issued was recorded")
			}
			if err := tu.Issued(g); err != nil {
				t.Fatal(err)
			}
			if err := tu.Issued(g); err == nil {
				t.Error("a game issued twice was accepted")
			}
			for _, s := range []float64{math.Inf(-1), math.Inf(1), math.NaN()} {
				if err := tu.Record(g, s); err == nil {
					t.Errorf("score %v accepted", s)
				}
			}
			if err := tu.Record(g, 1); err != nil {
				t.Fatal(err)
			}
			if err := tu.Record(g, 1); err == nil {
				t.Error("a game recorded twice was accepted")
			}
		})
	}
}

// TestDifferentSeedsDifferentGames guards against a seed that is ignored.
func TestDifferentSeedsDifferentGames(t *testing.T) {
	for _, tn := range smallTunes() {
		a := newDriver(mustNew(t, tn.make, 1), simOpponent{tn.strength, 1}, 1)
		b := newDriver(mustNew(t, tn.make, 2), simOpponent{tn.strength, 1}, 1)
		a.run(t)
		b.run(t)
		if jsonOf(t, a.t) == jsonOf(t, b.t) {
			t.Errorf("%s: seeds 1 and 2 gave the same run", tn.name)
		}
	}
}

func TestNewDispatches(t *testing.T) {
	for _, cfg := range []any{
		MCConfig{Parameters: []MCParameter{{Code: "x", Max: 1, Split: 2}}, InitialVisits: 1, InitialWins: 1},
		CEConfig{Parameters: []CEParameter{{Code: "x"}}, NumberOfGenerations: 1, SamplesPerGeneration: 1, BatchSize: 1, EliteProportion: 0.5, StepSize: 0.5},
		SPSAConfig{Parameters: []SPSAParameter{{Code: "x", Max: 1, CEnd: 1}}, Iterations: 1},
	} {
		tu, err := New(cfg, 0)
		if err != nil {
			t.Fatalf("%T: %v", cfg, err)
		}
		wantType := map[string]string{"tuners.MCConfig": TypeMC, "tuners.CEConfig": TypeCE, "tuners.SPSAConfig": TypeSPSA}[fmt.Sprintf("%T", cfg)]
		b, _ := json.Marshal(tu.JSON())
		if !strings.Contains(string(b), `"type":"`+wantType+`"`) {
			t.Errorf("%T: %s", cfg, b)
		}
	}
	if _, err := New(42, 0); err == nil {
		t.Error("New(42) succeeded")
	}
}
