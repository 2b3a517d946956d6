package server

import (
	"fmt"
	"strings"

	"github.com/gamemill/gamemill/formats/fibsboard"
)

// The ASCII boards FIBS draws for people (boardstyle 1 and 2), after the
// layout of FIBS's own board code: the player's home at the bottom right
// for O and the bottom left for X, five checkers a column with the count
// in the fifth row past five, the bar in the middle column (the
// opponent's checkers above, the player's below), the match length in the
// middle row, and a summary line of the bar, borne-off checkers, the cube
// and the last roll. Style 2 moves the point numbers outside the frame.
const (
	oTopNumbers    = "+13-14-15-16-17-18-------19-20-21-22-23-24-+"
	oBottomNumbers = "+12-11-10--9--8--7--------6--5--4--3--2--1-+"
	xTopNumbers    = "+-1--2--3--4--5--6--------7--8--9-10-11-12-+"
	xBottomNumbers = "+24-23-22-21-20-19-------18-17-16-15-14-13-+"
	frame          = "+------------------------------------------+"
	oTopStrip      = " 13 14 15 16 17 18       19 20 21 22 23 24"
	oBottomStrip   = " 12 11 10  9  8  7        6  5  4  3  2  1"
	xTopStrip      = "  1  2  3  4  5  6        7  8  9 10 11 12"
	xBottomStrip   = " 24 23 22 21 20 19       18 17 16 15 14 13"
)

// asciiBoard draws a CLIP board (seen by its player) in FIBS boardstyle 1
// or 2, one string a line.
func asciiBoard(b fibsboard.Board, style int) []string {
	o := b.Colour == 1
	me, them := "O", "X"
	top, bottom, topStrip, bottomStrip := oTopNumbers, oBottomNumbers, oTopStrip, oBottomStrip
	upper, lower := 13, 12 // first point of each half, left to right
	step := 1              // upper half counts up, lower half down
	if !o {
		me, them = "X", "O"
		top, bottom, topStrip, bottomStrip = xTopNumbers, xBottomNumbers, xTopStrip, xBottomStrip
		upper, lower = 1, 24
	}
	side := func(name string, score int, colour string) string {
		if len(name) > 15 {
			name = name[:15]
		}
		return fmt.Sprintf(" %s: %s - score: %d", colour, name, score)
	}
	var lines []string
	if style == 2 {
		lines = append(lines, "   "+topStrip, "   "+frame+side(b.Opponent, b.OpponentScore, them))
	} else {
		lines = append(lines, "   "+top+side(b.Opponent, b.OpponentScore, them))
	}
	for row := 1; row <= 5; row++ {
		lines = append(lines, boardRow(&b, row, upper, step, b.OpponentOnBar, them))
	}
	middle := "  v|                  |BAR|                   |"
	if !o {
		middle = "   |                  |BAR|                   |v"
	}
	if b.MatchLength == fibsboard.Money || b.MatchLength == 0 {
		middle += "    unlimited match"
	} else {
		middle += fmt.Sprintf("    %d-point match", b.MatchLength)
	}
	if b.PlayerMayDouble != 0 && b.OpponentMayDouble != 0 {
		middle += fmt.Sprintf(" - Cube: %d", b.Cube)
	}
	lines = append(lines, middle)
	for row := 5; row >= 1; row-- {
		lines = append(lines, boardRow(&b, row, lower, -step, b.PlayerOnBar, me))
	}
	if style == 2 {
		lines = append(lines, "   "+frame+side(b.Player, b.PlayerScore, me), "   "+bottomStrip)
	} else {
		lines = append(lines, "   "+bottom+side(b.Player, b.PlayerScore, me))
	}
	bar, off := [2]int{b.PlayerOnBar, b.OpponentOnBar}, [2]int{b.PlayerHome, b.OpponentHome}
	if !o { // the summary lists O first
		bar, off = [2]int{b.OpponentOnBar, b.PlayerOnBar}, [2]int{b.OpponentHome, b.PlayerHome}
	}
	summary := fmt.Sprintf("   BAR: O-%d X-%d   OFF: O-%d X-%d   Cube: %d", bar[0], bar[1], off[0], off[1], b.Cube)
	switch {
	case b.PlayerMayDouble == 0 && b.OpponentMayDouble != 0:
		summary += fmt.Sprintf(" (owned by %s)", b.Opponent)
	case b.PlayerMayDouble != 0 && b.OpponentMayDouble == 0:
		summary += fmt.Sprintf(" (owned by %s)", b.Player)
	}
	switch {
	case b.PlayerDice[0] != 0:
		summary += fmt.Sprintf("  %s rolled %d %d.", b.Player, b.PlayerDice[0], b.PlayerDice[1])
	case b.OpponentDice[0] != 0:
		summary += fmt.Sprintf("  %s rolled %d %d.", b.Opponent, b.OpponentDice[0], b.OpponentDice[1])
	}
	lines = append(lines, "", summary)
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// boardRow draws row (1 at the board's edge, 5 nearest the middle) of a
// half whose twelve points start at first and go by step; onBar checkers
// of colour sit on the bar of this half.
func boardRow(b *fibsboard.Board, row, first, step, onBar int, colour string) string {
	var sb strings.Builder
	sb.WriteString("   |")
	for i := 0; i < 12; i++ {
		if i == 6 {
			sb.WriteString("|" + barCell(row, onBar, colour) + "| ")
		}
		sb.WriteString(pointCell(b.Points[first+i*step], row))
	}
	sb.WriteString("|")
	return sb.String()
}

// pointCell is one point's cell in a row: O's checkers are positive, X's
// negative; the fifth row shows the count of a point with more than five.
func pointCell(n, row int) string {
	c := "O"
	if n < 0 {
		n, c = -n, "X"
	}
	switch {
	case row == 5 && n > 5:
		return fmt.Sprintf("%2d ", n)
	case n >= row:
		return " " + c + " "
	}
	return "   "
}

func barCell(row, n int, colour string) string {
	switch {
	case row == 5 && n > 5:
		return fmt.Sprintf("%2d ", n)
	case n >= row:
		return " " + colour + " "
	}
	return "   "
}
