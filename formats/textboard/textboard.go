// Package textboard draws a backgammon position as GNU Backgammon's text
// interface draws it for `show board`: the position and match IDs, the
// board with O (player 0) at the top and X (player 1) at the bottom, points
// numbered from the view of the player on roll, the bar, the borne-off
// checkers, and beside the board the names, scores, dice and cube.
package textboard

import (
	"fmt"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

const (
	numbersXView = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
	numbersOView = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
)

// Draw draws the state as gnubg 1.07 does; names[0] is player 0 (O),
// names[1] player 1 (X). The result ends with an empty line, as gnubg's
// output does.
func Draw(s *backgammon.State, names [2]string) string {
	pos, mid := gnubgid.Encode(s)
	o := s.BoardFor(0)[backgammon.OnRoll] // O's checkers by O's points
	x := s.BoardFor(1)[backgammon.OnRoll] // X's checkers by X's points

	// The physical columns: top column j is O's point 12-j (X's 13+j); bottom column j is O's
	// point 13+j (X's 12-j).
	var top, bottom [12]stack
	for j := 0; j < 12; j++ {
		po, px := 12-j, 13+j
		top[j] = pick(int(o[po-1]), int(x[px-1]))
		po, px = 13+j, 12-j
		bottom[j] = pick(int(o[po-1]), int(x[px-1]))
	}
	bar := [2]stack{{'O', int(o[backgammon.BarIndex])}, {'X', int(x[backgammon.BarIndex])}}
	board := s.BoardFor(0)
	off := [2]int{board.Borne(backgammon.OnRoll, s.Variant), board.Borne(backgammon.Opponent, s.Variant)}

	text := sideTexts(s, names)
	var sb strings.Builder
	fmt.Fprintf(&sb, " GNU Backgammon  Position ID: %s\n", pos)
	fmt.Fprintf(&sb, "                 Match ID   : %s\n", mid)
	topNumbers, bottomNumbers := numbersXView, numbersOView
	if s.Move == 0 {
		topNumbers, bottomNumbers = numbersOView, numbersXView
	}
	fmt.Fprintf(&sb, " %s     %s\n", topNumbers, text[0])
	for r := 0; r < 5; r++ { // top half, r counted from the top edge
		writeRow(&sb, &top, stack{'O', bar[0].n}, 'O', off[0], r, [4]string{text[1], text[2], "", ""})
	}
	arrow := "v"
	if s.Move == 0 {
		arrow = "^"
	}
	fmt.Fprintf(&sb, "%s|                  |BAR|                  |     %s\n", arrow, text[3])
	for r := 4; r >= 0; r-- { // bottom half, r counted from the bottom edge
		writeRow(&sb, &bottom, stack{'X', bar[1].n}, 'X', off[1], r, [4]string{text[5], text[4], "", ""})
	}
	fmt.Fprintf(&sb, " %s     %s\n\n", bottomNumbers, text[6])
	return sb.String()
}

// stack is the checkers of one column: their character and number.
type stack struct {
	ch byte
	n  int
}

func pick(o, x int) (st stack) {
	switch {
	case o > 0:
		st.ch, st.n = 'O', o
	case x > 0:
		st.ch, st.n = 'X', x
	}
	return st
}

// cell draws row r (0 at the board's edge) of a stack: a checker, or on the
// fifth row of a stack taller than five its height as one hex digit.
func cell(st stack, r int) string {
	switch {
	case st.n <= r:
		return "   "
	case r == 4 && st.n > 5:
		return " " + strings.ToUpper(fmt.Sprintf("%x", min(st.n, 15))) + " "
	}
	return " " + string(st.ch) + " "
}

// offCell draws row r (0 at the edge) of the borne-off checkers: they fill
// five rows, then a second column, then a third.
func offCell(ch byte, n, r int) string {
	k := n / 5
	if r < n%5 {
		k++
	}
	k = min(k, 3)
	return strings.Repeat(string(ch), k) + strings.Repeat(" ", 3-k)
}

// sideTexts are the seven texts beside the board, top to bottom: O's name,
// O's score, O's status, the middle line, X's status, X's score, X's name.
func sideTexts(s *backgammon.State, names [2]string) [7]string {
	var t [7]string
	cube := fmt.Sprintf("(Cube: %d)", s.CubeValue)
	t[0] = "O: " + names[0]
	t[6] = "X: " + names[1]
	if s.CubeOwner == 0 && !s.Doubled {
		t[0] += " " + cube
	}
	if s.CubeOwner == 1 && !s.Doubled {
		t[6] += " " + cube
	}
	t[1], t[5] = points(s.Score[0]), points(s.Score[1])
	status := [2]int{2, 4}
	if s.GameState == backgammon.GamePlaying {
		if s.Doubled {
			t[status[s.Turn]] = fmt.Sprintf("Cube offered at %d", 2*s.CubeValue)
		} else {
			st := "On roll"
			if s.Dice[0] != 0 {
				st = fmt.Sprintf("Rolled %d%d", s.Dice[0], s.Dice[1])
			}
			if s.Resigned != backgammon.NoResult {
				st += ", resigns " + resignName(s.Resigned)
			}
			t[status[s.Move]] = st
		}
	}
	if !s.Doubled {
		var mid []string
		if !s.Money() {
			mid = append(mid, points(s.MatchLength)+" match")
		}
		if s.CrawfordGame {
			mid = append(mid, "(Crawford game)")
		}
		if s.CubeOwner < 0 && !s.CrawfordGame && s.MatchLength != 1 {
			mid = append(mid, cube)
		}
		t[3] = strings.Join(mid, " ")
	}
	return t
}

func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%d points", n)
}

