package gnubgjudge

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/internal/peertest"
)

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// The statistics gnubg printed for its own reference match are read into
// the figures gnubg shows (match play: MWC percentages become fractions).
func TestParseStatisticsMatch(t *testing.T) {
	names, st, err := ParseStatistics(readFile(t, "testdata/gnubg-3pt-match.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if names != [2]string{"engineA", "engineB"} {
		t.Errorf("names %v", names)
	}
	a, b := st[0], st[1]
	if a.TotalMoves != 93 || b.TotalMoves != 91 || a.UnforcedMoves != 85 || b.UnforcedMoves != 66 || a.ForcedMoves != 8 {
		t.Errorf("moves %+v %+v", a, b)
	}
	if a.CubeDecisions != 33 || a.CloseCube != 4 || b.CloseCube != 6 || b.Doubles != 1 || a.Takes != 1 {
		t.Errorf("cube %+v %+v", a, b)
	}
	if a.VeryLucky != 5 || a.Lucky != 1 || a.Unlucky != 3 || b.Unlucky != 7 {
		t.Errorf("luck counts %+v %+v", a, b)
	}
	if !near(a.Luck, 0.742) || !near(a.LuckUnnorm, 0.18386) || !near(b.Luck, -2.125) {
		t.Errorf("luck %v (%v), %v", a.Luck, a.LuckUnnorm, b.Luck)
	}
	if !near(a.Result, 0.5) || !near(b.Result, -0.5) || !near(a.LuckAdjusted, -0.0379) || !near(b.LuckAdjusted, 0.0379) {
		t.Errorf("results %v %v, luck-adjusted %v %v", a.Result, b.Result, a.LuckAdjusted, b.LuckAdjusted)
	}
}

// Money play: unnormalised figures are points; error totals become
// positive; a missed double's count is read before its bracketed cost.
func TestParseStatisticsMoney(t *testing.T) {
	names, st, err := ParseStatistics(readFile(t, "testdata/bgbot-gnubg0-money.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if names != [2]string{"bgbot", "gnubg0"} {
		t.Errorf("names %v", names)
	}
	a, b := st[0], st[1]
	if !near(a.ChequerError, 0.014) || !near(a.ChequerUnnorm, 0.014) || !near(a.CubeError, 0.043) || !near(a.CubeUnnorm, 0.170) {
		t.Errorf("errors %+v", a)
	}
	if a.MissedDoubles != 1 || b.MissedDoubles != 0 || b.Drops != 1 || a.Doubles != 2 {
		t.Errorf("cube counts %+v %+v", a, b)
	}
	if !near(a.Result, 4) || !near(a.LuckAdjusted, -0.206) || !near(a.LuckUnnorm, 2.072) {
		t.Errorf("results %+v", a)
	}
}

// Output without statistics (gnubg could not import the record) is an
// error naming what is missing, as is a line read twice.
func TestParseStatisticsIncomplete(t *testing.T) {
	text := readFile(t, "testdata/gnubg-3pt-match.txt")
	cut := text[:strings.Index(text, "Cube statistics")]
	if _, _, err := ParseStatistics(cut); err == nil || !strings.Contains(err.Error(), "Cube statistics: Doubles") {
		t.Errorf("cut short: %v", err)
	}
	if _, _, err := ParseStatistics("No game in progress.\n"); err == nil || !strings.Contains(err.Error(), "no Player") {
		t.Errorf("no game: %v", err)
	}
	i := strings.Index(text, "Takes")
	twice := text[:i] + text[i:strings.Index(text[i:], "\n")+i+1] + text[i:]
	if _, _, err := ParseStatistics(twice); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("twice: %v", err)
	}
}

func FuzzParseStatistics(f *testing.F) {
	for _, name := range []string{"testdata/gnubg-3pt-match.txt", "testdata/bgbot-gnubg0-money.txt"} {
		f.Add(readFile(f, name))
	}
	f.Add("Player  a  b\nChequerplay statistics\nTotal moves  1  2\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, st, err := ParseStatistics(text)
		if err == nil && st[0].ForcedMoves != st[0].TotalMoves-st[0].UnforcedMoves {
			t.Errorf("forced moves %d of %d, %d unforced", st[0].ForcedMoves, st[0].TotalMoves, st[0].UnforcedMoves)
		}
	})
}

// With the real gnubg, judging a record gives what gnubg's own analysis
// of the same file prints, at 0 ply and at 1 ply (a deeper judge sees
// other errors).
func TestAnalyseMatWithGnubg(t *testing.T) {
	bin := peertest.Gnubg(t)
	mat := readFile(t, "../../../engine/bgbot/analysis/testdata/gnubg-3pt-match.mat")
	j, err := New(bin, 0)
	if err != nil {
		t.Fatal(err)
	}
	names, st, err := j.AnalyseMat(context.Background(), mat)
	if err != nil {
		t.Fatal(err)
	}
	_, want, err := ParseStatistics(readFile(t, "testdata/gnubg-3pt-match.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if names != [2]string{"engineA", "engineB"} || st != want {
		t.Errorf("got %v %+v\nwant %+v", names, st, want)
	}
	if _, err := New(bin, MaxPlies+1); err == nil {
		t.Error("depth beyond gnubg's: no error")
	}
	if _, _, err := j.AnalyseMat(context.Background(), "not a match\n"); err == nil {
		t.Error("a record gnubg cannot import: no error")
	}
	var zero [2]analysis.Stats
	if st == zero {
		t.Error("no figures")
	}
}
