// Package gogame holds the rules of Go (weiqi, baduk): boards from 2x2 to
// 25x25, captures, suicide forbidden, simple ko always and positional
// superko as a setting, passes (two in a row end the game), area scoring
// with komi, the GTP fixed-handicap layout and free placement, and GTP and
// SGF vertices.
//
// Two levels: Game is what a referee uses (turns, history, superko, errors
// that say why a move is illegal); Position is the bare board under it,
// built for speed, with a random playout for Monte Carlo players.
package gogame

import (
	"errors"
	"fmt"
)

// MinSize and MaxSize bound the board size; GTP vertices run out of
// letters at 25.
const (
	MinSize = 2
	MaxSize = 25
)

// Color is the colour of a point: Empty, Black or White.
type Color int8

const (
	Empty Color = iota
	Black
	White
	border // outside the board, in Position's padded arrays
)

// Opponent returns White for Black and Black for White (and nothing
// meaningful for Empty).
func (c Color) Opponent() Color { return 3 - c }

func (c Color) String() string {
	switch c {
	case Empty:
		return "empty"
	case Black:
		return "black"
	case White:
		return "white"
	}
	return fmt.Sprintf("Color(%d)", int(c))
}

// Move is a point on the board or a pass. Points count from the bottom
// left: At(0, 0) is A1.
type Move int16

// Pass is the move that places no stone.
const Pass Move = -1

// offBoard is what At gives for coordinates no board has.
const offBoard Move = -2

// At returns the move at column col and row row, both counted from 0, row
// 0 at the bottom (GTP row 1). Coordinates outside 0..MaxSize-1 give a
// move that every board rejects with ErrOffBoard.
func At(col, row int) Move {
	if col < 0 || row < 0 || col >= MaxSize || row >= MaxSize {
		return offBoard
	}
	return Move(row*MaxSize + col)
}

// Col returns the move's column from the left, from 0; -1 for a pass.
func (m Move) Col() int {
	if m < 0 {
		return -1
	}
	return int(m) % MaxSize
}

// Row returns the move's row from the bottom, from 0; -1 for a pass.
func (m Move) Row() int {
	if m < 0 {
		return -1
	}
	return int(m) / MaxSize
}

// OnBoard reports whether m is a point of a size x size board.
func (m Move) OnBoard(size int) bool {
	return m >= 0 && m.Col() < size && m.Row() < size
}

// Why a move is refused. Game.Play and Position.Play wrap them with the
// colour and the move; test with errors.Is.
var (
	ErrOccupied  = errors.New("point is occupied")
	ErrSuicide   = errors.New("suicide")
	ErrKo        = errors.New("retakes a ko")
	ErrSuperko   = errors.New("repeats an earlier position (superko)")
	ErrOffBoard  = errors.New("off the board")
	ErrWrongTurn = errors.New("not this colour's turn")
	ErrGameOver  = errors.New("game is over")
)

func moveError(c Color, m Move, err error) error {
	return fmt.Errorf("%v %v: %w", c, m, err)
}
