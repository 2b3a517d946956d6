package bgbot

import (
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
