package server

import (
	"fmt"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol/fibs"
)

var ordinals = [...]string{"first", "second", "third", "fourth"}

// moveError says in FIBS's words why steps (FIBS points, for a player
// moving in direction) are not a legal play of the roll in s: the number
// of moves, or the first step that cannot be made — from a point without
// a checker, before the checkers on the bar are in, a distance no die
// shows, onto a point the opponent holds, or a checker borne off too soon.
func moveError(s *bg.State, steps []fibs.Step, direction int) string {
	legal := s.LegalMoves()
	need := int(legal[0].N)
	if len(steps) < need {
		return fmt.Sprintf("** You must give %d move%s.", need, plural(need))
	}
	if len(steps) > need {
		return fmt.Sprintf("** Please don't give more than %d move%s.", need, plural(need))
	}
	b := s.BoardFor(s.Move)
	mine, theirs := b[bg.OnRoll], b[bg.Opponent]
	dice := []int{s.Dice[0], s.Dice[1]}
	if s.Dice[0] == s.Dice[1] {
		dice = append(dice, s.Dice[0], s.Dice[0])
	}
	for i, st := range steps {
		nth := ordinals[i]
		from, to := ownPoint(st.From, direction, 25), ownPoint(st.To, direction, 0)
		fromText := "the bar"
		if st.From != 0 {
			fromText = fmt.Sprint(st.From)
		}
		switch {
		case mine[bg.BarIndex] > 0 && from != 25:
			return fmt.Sprintf("** You have to remove pieces from the bar in your %s move.", nth)
		case mine[from-1] == 0:
			return fmt.Sprintf("** You can't move from %s in your %s move.", fromText, nth)
		case to >= from:
			return fmt.Sprintf("** You can't move from %s to %s in your %s move: that is the wrong way.", fromText, fibsPoint(st.To), nth)
		}
		die := -1
		if to > 0 {
			for j, d := range dice {
				if d == from-to {
					die = j
				}
			}
			if die < 0 {
				return fmt.Sprintf("** You can't move %d points in your %s move.", from-to, nth)
			}
			if theirs[24-to] >= 2 {
				return fmt.Sprintf("** You can't move to %d in your %s move.", st.To, nth)
			}
		} else {
			die = bearOffDie(mine, dice, from)
			if die < 0 {
				return fmt.Sprintf("** You can't remove this piece in your %s move.", nth)
			}
		}
		dice = append(dice[:die:die], dice[die+1:]...)
		if from == 25 {
			mine[bg.BarIndex]--
		} else {
			mine[from-1]--
		}
		if to > 0 {
			mine[to-1]++
			if theirs[24-to] == 1 {
				theirs[24-to], theirs[bg.BarIndex] = 0, theirs[bg.BarIndex]+1
			}
		}
	}
	return "** You must play as much of your roll as you can: that move leaves a die unplayed that could be played."
}

// ownPoint converts a FIBS point to the mover's own numbering (1..24 from
// its home); FIBS's 0 (the bar or off, by the side of the step) becomes
// zero.
func ownPoint(p, direction, zero int) int {
	if p == 0 {
		return zero
	}
	return int(fibsOwn(p, direction))
}

func fibsOwn(p, direction int) int8 {
	if direction == 1 {
		return int8(25 - p)
	}
	return int8(p)
}

func fibsPoint(p int) string {
	if p == 0 {
		return "off"
	}
	return fmt.Sprint(p)
}

// bearOffDie is the index in dice of the die that bears a checker off
// from (own numbering), or -1: every checker must be home, and the die
// shows the point exactly or is larger with no checker further back.
func bearOffDie(mine [25]int8, dice []int, from int) int {
	for p := 7; p <= 25; p++ {
		if mine[p-1] > 0 {
			return -1
		}
	}
	exact, larger := -1, -1
	for j, d := range dice {
		if d == from {
			exact = j
		} else if d > from && (larger < 0 || d < dice[larger]) {
			larger = j
		}
	}
	if exact >= 0 {
		return exact
	}
	if larger < 0 {
		return -1
	}
	for p := from + 1; p <= 6; p++ {
		if mine[p-1] > 0 {
			return -1
		}
	}
	return larger
}

// doubleError says in FIBS's words why seat may not double in s.
func doubleError(s *bg.State, seat int) string {
	switch {
	case !s.Rules.Cube:
		return "** Doubling is not allowed in this match."
	case s.CrawfordGame:
		return "** This is the Crawford game: no doubling allowed."
	case s.CubeOwner == 1-seat:
		return "** You can't double: your opponent owns the cube."
	}
	return "** You can't double now."
}
