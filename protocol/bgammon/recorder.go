package bgammon

import (
	"fmt"
	"strings"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
)

// recorder writes a match's record from the boards the server sends: the
// receiver is player 0, the opponent player 1. A roll is read from the
// board that shows the dice, a move from the board at the end of the
// turn (the legal move of the roll that leads to it), a take from the
// cube's new value, a drop or a resignation from the win event. Move
// events are never read, so a move taken back with reset, or steps
// sent one at a time, cannot put the record out of step.
type recorder struct {
	me  string
	b   *record.Builder
	err error // the first inconsistency; the record stops there
}

func newRecorder(me, opp string, length int) *recorder {
	r := &recorder{me: strings.ToLower(me)}
	r.b = record.NewBuilder([2]string{me, opp}, record.DefaultRules(length))
	return r
}

func (r *recorder) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *recorder) do(what string, err error) bool {
	if err != nil {
		r.fail("%s: %w", what, err)
		return false
	}
	return true
}

// board takes the next canonical board of the match.
func (r *recorder) board(cur *GameState) {
	for r.err == nil && r.step(cur) {
	}
}

// step records one action the board shows beyond the record, and
// reports whether it did.
func (r *recorder) step(cur *GameState) bool {
	s := r.b.State()
	if s.GameState != bg.GamePlaying {
		if cur.Turn == 0 || cur.Winner != 0 || cur.Roll1 == 0 || cur.Roll2 == 0 {
			return false
		}
		if s.Score != [2]int{cur.Player1.Points, cur.Player2.Points} {
			r.fail("the server's score %d-%d differs from the record's %d-%d",
				cur.Player1.Points, cur.Player2.Points, s.Score[0], s.Score[1])
			return false
		}
		return r.do("opening roll", r.b.Roll(cur.Turn-1, cur.Roll1, cur.Roll2))
	}
	seat := s.Move + 1
	switch s.Decision() {
	case bg.DecideMove:
		if cur.Winner == 0 && cur.Turn == seat && cur.Roll1 != 0 {
			return false // the turn goes on
		}
		if cur.Winner == 0 && cur.Turn == 0 {
			return false // the next game's opening: the last move comes from the win
		}
		me, opp := cur.Sides()
		target := bg.Board{bg.Opponent: opp, bg.OnRoll: me}
		if s.Move == 1 {
			target = bg.Board{bg.Opponent: me, bg.OnRoll: opp}
		}
		moves, boards := bg.LegalMoves(s.Board, s.Dice[0], s.Dice[1])
		for i := range boards {
			if boards[i] == target {
				return r.do("move", r.b.Play(s.Move, moves[i]))
			}
		}
		r.fail("no legal move for %d%d leads from the board before the turn to the server's board", s.Dice[0], s.Dice[1])
		return false
	case bg.DecideCube, bg.NeedRoll:
		if cur.Winner != 0 || cur.Turn != seat {
			return false
		}
		if cur.DoubleOffered {
			return r.do("double", r.b.Double(s.Move))
		}
		if cur.Roll1 != 0 && cur.Roll2 != 0 {
			return r.do("roll", r.b.Roll(s.Move, cur.Roll1, cur.Roll2))
		}
	case bg.DecideTake:
		if cur.Winner == 0 && !cur.DoubleOffered && cur.DoubleValue == 2*s.CubeValue {
			return r.do("take", r.b.Take(1-s.Move))
		}
	}
	return false
}

// win takes a win event: a dropped double, a resignation, or a game borne
// off whose last board was not seen.
func (r *recorder) win(e Win) {
	if r.err != nil {
		return
	}
	s := r.b.State()
	if s.GameState != bg.GamePlaying {
		return
	}
	winner := 1
	if strings.EqualFold(e.Player, r.me) {
		winner = 0
	}
	switch {
	case s.Decision() == bg.DecideTake:
		if winner != s.Move {
			r.fail("the doubler lost the game while the double was on offer")
			return
		}
		r.do("drop", r.b.Drop(1-s.Move))
	case e.Resigned != "":
		level := bg.Single
		if e.Points > 0 && s.CubeValue > 0 {
			level = bg.Result(e.Points / s.CubeValue)
		}
		if level < bg.Single || level > bg.Backgammon {
			r.fail("resignation worth %d points with the cube at %d", e.Points, s.CubeValue)
			return
		}
		if r.do("resign", r.b.Resign(1-winner, level)) {
			r.do("accept resignation", r.b.AcceptResignation(winner))
		}
	case s.Decision() == bg.DecideMove && s.Move == winner:
		// Any move that bears off the last checker leaves the same board.
		moves, boards := bg.LegalMoves(s.Board, s.Dice[0], s.Dice[1])
		for i := range boards {
			if boards[i].OnBoard(bg.OnRoll) == 0 {
				r.do("last move", r.b.Play(s.Move, moves[i]))
				return
			}
		}
		r.fail("%s won, but no move of %d%d bears off the last checker", e.Player, s.Dice[0], s.Dice[1])
	default:
		r.fail("%s won at a point the record cannot explain (%s)", e.Player, s.Decision())
	}
}

// forfeit ends the game in play with the loser forfeiting (an opponent
// who left and never came back).
func (r *recorder) forfeit(loser int, reason string) {
	if r.err != nil || r.b.State().GameState != bg.GamePlaying {
		return
	}
	r.do("forfeit", r.b.Forfeit(loser, reason))
}

// match returns the record: whole when it never fell out of step, else
// its finished games, with a comment saying where it stopped.
func (r *recorder) match() *record.Match {
	m := r.b.Match().Clone()
	if r.err != nil {
		for len(m.Games) > 0 && !m.Games[len(m.Games)-1].Finished() {
			m.Games = m.Games[:len(m.Games)-1]
		}
		m.Comment = "record stopped: " + r.err.Error()
	}
	return m
}
