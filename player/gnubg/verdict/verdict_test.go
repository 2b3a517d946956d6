package verdict

import (
	"context"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/peertest"
)

// The testdata files are gnubg 1.07's output for records of the
// ringmaster's (bgbot against gnubg at 0 ply) analysed at 0 ply: a 5-point
// match (errors in match winning chances) and a money game with the cube
// and the Jacoby rule (errors in points). The figures are read off them by
// eye.
func TestParseStatistics(t *testing.T) {
	for file, want := range map[string][2]Player{
		"testdata/statistics-match5.txt": {
			{Name: "bgbot", UnforcedMoves: 63, ChequerError: 0.890, CubeDecisions: 8, CubeError: 0.138, Records: 1},
			{Name: "gnubg0", UnforcedMoves: 55, ChequerError: 0, CubeDecisions: 8, CubeError: 0, Records: 1},
		},
		"testdata/statistics-money.txt": {
			{Name: "bgbot", UnforcedMoves: 18, ChequerError: 0.131, CubeDecisions: 2, CubeError: 0, Records: 1},
			{Name: "gnubg0", UnforcedMoves: 18, ChequerError: 0, CubeDecisions: 5, CubeError: 0, Records: 1},
		},
	} {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := ParseStatistics(string(text))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if ps != want {
			t.Errorf("%s: got %+v\nwant %+v", file, ps, want)
		}
	}
}

func TestRates(t *testing.T) {
	p := Player{Name: "bgbot", UnforcedMoves: 63, ChequerError: 0.890, CubeDecisions: 8, CubeError: 0.138, Records: 1}
	if r := p.ChequerRate(); math.Abs(r-14.127) > 0.001 {
		t.Errorf("chequer rate %.3f, want 890/63", r)
	}
	if r := p.CubeRate(); math.Abs(r-17.25) > 0.001 {
		t.Errorf("cube rate %.3f, want 138/8", r)
	}
	sum := p
	sum.Add(p)
	if sum.Records != 2 || sum.UnforcedMoves != 126 || sum.ChequerRate() != p.ChequerRate() {
		t.Errorf("sum of a record with itself: %+v", sum)
	}
	if (Player{}).CubeRate() != 0 {
		t.Error("a rate with no decisions is not 0")
	}
}

