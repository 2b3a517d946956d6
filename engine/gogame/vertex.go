package gogame

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadVertex is the error for text that is not a vertex at all (as
// opposed to ErrOffBoard, a well-formed vertex beyond the board).
var ErrBadVertex = errors.New("not a vertex")

// gtpColumns are GTP's column letters: A to Z without I.
const gtpColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// String returns the move as a GTP vertex: "D4", "pass".
func (m Move) String() string {
	switch {
	case m == Pass:
		return "pass"
	case m < 0 || int(m) >= MaxSize*MaxSize:
		return fmt.Sprintf("Move(%d)", int(m))
	}
	return vertexNames[m]
}

// vertexNames holds every point's GTP name, made once: a referee names a
// point for every move it tells an engine.
var vertexNames = func() (names [MaxSize * MaxSize]string) {
	for i := range names {
		m := Move(i)
		names[i] = string(gtpColumns[m.Col()]) + strconv.Itoa(m.Row()+1)
	}
	return names
}()

// ParseVertex reads a GTP vertex for a size x size board: a column letter
// (A to Z skipping I) and a row number from 1 at the bottom, or "pass";
// letters in either case, leading zeros allowed (as gomill). A vertex
// beyond the board gives an error wrapping ErrOffBoard, anything else that
// is not a vertex one wrapping ErrBadVertex.
func ParseVertex(s string, size int) (Move, error) {
	if strings.EqualFold(s, "pass") {
		return Pass, nil
	}
	if len(s) < 2 || len(s) > 12 {
		return 0, fmt.Errorf("%q: %w", s, ErrBadVertex)
	}
	col := strings.IndexByte(gtpColumns, upper(s[0]))
	if col < 0 {
		return 0, fmt.Errorf("%q: %w", s, ErrBadVertex)
	}
	row := 0
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q: %w", s, ErrBadVertex)
		}
		row = row*10 + int(c-'0')
	}
	if row < 1 {
		return 0, fmt.Errorf("%q: %w", s, ErrBadVertex)
	}
	if col >= size || row > size {
		return 0, fmt.Errorf("%q on a %dx%d board: %w", s, size, size, ErrOffBoard)
	}
	return At(col, row-1), nil
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// SGF returns the move as an SGF point for a size x size board: column
// letter then row letter, "aa" the top-left corner; "" for a pass (FF[4]).
func (m Move) SGF(size int) string {
	if m == Pass {
		return ""
	}
	return string([]byte{sgfLetter(m.Col()), sgfLetter(size - 1 - m.Row())})
}

func sgfLetter(i int) byte {
	if i < 26 {
		return byte('a' + i)
	}
	return byte('A' + i - 26)
}

func sgfIndex(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

// ParseSGFPoint reads an SGF point or move for a size x size board. The
// empty value is a pass, and so is "tt" on boards up to 19x19 (FF[3]'s
// pass); errors wrap ErrBadVertex or ErrOffBoard as ParseVertex's do.
func ParseSGFPoint(s string, size int) (Move, error) {
	if s == "" || s == "tt" && size <= 19 {
		return Pass, nil
	}
	if len(s) != 2 {
		return 0, fmt.Errorf("SGF point %q: %w", s, ErrBadVertex)
	}
	col, rowFromTop := sgfIndex(s[0]), sgfIndex(s[1])
	if col < 0 || rowFromTop < 0 {
		return 0, fmt.Errorf("SGF point %q: %w", s, ErrBadVertex)
	}
	if col >= size || rowFromTop >= size {
		return 0, fmt.Errorf("SGF point %q on a %dx%d board: %w", s, size, size, ErrOffBoard)
	}
	return At(col, size-1-rowFromTop), nil
}
