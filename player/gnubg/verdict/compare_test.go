package verdict

import (
	"math"
	"testing"
)

func decisionsOf(file string, player string, errs ...float64) []Decision {
	var ds []Decision
	for _, e := range errs {
		ds = append(ds, Decision{File: file, Player: player, Error: e})
	}
	return ds
}

// TestCompare pairs two runs' records by name (a record in one run
// only is left out) and checks the change and its interval against
// figures worked by hand.
func TestCompare(t *testing.T) {
	runA := RecordsOf(append(append(append(
		decisionsOf("runA/m1.mat", "bgbot", 0.002, 0),
		decisionsOf("runA/m1.mat", "gnubg0", 0.001)...),
		decisionsOf("runA/m2.mat", "bgbot", 0.004)...),
		decisionsOf("runA/m3.mat", "bgbot", 0.5)...), nil)
	runB := RecordsOf(append(append(append(
		decisionsOf("runB/m4.mat", "bgbot", 0.9),
		decisionsOf("runB/m2.mat", "bgbot", 0.001, 0.001)...),
		decisionsOf("runB/m1.mat", "bgbot", 0.001)...),
		decisionsOf("runB/m1.mat", "gnubg0", 0.003)...), nil)
	pa, pb := PairRecords(runA, runB)
	if len(pa) != 2 || recordName(pa[0]) != "m1.mat" || recordName(pb[0]) != "m1.mat" || recordName(pb[1]) != "m2.mat" {
		t.Fatalf("paired %d records: %v / %v", len(pa), pa, pb)
	}
	all := func(Decision) (string, error) { return "all", nil }
	ga, err := GroupDecisions(pa, all)
	if err != nil {
		t.Fatal(err)
	}
	gb, err := GroupDecisions(pb, all)
	if err != nil {
		t.Fatal(err)
	}
	ds := Compare(ga["all"], gb["all"], ChequerFigures)
	if len(ds) != 2 || ds[0].Name != "bgbot" || ds[1].Name != "gnubg0" {
		t.Fatalf("differences %+v", ds)
	}
	// bgbot: A 0.006 EMG over 3 moves (2.0 mEMG), B 0.003 over 3 (1.0).
	// Each pair's term is ±0.002/3, so the half-width is
	// 1.96 * sqrt(2 * 2 * (0.002/3)^2) = 2.6133 mEMG.
	bg := ds[0]
	if bg.Pairs != 2 || bg.A.UnforcedMoves != 3 || bg.B.UnforcedMoves != 3 || math.Abs(bg.Change+1) > 1e-9 ||
		math.Abs(bg.Interval[0]+3.6133) > 1e-3 || math.Abs(bg.Interval[1]-1.6133) > 1e-3 {
		t.Errorf("bgbot %+v, want change -1 in [-3.613, +1.613] over 2 pairs", bg)
	}
	// gnubg0 moved in one pair only: its change, without an interval.
	g0 := ds[1]
	if g0.Pairs != 1 || math.Abs(g0.Change-2) > 1e-9 || !math.IsNaN(g0.Interval[0]) {
		t.Errorf("gnubg0 %+v, want change +2 over 1 pair, no interval", g0)
	}
	// A run against itself changes nothing, with no spread.
	same := Compare(ga["all"], ga["all"], ChequerFigures)
	if same[0].Change != 0 || same[0].Interval != [2]float64{0, 0} {
		t.Errorf("a run against itself: %+v", same[0])
	}
}

// TestGapOf measures one player's gap to another in the same records,
// against figures worked by hand, and CompareGap finds no change between
// a run and itself.
func TestGapOf(t *testing.T) {
	results := [][2]Player{
		{{Name: "x", UnforcedMoves: 10, ChequerError: 0.02}, {Name: "y", UnforcedMoves: 10, ChequerError: 0.01}},
		{{Name: "y", UnforcedMoves: 10, ChequerError: 0.01}, {Name: "x", UnforcedMoves: 10, ChequerError: 0.04}},
		{{Name: "x", UnforcedMoves: 10, ChequerError: 0.5}, {Name: "z", UnforcedMoves: 10}},
	}
	g := GapOf(results, "x", "y")
	// x 3.0 mEMG, y 1.0 in the two records both played; each record's
	// term is ±0.01/20, so the half-width is 1.96*sqrt(2*2*0.0005^2).
	if g.Records != 2 || math.Abs(g.Chequer-2) > 1e-9 || math.Abs(g.ChequerInterval[0]-0.04) > 1e-9 || math.Abs(g.ChequerInterval[1]-3.96) > 1e-9 {
		t.Errorf("gap %+v, want 2 in [0.04, 3.96] over 2 records", g)
	}
	if g.Cube != 0 || !math.IsNaN(g.CubeInterval[0]) {
		t.Errorf("no cube decisions: gap %v %v", g.Cube, g.CubeInterval)
	}
	if c, iv, n := CompareGap(results, results, "x", "y", ChequerFigures); c != 0 || iv != [2]float64{0, 0} || n != 2 {
		t.Errorf("a run against itself: change %v %v over %d", c, iv, n)
	}
	// Halving x's errors in the second run halves its rate (3.0 to 1.5).
	better := [][2]Player{results[0], results[1], results[2]}
	better[0][0].ChequerError, better[1][1].ChequerError = 0.01, 0.02
	if c, _, _ := CompareGap(results, better, "x", "y", ChequerFigures); math.Abs(c+1.5) > 1e-9 {
		t.Errorf("x halved: gap change %v, want -1.5", c)
	}
}

// TestNumbersByValue pairs records numbered with more or fewer digits.
func TestNumbersByValue(t *testing.T) {
	for in, want := range map[string]string{
		"match5_0000.mat": "match5_0.mat",
		"match5_000.mat":  "match5_0.mat",
		"match5_0120.mat": "match5_120.mat",
		"match5_120.mat":  "match5_120.mat",
		"m100_007x0.mat":  "m100_7x0.mat",
		"0":               "0",
		"":                "",
	} {
		if got := numbersByValue(in); got != want {
			t.Errorf("numbersByValue(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCompareTotals pairs records' totals: worked by hand, and a player
// missing from a record leaves the record out.
func TestCompareTotals(t *testing.T) {
	rec := func(x, y float64) [2]Player {
		return [2]Player{{Name: "x", CubeError: x, CubeDecisions: 3}, {Name: "y", CubeError: y, CubeDecisions: 1}}
	}
	a := [][2]Player{rec(0.1, 0.0), rec(0.2, 0.1), rec(0.0, 0.0), {{Name: "x", CubeError: 9}}}
	b := [][2]Player{rec(0.0, 0.1), rec(0.2, 0.0), rec(0.1, 0.0), {{Name: "x", CubeError: 0}}}
	// x: -0.1, 0, +0.1 and -9 (the last record has x alone): mean -2.25.
	if c, _, n := CompareTotals(a, b, "x", "", CubeFigures); n != 4 || math.Abs(c+2.25) > 1e-9 {
		t.Errorf("x alone: %v over %d pairs, want -2.25 over 4", c, n)
	}
	// x less y: -0.2, +0.1, +0.1 over the three records with both: 0.
	c, iv, n := CompareTotals(a, b, "x", "y", CubeFigures)
	if n != 3 || math.Abs(c) > 1e-9 || !(iv[0] < 0 && iv[1] > 0) {
		t.Errorf("x less y: %v [%v, %v] over %d pairs, want 0 inside its interval over 3", c, iv[0], iv[1], n)
	}
}