func TestParseStatisticsRejects(t *testing.T) {
	good, err := os.ReadFile("testdata/statistics-match5.txt")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"empty":            "",
		"no cube section":  string(good[:strings.Index(string(good), "Cube statistics")]),
		"a positive error": strings.Replace(string(good), "-0.890 (-15.784%)", "+0.890 (-15.784%)", 1),
		"one column":       strings.Replace(string(good), "63                      55", "63", 1),
	} {
		if _, err := ParseStatistics(text); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestSummarise checks the sums by name and the intervals over records:
// the interval is centred on the pooled rate, narrows when records agree,
// and is undefined for a single record.
func TestSummarise(t *testing.T) {
	rec := func(a, b Player) [2]Player { a.Records, b.Records = 1, 1; return [2]Player{a, b} }
	results := [][2]Player{
		rec(Player{Name: "y", UnforcedMoves: 50, ChequerError: 0.5, CubeDecisions: 4, CubeError: 0.1}, Player{Name: "x", UnforcedMoves: 40, ChequerError: 0.1}),
		rec(Player{Name: "x", UnforcedMoves: 60, ChequerError: 0.2}, Player{Name: "y", UnforcedMoves: 50, ChequerError: 0.3, CubeDecisions: 6, CubeError: 0.1}),
	}
	s := Summarise(results)
	if len(s) != 2 || s[0].Name != "x" || s[1].Name != "y" {
		t.Fatalf("summaries %+v", s)
	}
	y := s[1]
	if y.Records != 2 || y.UnforcedMoves != 100 || math.Abs(y.ChequerRate()-8) > 1e-9 || math.Abs(y.CubeRate()-20) > 1e-9 {
		t.Errorf("y summed wrong: %+v", y)
	}
	mid := (y.ChequerInterval[0] + y.ChequerInterval[1]) / 2
	if math.Abs(mid-8) > 1e-9 || !(y.ChequerInterval[1]-y.ChequerInterval[0] > 0) {
		t.Errorf("y chequer interval %v around rate 8", y.ChequerInterval)
	}
	// By hand: rate 0.2/10; residuals ±0.02; half-width 1.96·√(2·0.0008)/10.
	if math.Abs(y.CubeInterval[0]-12.16) > 1e-9 || math.Abs(y.CubeInterval[1]-27.84) > 1e-9 {
		t.Errorf("y's cube interval %v, want [12.16, 27.84]", y.CubeInterval)
	}
	one := Summarise(results[:1])
	if !math.IsNaN(one[0].ChequerInterval[0]) {
		t.Errorf("one record gives interval %v, want NaN", one[0].ChequerInterval)
	}
}

// TestAnalyseWithGnubg runs gnubg on a 3-point match it played itself
// (from gnubg's own export) at 0 ply: both players' figures are read and
// are sane.
func TestAnalyseWithGnubg(t *testing.T) {
	bin := peertest.Gnubg(t)
	ps, err := Analyse(context.Background(), bin, "testdata/gnubg-3pt-match.mat", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Name == "" || p.UnforcedMoves < 10 || p.ChequerError < 0 || p.Records != 1 {
			t.Errorf("implausible figures %+v", p)
		}
	}
	if _, err := Analyse(context.Background(), bin, "testdata/missing.mat", 0); err == nil {
		t.Error("a missing file: no error")
	}
}

// TestAnalyseDecisions has gnubg analyse a record through the Python
// script at 0 ply (a 5-point match between bgbot, V7 with W8, and gnubg
// 0-ply from the ringmaster): the figures equal Analyse's, and each
// player's decisions add up to its unforced moves and chequer error, and
// its close cube decisions to its cube decisions and cube error.
func TestAnalyseDecisions(t *testing.T) {
	bin := peertest.Gnubg(t)
	const file = "testdata/bgbot-gnubg0-match5.mat"
	want, err := Analyse(context.Background(), bin, file, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := AnalyseDecisions(context.Background(), bin, file, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	ps, ds := r.Players, r.Decisions
	if ps != want {
		t.Errorf("statistics %+v, want Analyse's %+v", ps, want)
	}
	errors := 0
	for _, p := range ps {
		n, sum := 0, 0.0
		for _, d := range ds {
			if d.Player != p.Name {
				continue
			}
			n++
			sum += d.Error
			if d.File != file || d.Length != 5 || d.Away() < 1 || d.Away() > 5 ||
				d.Cube < 1 || d.Choices < 2 || len(d.PositionID) != 14 || len(d.Dice) != 2 || d.Played == "" || d.Best == "" {
				t.Errorf("implausible decision %+v", d)
			}
			if (d.Rank == 0 && d.Error != 0) || d.Rank < 0 || d.Rank >= d.Choices {
				t.Errorf("error %v at rank %d of %d with played %q and best %q", d.Error, d.Rank, d.Choices, d.Played, d.Best)
			}
			if d.Error > 0 {
				errors++
			}
		}
		if n != p.UnforcedMoves || math.Abs(sum-p.ChequerError) > 0.0015 {
			t.Errorf("%s: %d decisions with %.4f EMG in all, statistics say %d and %.3f", p.Name, n, sum, p.UnforcedMoves, p.ChequerError)
		}
	}
	if errors == 0 {
		t.Error("no decision with an error: the test cannot tell errors from their absence")
	}
	checkCubeDecisions(t, file, ps, r.CubeDecisions)
	if _, err := AnalyseDecisions(context.Background(), bin, "testdata/missing.mat", 0, false); err == nil {
		t.Error("a missing file: no error")
	}
	if _, err := AnalyseDecisions(context.Background(), bin, "../../../formats/sgf/testdata/gnubg-setup-7pt.sgf", 0, false); err == nil ||
		!strings.Contains(err.Error(), ".mat records only") {
		t.Errorf("an SGF record: %v, want a refusal", err)
	}
}

// checkCubeDecisions checks a record's cube decisions against gnubg's
// statistics of it: each player's close decisions and their errors add
// up to its cube figures, every answer follows a double, and the record
// has a cube error to find (the test file's bgbot has one).
func checkCubeDecisions(t *testing.T, file string, ps [2]Player, cs []CubeDecision) {
	t.Helper()
	kinds := map[string]int{}
	for _, p := range ps {
		n, sum := 0, 0.0
		for i, c := range cs {
			if err := c.check(); err != nil || c.File != file || len(c.PositionID) != 14 || len(c.Probs) != 5 {
				t.Errorf("implausible cube decision %+v: %v", c, err)
			}
			if c.Role == "taker" && (i == 0 || cs[i-1].Action != "double" || cs[i-1].PositionID != c.PositionID) {
				t.Errorf("an answer that follows no double: %+v", c)
			}
			if c.Player != p.Name {
				continue
			}
			kinds[c.Kind()]++
			if c.Close {
				n++
				sum += c.Error
			} else if c.Error != 0 {
				t.Errorf("an error outside the close decisions: %+v", c)
			}
		}
		if n != p.CubeDecisions || math.Abs(sum-p.CubeError) > 0.0015 {
			t.Errorf("%s: %d close cube decisions with %.4f EMG in all, statistics say %d and %.3f", p.Name, n, sum, p.CubeDecisions, p.CubeError)
		}
	}
	if kinds["right double"]+kinds["wrong double"] == 0 || kinds["right no double"] == 0 {
		t.Errorf("cube decisions of kinds %v: want doubles and no doubles", kinds)
	}
}

// TestAnalyseDecisionsCubeOnly has gnubg judge the cube decisions alone:
// the same cube figures and decisions as the whole analysis, no chequer
// decisions.
func TestAnalyseDecisionsCubeOnly(t *testing.T) {
	bin := peertest.Gnubg(t)
	const file = "testdata/bgbot-gnubg0-match5.mat"
	whole, err := AnalyseDecisions(context.Background(), bin, file, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	r, err := AnalyseDecisions(context.Background(), bin, file, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Decisions) != 0 {
		t.Errorf("%d chequer decisions in a cube-only analysis", len(r.Decisions))
	}
	for i, p := range r.Players {
		w := whole.Players[i]
		if p.Name != w.Name || p.CubeDecisions != w.CubeDecisions || p.CubeError != w.CubeError || p.UnforcedMoves != 0 {
			t.Errorf("cube-only figures %+v, whole analysis %+v", p, w)
		}
	}
	if len(r.CubeDecisions) != len(whole.CubeDecisions) {
		t.Fatalf("%d cube decisions, the whole analysis %d", len(r.CubeDecisions), len(whole.CubeDecisions))
	}
	for i := range r.CubeDecisions {
		if !reflect.DeepEqual(r.CubeDecisions[i], whole.CubeDecisions[i]) {
			t.Errorf("cube decision %d: %+v, the whole analysis %+v", i, r.CubeDecisions[i], whole.CubeDecisions[i])
		}
	}
	checkCubeDecisions(t, file, r.Players, r.CubeDecisions)
}

// TestAnalyseMoneyCubeDecisions checks the cube decisions of a money
// game (the Jacoby rule, bgbot's errors at a 4-cube) as TestAnalyseDecisions
// does a match's: in money play gnubg's equities are already normalised.
func TestAnalyseMoneyCubeDecisions(t *testing.T) {
	bin := peertest.Gnubg(t)
	const file = "testdata/bgbot-gnubg0-money.mat"
	r, err := AnalyseDecisions(context.Background(), bin, file, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	checkCubeDecisions(t, file, r.Players, r.CubeDecisions)
	if r.Players[0].CubeError+r.Players[1].CubeError == 0 {
		t.Error("no cube error in the record: the test cannot tell a scaling error")
	}
	for _, c := range r.CubeDecisions {
		if c.Length != 0 {
			t.Errorf("a money decision with length %d", c.Length)
		}
	}
}

// TestGroupDecisions sums decisions by a key: each group keeps every
// record, with zero figures where the group has no decision of a player.
func TestGroupDecisions(t *testing.T) {
	d := func(file, player string, cube int, e float64) Decision {
		return Decision{File: file, Player: player, Cube: cube, Error: e}
	}
	records := RecordsOf([]Decision{
		d("a", "x", 1, 0.010), d("a", "y", 1, 0), d("a", "x", 2, 0.030),
		d("b", "y", 2, 0.020), d("b", "x", 1, 0.002),
	}, nil)
	if len(records) != 2 || records[0].Players[0].Name != "x" || records[1].Players[0].Name != "y" {
		t.Fatalf("records %+v", records)
	}
	groups, err := GroupDecisions(records, func(d Decision) (string, error) {
		if d.Cube == 1 {
			return "centred", nil
		}
		return "turned", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sum := func(group, name string) Player {
		for _, s := range Summarise(groups[group]) {
			if s.Name == name {
				return s.Player
			}
		}
		t.Fatalf("%s: no %s", group, name)
		return Player{}
	}
	if p := sum("centred", "x"); p.UnforcedMoves != 2 || math.Abs(p.ChequerError-0.012) > 1e-12 || p.Records != 2 {
		t.Errorf("centred x: %+v", p)
	}
	if p := sum("turned", "y"); p.UnforcedMoves != 1 || p.ChequerError != 0.020 || p.Records != 2 {
		t.Errorf("turned y: %+v", p)
	}
	if p := sum("turned", "x"); p.UnforcedMoves != 1 || p.ChequerError != 0.030 {
		t.Errorf("turned x: %+v", p)
	}
	if _, err := GroupDecisions(records, func(Decision) (string, error) { return "", errors.New("no key") }); err == nil {
		t.Error("a key's error is lost")
	}
}