func resignName(r backgammon.Result) string {
	if r == backgammon.Single {
		return "single game"
	}
	return r.String()
}

// Summary describes what the drawing shows in words, one fact a line: pip
// counts, whose decision is next, the score and the cube.
func Summary(s *backgammon.State, names [2]string) string {
	var sb strings.Builder
	label := func(p int) string { return fmt.Sprintf("%c (%s)", "OX"[p], names[p]) }
	b := s.BoardFor(0)
	fmt.Fprintf(&sb, "Pips: O %d, X %d\n", b.Pips(backgammon.OnRoll), b.Pips(backgammon.Opponent))
	switch d := s.Decision(); d {
	case backgammon.DecideMove:
		fmt.Fprintf(&sb, "Turn: %s to move %d%d\n", label(s.Move), s.Dice[0], s.Dice[1])
	case backgammon.DecideCube:
		fmt.Fprintf(&sb, "Turn: %s to double or roll\n", label(s.Move))
	case backgammon.NeedRoll:
		fmt.Fprintf(&sb, "Turn: %s to roll\n", label(s.Move))
	case backgammon.DecideTake:
		fmt.Fprintf(&sb, "Turn: %s to take or drop a double to %d\n", label(s.Turn), 2*s.CubeValue)
	case backgammon.DecideResign:
		fmt.Fprintf(&sb, "Turn: %s to accept or reject a resignation (%s)\n", label(s.Turn), resignName(s.Resigned))
	default:
		fmt.Fprintf(&sb, "Turn: none (no game in progress)\n")
	}
	if s.Money() {
		fmt.Fprintf(&sb, "Score: O %d, X %d (money)\n", s.Score[0], s.Score[1])
	} else {
		extra := ""
		switch {
		case s.CrawfordGame:
			extra = ", Crawford game"
		case s.PostCrawford:
			extra = ", post-Crawford"
		}
		fmt.Fprintf(&sb, "Score: O %d, X %d in a %d-point match%s\n", s.Score[0], s.Score[1], s.MatchLength, extra)
	}
	owner := "centred"
	if s.CubeOwner >= 0 {
		owner = "owned by " + label(s.CubeOwner)
	}
	fmt.Fprintf(&sb, "Cube: %d, %s\n", s.CubeValue, owner)
	return sb.String()
}

// writeRow writes line r of one half of the board: the twelve points with
// the bar between their two sixes, the borne-off column, and the side text
// of the first four lines.
func writeRow(sb *strings.Builder, points *[12]stack, bar stack, offChar byte, off, r int, side [4]string) {
	sb.WriteString(" |")
	for j := 0; j < 6; j++ {
		sb.WriteString(cell(points[j], r))
	}
	sb.WriteString("|")
	sb.WriteString(cell(bar, r))
	sb.WriteString("|")
	for j := 6; j < 12; j++ {
		sb.WriteString(cell(points[j], r))
	}
	sb.WriteString("| ")
	sb.WriteString(offCell(offChar, off, r))
	if r < 4 {
		sb.WriteString(" " + side[r])
	}
	sb.WriteString("\n")
}
