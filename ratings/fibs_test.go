package ratings

import (
	"math"
	"testing"
)

func TestFIBSExpectedPublishedTable(t *testing.T) {
	// The "batting average the favourite must achieve" table posted to
	// rec.games.backgammon (bkgm.com/rgb article 45), to three places.
	tests := []struct {
		diff float64
		n    int
		want float64
	}{
		{0, 7, 0.500},
		{100, 1, 0.529},
		{100, 5, 0.564},
		{200, 7, 0.648},
		{300, 3, 0.645},
		{400, 11, 0.822},
		{700, 9, 0.918},
	}
	for _, tc := range tests {
		got := FIBSExpected(tc.diff, tc.n)
		if math.Abs(got-tc.want) > 0.0005 {
			t.Errorf("FIBSExpected(%g, %d) = %.4f, want %.3f", tc.diff, tc.n, got, tc.want)
		}
		if back := FIBSExpected(-tc.diff, tc.n); !close(back, 1-got, 1e-12) {
			t.Errorf("FIBSExpected(%g, %d) = %g, want %g", -tc.diff, tc.n, back, 1-got)
		}
	}
	if !math.IsNaN(FIBSExpected(100, 0)) {
		t.Error("match length 0 should give NaN")
	}
}

func TestFIBSUpdate(t *testing.T) {
	// Favourite by 100 in a 5-point match: P_upset = 1/(10^(100*sqrt5/2000)+1)
	// = 0.436063; favourite's win moves 4*sqrt5*P_upset = 3.899648, an
	// upset moves 4*sqrt5*(1-P_upset) = 5.044624.
	tests := []struct {
		name          string
		rw, rl        float64
		n, expW, expL int
		wantW, wantL  float64
	}{
		{"equal experienced 1pt", 1500, 1500, 1, 500, 500, 1502, 1498},
		{"equal new 1pt", 1500, 1500, 1, 0, 0, 1510, 1490},
		{"favourite wins", 1600, 1500, 5, 1000, 1000, 1603.8996479, 1496.1003521},
		{"underdog wins", 1500, 1600, 5, 1000, 1000, 1505.0446240, 1594.9553760},
		// Winner at experience 250: K = 2.5; loser at 400: K = 1.
		{"ramp", 1500, 1500, 9, 250, 400, 1500 + 2.5*6, 1500 - 6},
		{"ramp floor", 1500, 1500, 4, 399, 5000, 1500 + 1.01*4, 1500 - 4},
		{"negative experience", 1500, 1500, 1, -50, 0, 1510, 1490},
		{"no match", 1600, 1500, 0, 0, 0, 1600, 1500},
	}
	for _, tc := range tests {
		w, l := FIBSUpdate(tc.rw, tc.rl, tc.n, tc.expW, tc.expL)
		if !close(w, tc.wantW, 1e-6) || !close(l, tc.wantL, 1e-6) {
			t.Errorf("%s: FIBSUpdate = (%.7f, %.7f), want (%.7f, %.7f)", tc.name, w, l, tc.wantW, tc.wantL)
		}
	}
}

func TestFIBSUpdateFairForExperienced(t *testing.T) {
	// Between experienced players the changes cancel, and a player who
	// wins exactly as often as FIBSExpected predicts has zero expected
	// change: p*gain = (1-p)*loss.
	const opp = 1700.0
	for _, n := range []int{1, 3, 7, 25} {
		for _, d := range []float64{-600, -50, 0, 80, 400} {
			us := opp + d
			usWin, oppLose := FIBSUpdate(us, opp, n, 400, 10000)
			if !close((usWin-us)+(oppLose-opp), 0, 1e-9) {
				t.Errorf("n=%d d=%g: not zero-sum", n, d)
			}
			_, usLose := FIBSUpdate(opp, us, n, 400, 400)
			p := FIBSExpected(d, n)
			if got := p*(usWin-us) - (1-p)*(us-usLose); !close(got, 0, 1e-9) {
				t.Errorf("n=%d d=%g: expected change %g, want 0", n, d, got)
			}
		}
	}
}
