package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// cubePosition decodes a gnubg position and match ID into a state.
func cubePosition(t *testing.T, pos, match string) *backgammon.State {
	t.Helper()
	s, err := gnubgid.DecodeState(pos, match, backgammon.Rules{Crawford: true, Cube: true})
	if err != nil {
		t.Fatalf("decode %s:%s: %v", pos, match, err)
	}
	return s
}

// At 3-0 in a 5-point match the leader's double to 2 reaches its own need,
// but the trailer's redouble to 4 is very much alive: with 54% the leader
// must not double (gnubg 1.07: wrong double, -0.781). The bug priced the
// double/take as if the cube died with it.
func TestMatchCubeLeaderRedoubleAlive(t *testing.T) {
	bot, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	s := cubePosition(t, "hmfwATDgc/AJIA", "MAGgADAAAAAE")
	if s.MatchLength != 5 || s.Score != [2]int{3, 0} || s.Move != 0 || s.CubeValue != 1 {
		t.Fatalf("decoded %d-point match, score %v, move %d, cube %d", s.MatchLength, s.Score, s.Move, s.CubeValue)
	}
	ce, err := bot.Cube(s)
	if err != nil {
		t.Fatal(err)
	}
	if ce.ShouldDouble() {
		t.Errorf("leader doubles at 3-0 of 5 with %.3f wins: %+v", bot.Probs(s.Board)[Win], ce)
	}
	double, err := bot.Double(s)
	if err != nil || double {
		t.Errorf("Double = %v, %v; want false", double, err)
	}
	// The same probabilities with the redouble ignored (the old dead-cube
	// pricing) would have doubled: the redouble is what makes it wrong.
	mi, _ := bot.matchInfo(s, s.Move)
	p := bot.Probs(s.Board)
	if dead := bot.met.mwc(p, mi, 2); !(dead > bot.met.mwc(p, mi, 1)) || !(ce.DoubleTake < dead) {
		t.Errorf("the trailer's redouble should cost the doubler: live double/take %.4f, dead %.4f", ce.DoubleTake, dead)
	}
}

