package server

import (
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// position is a game in play with the mover's checkers and the
// opponent's, each by its own point numbers (25: the bar).
func position(mine, theirs map[int]int8, d0, d1 int) *bg.State {
	s := bg.NewMatch(bg.Rules{Cube: true})
	s.GameState, s.Dice = bg.GamePlaying, [2]int{d0, d1}
	for p, n := range mine {
		s.Board[bg.OnRoll][p-1] = n
	}
	for p, n := range theirs {
		s.Board[bg.Opponent][p-1] = n
	}
	return s
}

// Each refused move gets FIBS's reason for its first step that cannot be
// made, in the mover's own FIBS point numbers, for both directions.
func TestMoveErrorsInFIBSWords(t *testing.T) {
	home := map[int]int8{6: 5, 5: 5, 4: 5}
	cases := []struct {
		name      string
		s         *bg.State
		direction int
		move      string
		want      string
	}{
		{"too few", position(home, map[int]int8{24: 15}, 3, 1), -1, "6-3", "** You must give 2 moves."},
		{"too many", position(home, map[int]int8{24: 15}, 3, 1), -1, "6-3 5-4 4-3", "** Please don't give more than 2 moves."},
		{"doubles: four moves", position(home, map[int]int8{24: 15}, 2, 2), -1, "6-4 6-4 5-3", "** You must give 4 moves."},
		{"no checker there", position(map[int]int8{13: 15}, map[int]int8{24: 15}, 3, 1), -1, "8-5 13-12", "** You can't move from 8 in your first move."},
		{"no die for it", position(map[int]int8{13: 15}, map[int]int8{24: 15}, 3, 1), -1, "13-10 13-11", "** You can't move 2 points in your second move."},
		{"the bar first", position(map[int]int8{25: 1, 13: 14}, map[int]int8{1: 15}, 3, 1), -1, "13-10 bar-24", "** You have to remove pieces from the bar in your first move."},
		{"held point", position(map[int]int8{8: 3, 6: 12}, map[int]int8{20: 2, 24: 13}, 3, 1), -1, "8-5 6-5", "** You can't move to 5 in your first move."},
		{"bear off too soon", position(map[int]int8{8: 1, 6: 14}, map[int]int8{24: 15}, 6, 5), -1, "6-off 6-1", "** You can't remove this piece in your first move."},
		{"bear off past a checker", position(map[int]int8{6: 2, 3: 13}, map[int]int8{1: 15}, 5, 4), -1, "3-off 6-2", "** You can't remove this piece in your first move."},
		{"the wrong way", position(map[int]int8{13: 15}, map[int]int8{24: 15}, 3, 1), -1, "13-16 13-14", "** You can't move from 13 to 16 in your first move: that is the wrong way."},
		// X moves from 1 to 24: FIBS point p is X's own point 25-p.
		{"X: no checker there", position(map[int]int8{24: 2, 13: 13}, map[int]int8{24: 15}, 3, 1), 1, "2-5 1-2", "** You can't move from 2 in your first move."},
		{"X: held point", position(map[int]int8{24: 2, 13: 13}, map[int]int8{24: 2, 4: 13}, 3, 1), 1, "1-4 1-2", "** You can't move to 4 in your first move."},
		{"X: bear off too soon", position(map[int]int8{7: 1, 6: 14}, map[int]int8{24: 15}, 6, 1), 1, "19-off 18-19", "** You can't remove this piece in your first move."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			steps, err := fibs.ParseSteps(c.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := moveError(c.s, steps, c.direction); got != c.want {
				t.Errorf("move %s: %q, want %q", c.move, got, c.want)
			}
		})
	}
}
