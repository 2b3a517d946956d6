package bgbot

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMatchCubeAgainstGnubg feeds gnubg's own 0-ply probabilities for 260
// cube decisions of five-point matches (testdata/gnubg-match-cube.tsv)
// into bgbot's match cube model and compares the cubeful equities with
// gnubg's. With the same probabilities the two models should agree: the
// decision (double or not, take or pass) every time, the equities closely.
// The money-formula take points this replaced doubled in 122 of the 138
// positions where bgbot had doubled, against gnubg's 53; and after the
// Crawford game they priced the trailer's cube as dead.
func TestMatchCubeAgainstGnubg(t *testing.T) {
	f, err := os.Open("testdata/gnubg-match-cube.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bot, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	var n, decisions, takes int
	var worst, sum float64
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 11 {
			t.Fatalf("line %d: %d columns", line, len(c))
		}
		var v [9]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(c[2+i], 64); err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
		}
		s := cubePosition(t, c[0], c[1])
		p := Probs{float32(v[0]), float32(v[1]), float32(v[2]), float32(v[4]), float32(v[5])}
		ce, err := bot.matchCube(s, p, CubeEfficiencyOf(&s.Board))
		if err != nil {
			t.Fatal(err)
		}
		// gnubg's normalisation: +1 for a pass, -1 for losing a single game
		// at the cube.
		mi, _ := bot.matchInfo(s, s.Move)
		win, lose := ce.DoublePass, bot.met.Win(mi.me, mi.opp-s.CubeValue, mi.postCrawford)
		norm := func(m float64) float64 { return (2*m - win - lose) / (win - lose) }
		nd, dt := norm(ce.NoDouble), norm(ce.DoubleTake)
		gnd, gdt, gdp := v[6], v[7], v[8]
		if testing.Verbose() && max(math.Abs(nd-gnd), math.Abs(dt-gdt)) > 0.05 {
			t.Logf("line %d %s %s score %v cube %d owner %d crawford %v/%v: nd %+.3f/%+.3f dt %+.3f/%+.3f", line, c[0], c[1], s.Score, s.CubeValue, s.CubeOwner, s.CrawfordGame, s.PostCrawford, nd, gnd, dt, gdt)
		}
		for _, d := range []float64{nd - gnd, dt - gdt} {
			worst = max(worst, math.Abs(d))
			sum += math.Abs(d)
		}
		n++
		if s.CanDouble() {
			decisions++
			// A tie within gnubg's three decimals decides nothing.
			if got, want := ce.ShouldDouble(), min(gdt, gdp) > gnd; got != want && math.Abs(min(gdt, gdp)-gnd) > 0.002 {
				t.Errorf("line %d (%s %s): double %v, gnubg %v: ours no double %+.3f double/take %+.3f, gnubg %+.3f %+.3f",
					line, c[0], c[1], got, want, nd, dt, gnd, gdt)
			}
		}
		if got, want := dt > 1, gdt > gdp; got != want && math.Abs(gdt-gdp) > 0.01 {
			t.Errorf("line %d (%s %s): taker passes %v, gnubg %v (double/take %+.3f, gnubg %+.3f)", line, c[0], c[1], got, want, dt, gdt)
		} else {
			takes++
		}
	}
	if n < 200 || decisions < 100 {
		t.Fatalf("%d positions, %d doubling decisions: testdata too small", n, decisions)
	}
	mean := sum / float64(2*n)
	t.Logf("%d positions (%d doubling decisions): mean |difference| %.4f, largest %.4f", n, decisions, mean, worst)
	if mean > 0.005 {
		t.Errorf("mean difference from gnubg's equities %.4f, want at most 0.005", mean)
	}
}
