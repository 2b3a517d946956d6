package verdict

import (
	"math"
	"os"
	"strings"
	"testing"
)

func readText(t testing.TB, name string) string {
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
func TestReadStatisticsMatch(t *testing.T) {
	s, err := ReadStatistics(readText(t, "testdata/statistics-3pt-match.txt"), true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Names != [2]string{"engineA", "engineB"} {
		t.Errorf("names %v", s.Names)
	}
	a, b := s.Stats[0], s.Stats[1]
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
func TestReadStatisticsMoney(t *testing.T) {
	s, err := ReadStatistics(readText(t, "testdata/statistics-money-cube.txt"), true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Names != [2]string{"bgbot", "gnubg0"} {
		t.Errorf("names %v", s.Names)
	}
	a, b := s.Stats[0], s.Stats[1]
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

// An analysis of the cube decisions alone has no chequer play section: it
// is read when chequer play is not asked for, and is short of it when it
// is.
func TestReadStatisticsCubeOnly(t *testing.T) {
	text := readText(t, "testdata/statistics-3pt-cube-only.txt")
	s, err := ReadStatistics(text, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.Names != [2]string{"engineA", "engineB"} || s.Stats[0].CloseCube != 4 || s.Stats[1].CloseCube != 6 || s.Stats[0].UnforcedMoves != 0 {
		t.Errorf("cube only: %v %+v", s.Names, s.Stats)
	}
	if _, err := ReadStatistics(text, true); err == nil || !strings.Contains(err.Error(), "Chequerplay statistics: Unforced moves") {
		t.Errorf("cube only read as a full analysis: %v", err)
	}
}

// Output without statistics (gnubg could not import the record) is an
// error naming what is missing, as is a line read twice, a player line
// that does not name two players and a positive error total.
func TestReadStatisticsIncomplete(t *testing.T) {
	text := readText(t, "testdata/statistics-3pt-match.txt")
	cut := text[:strings.Index(text, "Cube statistics")]
	if _, err := ReadStatistics(cut, true); err == nil || !strings.Contains(err.Error(), "Cube statistics: Doubles") {
		t.Errorf("cut short: %v", err)
	}
	if _, err := ReadStatistics("No game in progress.\n", false); err == nil || !strings.Contains(err.Error(), "no Player") {
		t.Errorf("no game: %v", err)
	}
	i := strings.Index(text, "Takes")
	twice := text[:i] + text[i:strings.Index(text[i:], "\n")+i+1] + text[i:]
	if _, err := ReadStatistics(twice, true); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("twice: %v", err)
	}
	one := strings.Replace(text, "engineA                 engineB", "engineA", 1)
	if _, err := ReadStatistics(one, true); err == nil || !strings.Contains(err.Error(), "does not name two players") {
		t.Errorf("one player: %v", err)
	}
	positive := strings.Replace(text, "Error total EMG (MWC)                         -0.000", "Error total EMG (MWC)                         +0.500", 1)
	if _, err := ReadStatistics(positive, true); err == nil || !strings.Contains(err.Error(), "not at most zero") {
		t.Errorf("positive error total: %v", err)
	}
}

// An unfinished game (gnubg's statistics of a money game stopped after six
// moves each, from a start position; testdata/statistics-money-unfinished
// .txt) has no result lines: the result is none, and the luck-adjusted one
// the result less the luck difference, as gnubg's own (checked on finished
// games: +4 less (+0.109 - -1.231) is gnubg's +2.660).
func TestReadStatisticsUnfinished(t *testing.T) {
	text := readText(t, "testdata/statistics-money-unfinished.txt")
	s, err := ReadStatistics(text, true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Names != [2]string{"noisy", "net"} || s.Stats[0].TotalMoves != 6 || s.Stats[0].LuckUnnorm != 0.109 || s.Stats[1].LuckUnnorm != -1.231 {
		t.Errorf("read %v %+v", s.Names, s.Stats)
	}
	for i, want := range [2]float64{-1.34, 1.34} {
		if st := s.Stats[i]; st.Result != 0 || math.Abs(st.LuckAdjusted-want) > 1e-9 {
			t.Errorf("side %d: result %v, luck-adjusted %v; want 0 and %v", i, st.Result, st.LuckAdjusted, want)
		}
	}
	// One result line without the other is still an error.
	finished := readText(t, "testdata/statistics-money-cube.txt")
	i := strings.Index(finished, "Luck adjusted result")
	cut := finished[:i] + finished[strings.Index(finished[i:], "\n")+i+1:]
	if _, err := ReadStatistics(cut, true); err == nil || !strings.Contains(err.Error(), "Luck adjusted result") {
		t.Errorf("one result line: %v", err)
	}
}

func FuzzReadStatistics(f *testing.F) {
	for _, name := range []string{"testdata/statistics-3pt-match.txt", "testdata/statistics-money-cube.txt",
		"testdata/statistics-3pt-cube-only.txt", "testdata/statistics-match5.txt", "testdata/statistics-money.txt",
		"testdata/statistics-money-unfinished.txt"} {
		f.Add(readText(f, name), true)
	}
	f.Add("Player  a  b\nChequerplay statistics\nTotal moves  1  2\n", false)
	f.Fuzz(func(t *testing.T, text string, chequer bool) {
		s, err := ReadStatistics(text, chequer)
		if err != nil {
			return
		}
		for _, st := range s.Stats {
			if st.ForcedMoves != st.TotalMoves-st.UnforcedMoves {
				t.Errorf("forced moves %d of %d, %d unforced", st.ForcedMoves, st.TotalMoves, st.UnforcedMoves)
			}
			if !(st.ChequerError >= 0) || !(st.CubeError >= 0) {
				t.Fatalf("accepted a negative or NaN error: %+v", st)
			}
		}
	})
}
