package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// MoverEquity's scale: in a match, winning and losing a single game at
// the cube are +1 and -1, and a gammon won lies beyond +1; in money play
// a result that ends the game is worth its points in cubes, a gammon
// single under the Jacoby rule with the cube centred, and the opponent's
// cubeful equity turns round.
func TestMoverEquity(t *testing.T) {
	// The mover has borne off all but one checker, the opponent none:
	// bearing it off wins a gammon.
	var gammon backgammon.Board
	gammon[backgammon.Opponent][10] = 15
	state := func(length, cube, owner int, score [2]int) *backgammon.State {
		s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard, MatchLength: length, Cube: true, Crawford: length > 0, Jacoby: length == 0})
		s.GameState, s.CubeValue, s.CubeOwner, s.Score = backgammon.GamePlaying, cube, owner, score
		return s
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: %.6f, want %.6f", what, got, want)
		}
	}
	m, err := NewMoverEquity(state(5, 2, 0, [2]int{1, 0}))
	if err != nil {
		t.Fatal(err)
	}
	near("match, a single game won", m.match(m.win), 1)
	near("match, a single game lost", m.match(m.lose), -1)
	near("match, the opponent's chance after a single game lost", m.Opponent(1-m.lose), -1)
	if x, over := m.Ended(&gammon); !over || !(x > 1) {
		t.Errorf("match, a gammon won: %.4f, %v; want above 1", x, over)
	}
	for _, c := range []struct {
		owner int
		want  float64
	}{{-1, 1}, {0, 2}} {
		e, err := NewMoverEquity(state(0, 2, c.owner, [2]int{}))
		if err != nil {
			t.Fatal(err)
		}
		if x, over := e.Ended(&gammon); !over || x != c.want {
			t.Errorf("money, cube owner %d: a gammon is worth %v, %v; want %v", c.owner, x, over, c.want)
		}
		near("money, the opponent's equity", e.Opponent(0.25), -0.25)
	}
	start := backgammon.Standard.StartBoard()
	if _, over := m.Ended(&start); over {
		t.Error("the start ends the game")
	}
	if _, err := NewMoverEquity(backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard})); err == nil {
		t.Error("no game in play: no error")
	}
}
