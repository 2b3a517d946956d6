package bgbot

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestMatchLive(t *testing.T) {
	met, err := NewMET(25, DefaultGammonRate)
	if err != nil {
		t.Fatal(err)
	}
	l := liveMatch{m: met}
	prev := -1.0
	for w := float32(0); w <= 1.0001; w += 0.01 {
		p := Probs{Win: min(w, 1)}
		v := l.centred(7, 7, 1, p, float64(p[Win]))
		if v < met.Win(7, 6, false)-1e-6 || v > met.Win(6, 7, false)+1e-6 { // float32 probabilities
			t.Fatalf("w=%.2f: centred live chance %.4f outside [lose 1, win 1]", w, v)
		}
		if v < prev-1e-6 {
			t.Fatalf("w=%.2f: live chance %.4f falls below %.4f", w, v, prev)
		}
		prev = v
	}
	// Owning the cube is worth more than a centred one, which is worth more
	// than the opponent owning it.
	p := Probs{Win: 0.6, WinGammon: 0.1, LoseGammon: 0.05}
	w := float64(p[Win])
	own, centred, theirs := l.owned(7, 7, 1, p, w), l.centred(7, 7, 1, p, w), l.opponentOwns(7, 7, 1, p, w)
	if !(own >= centred && centred >= theirs) {
		t.Errorf("cube access should help: owned %.4f centred %.4f opponent's %.4f", own, centred, theirs)
	}
}

func TestMatchCubeDecisions(t *testing.T) {
	bot, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	s := backgammon.NewMatch(backgammon.Rules{MatchLength: 9, Crawford: true, Cube: true})
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		win            float32
		double, passes bool
	}{
		{0.55, false, false},
		{0.72, true, false},
		{0.90, true, true},
	}
	for _, c := range cases {
		ce, err := bot.matchCube(s, s.Move, Probs{Win: c.win}, CubeEfficiency)
		if err != nil {
			t.Fatal(err)
		}
		if got := ce.ShouldDouble(); got != c.double {
			t.Errorf("win %.2f at 9-away/9-away: double %v, want %v (%+v)", c.win, got, c.double, ce)
		}
		if got := ce.DoubleTake > ce.DoublePass; got != c.passes {
			t.Errorf("win %.2f: the taker passes %v, want %v (%+v)", c.win, got, c.passes, ce)
		}
	}
	// At 2-away/2-away with the cube at 1 a double kills the cube: the
	// double/take equity is the dead-cube one, but no double keeps both
	// sides' (match-deciding) doubles alive, so a 60% favourite doubles.
	s.Score = [2]int{7, 7}
	p := Probs{Win: 0.6}
	ce, err := bot.matchCube(s, s.Move, p, CubeEfficiency)
	if err != nil {
		t.Fatal(err)
	}
	mi, _ := bot.matchInfo(s, s.Move)
	if ce.DoubleTake != bot.met.mwc(p, mi, 2) || ce.NoDouble == bot.met.mwc(p, mi, 1) {
		t.Errorf("at 2-away/2-away: %+v (dead no double %.4f, dead double/take %.4f)", ce, bot.met.mwc(p, mi, 1), bot.met.mwc(p, mi, 2))
	}
	if !ce.ShouldDouble() {
		t.Errorf("at 2-away/2-away a 60%% favourite should double: %+v", ce)
	}
}
