package gnubg

import (
	"context"
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// CubefulEquity answers in money play per unit of the cube (owning a
// 2-cube and a 4-cube are worth the same), ranks cube ownership as it
// should, and in a match answers the winning chance of the player on roll
// at the right score.
func TestCubefulEquity(t *testing.T) {
	p := launch(t, Options{Plies: 0})
	ctx := context.Background()
	board, err := gnubgid.DecodePosition("4HPwATDgc/ABMA")
	if err != nil {
		t.Fatal(err)
	}
	eq := func(length, cube, owner int, score [2]int) float64 {
		t.Helper()
		s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard, MatchLength: length, Cube: true, Crawford: length > 0, Jacoby: length == 0})
		s.GameState, s.Board, s.CubeValue, s.CubeOwner, s.Score, s.Move, s.Turn = backgammon.GamePlaying, board, cube, owner, score, 1, 1
		x, err := p.CubefulEquity(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	centred, mine2, mine4, theirs := eq(0, 1, -1, [2]int{}), eq(0, 2, 1, [2]int{}), eq(0, 4, 1, [2]int{}), eq(0, 2, 0, [2]int{})
	t.Logf("money: centred %.4f, owned 2-cube %.4f, 4-cube %.4f, opponent's %.4f", centred, mine2, mine4, theirs)
	if math.Abs(mine2-mine4) > 1e-6 || !(mine2 > centred && centred > theirs) {
		t.Errorf("money: centred %.4f, owned 2-cube %.4f, 4-cube %.4f, opponent's %.4f", centred, mine2, mine4, theirs)
	}
	level, ahead, behind := eq(5, 1, -1, [2]int{}), eq(5, 1, -1, [2]int{0, 3}), eq(5, 1, -1, [2]int{3, 0})
	t.Logf("5-point match: 0-0 %.4f, leading 3-0 %.4f, trailing 0-3 %.4f", level, ahead, behind)
	if !(ahead > 0.7 && behind < 0.3 && level > 0.45 && level < 0.55) {
		t.Errorf("5-point match: 0-0 %.4f, leading 3-0 %.4f, trailing 0-3 %.4f", level, ahead, behind)
	}
	s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard})
	if _, err := p.CubefulEquity(ctx, s); err == nil {
		t.Error("no game in play: no error")
	}
}