// Money positions the issue names, with gnubg 1.07's verdicts: at
// sNvIDBDMbsIDIA gnubg gives the player on roll 48.1% ("No double,
// beaver"); at pNvgBwDDnhkHAA it gives the doubler 88% (pass). The 0-ply
// net misjudges both (56.3% and 78%); the cube decision judged deeper
// (Config.CubePlies) gets them right.
func TestMoneyCubePositions(t *testing.T) {
	cases := []struct {
		pos       string
		cubePlies int
		double    bool // the player on roll doubles
		pass      bool // and the opponent should pass
	}{
		{"sNvIDBDMbsIDIA", 1, false, false},
		{"pNvgBwDDnhkHAA", 2, true, true},
	}
	for _, c := range cases {
		bot, err := NewBot(Config{Level: LevelNet, CubePlies: c.cubePlies})
		if err != nil {
			t.Fatal(err)
		}
		s := cubePosition(t, c.pos, "cAkAAAAAAAAA")
		ce, err := bot.Cube(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := ce.ShouldDouble(); got != c.double {
			t.Errorf("%s at %d plies: double %v, want %v (%+v)", c.pos, c.cubePlies, got, c.double, ce)
		}
		if got := ce.DoubleTake > ce.DoublePass; got != c.pass {
			t.Errorf("%s at %d plies: pass %v, want %v (%+v)", c.pos, c.cubePlies, got, c.pass, ce)
		}
	}
}

func TestCubeEfficiencyOf(t *testing.T) {
	cases := []struct {
		pos  string
		want float64
	}{
		{"4HPwATDgc/ABMA", CubeEfficiency}, // the opening position: contact
		{"pNvgBwDDnhkHAA", CubeEfficiency}, // the midpoint still held
	}
	for _, c := range cases {
		b, err := gnubgid.DecodePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := CubeEfficiencyOf(&b); got != c.want {
			t.Errorf("%s: x = %v, want %v", c.pos, got, c.want)
		}
	}
	// Races: the pip-count formula and its bounds; both sides home: 0.6.
	// Index i of a side is its point i+1.
	var b backgammon.Board
	b[backgammon.OnRoll][5], b[backgammon.Opponent][5] = 15, 15
	if got := CubeEfficiencyOf(&b); got != BearoffCubeEfficiency {
		t.Errorf("all home: x = %v", got)
	}
	race := func(pips int) float64 {
		var b backgammon.Board
		b[backgammon.Opponent][5] = 15
		b[backgammon.OnRoll][0] = 1 // the rest of the pips on 8 and 1
		b[backgammon.OnRoll][7] = int8((pips - 1) / 8)
		b[backgammon.OnRoll][0] += int8((pips - 1) % 8)
		if got := b.Pips(backgammon.OnRoll); got != pips {
			t.Fatalf("built %d pips, want %d", got, pips)
		}
		return CubeEfficiencyOf(&b)
	}
	if got := race(33); got != RaceCubeEfficiencyMin {
		t.Errorf("33-pip race: x = %v, want the minimum", got)
	}
	if got, want := race(81), RaceCubeEfficiencyBase+81*RaceCubeEfficiencyPerPip; math.Abs(got-want) > 1e-12 {
		t.Errorf("81-pip race: x = %v, want %v", got, want)
	}
	if got := race(121); got != RaceCubeEfficiencyMax {
		t.Errorf("121-pip race: x = %v, want the maximum", got)
	}
}

// Under a money cube limit, a double to the limit leaves the taker a dead
// cube: double/take is priced without the taker's recube vig, which makes
// the double better for the doubler than with a live cube.
func TestMoneyCubeAtLimit(t *testing.T) {
	bot, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	s := cubePosition(t, "sNvIDBDMbsIDIA", "cAkAAAAAAAAA")
	free, err := bot.Cube(s)
	if err != nil {
		t.Fatal(err)
	}
	s.CubeLimit = 2
	capped, err := bot.Cube(s)
	if err != nil {
		t.Fatal(err)
	}
	dead := 2 * janowskiDead(bot.probsAt(s.Board, 0))
	if math.Abs(capped.DoubleTake-dead) > 1e-9 || !(capped.DoubleTake > free.DoubleTake) {
		t.Errorf("double/take to the limit %.4f, want the dead-cube %.4f above the live %.4f", capped.DoubleTake, dead, free.DoubleTake)
	}
	if capped.NoDouble != free.NoDouble {
		t.Errorf("no double changed with the limit: %.4f against %.4f", capped.NoDouble, free.NoDouble)
	}
	s.CubeLimit = 4
	if again, _ := bot.Cube(s); again != free {
		t.Errorf("a limit two doubles away changed the equities: %+v against %+v", again, free)
	}
}

// TestCubeMargins moves a double and a take across the model's decision
// by a margin just beyond the model's own gap, in money play (by
// MoneyDoubleMargin, DoubleMargin left alone there) and in a match (by
// DoubleMargin, in equity scaled to match winning chances).
func TestCubeMargins(t *testing.T) {
	for _, c := range []struct{ pos, match string }{
		{"pNvgBwDDnhkHAA", "cAkAAAAAAAAA"}, // money, a double
		{"pNvgBwDDnhkHAA", "MAGgACAAAAAE"}, // 5-point match, 2-0
	} {
		plain, err := NewBot(Config{Level: LevelNet})
		if err != nil {
			t.Fatal(err)
		}
		s := cubePosition(t, c.pos, c.match)
		ce, err := plain.Cube(s)
		if err != nil {
			t.Fatal(err)
		}
		scale := plain.equityScale(s)
		gap := (min(ce.DoubleTake, ce.DoublePass) - ce.NoDouble) / scale // > 0: double
		margin := func(m float64, double bool) {
			t.Helper()
			cfg := Config{Level: LevelNet, DoubleMargin: m, MoneyDoubleMargin: -1}
			if s.Money() {
				cfg.DoubleMargin, cfg.MoneyDoubleMargin = 1, m
			}
			bot, err := NewBot(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := bot.Double(s); err != nil || got != double {
				t.Errorf("%s %s: margin %.4f (gap %.4f): double %v, %v; want %v", c.pos, c.match, m, gap, got, err, double)
			}
		}
		margin(gap-0.001, true)
		margin(gap+0.001, false)

		if err := s.Double(); err != nil {
			t.Fatal(err)
		}
		passGap := (ce.DoublePass - ce.DoubleTake) / scale // > 0: take
		answer := func(m float64, want backgammon.Answer) {
			t.Helper()
			bot, err := NewBot(Config{Level: LevelNet, PassMargin: m})
			if err != nil {
				t.Fatal(err)
			}
			if got, err := bot.Take(s); err != nil || got != want {
				t.Errorf("%s %s: pass margin %.4f (gap %.4f): %v, %v; want %v", c.pos, c.match, m, passGap, got, err, want)
			}
		}
		answer(passGap-0.001, backgammon.Take)
		answer(passGap+0.001, backgammon.Drop)
	}
	if _, err := NewBot(Config{Level: LevelNet, DoubleMargin: math.NaN()}); err == nil {
		t.Error("a NaN margin: no error")
	}
}
