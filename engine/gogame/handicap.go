package gogame

import "fmt"

// MaxFixedHandicap returns the most stones the GTP fixed_handicap layout
// has for a size x size board, as gomill allows: none up to 7x7, 4 on even
// sizes, 9 on odd sizes from 9x9. (GNU Go also offers 4 stones on 7x7.)
func MaxFixedHandicap(size int) int {
	switch {
	case size <= 7 || size > MaxSize:
		return 0
	case size%2 == 0:
		return 4
	}
	return 9
}

// MaxFreeHandicap returns the most stones a free placement may have: all
// points but one.
func MaxFreeHandicap(size int) int { return size*size - 1 }

// fixedPattern lists, for 2 to 9 stones, each stone as (row, column)
// codes: 0 the low line, 1 the middle, 2 the high line. This is the order
// of the GTP specification's table (and gomill's).
var fixedPattern = [...]string{
	"0022",
	"002220",
	"00222002",
	"0022200211",
	"002220021012",
	"00222002101211",
	"0022200210120121",
	"002220021012012111",
}

// FixedHandicap returns the points of the GTP fixed handicap of n stones
// on a size x size board: the star points on the fourth line from 13x13
// up, the third line below, in the GTP specification's order (for 19x19
// and 3 stones: D4, Q16, D16).
func FixedHandicap(size, n int) ([]Move, error) {
	if n < 2 {
		return nil, fmt.Errorf("handicap %d: want at least 2 stones", n)
	}
	if n > MaxFixedHandicap(size) {
		return nil, fmt.Errorf("fixed handicap out of range for board size %d", size)
	}
	low := 2
	if size >= 13 {
		low = 3
	}
	line := [3]int{low, (size - 1) / 2, size - 1 - low}
	codes := fixedPattern[n-2]
	stones := make([]Move, 0, n)
	for i := 0; i < len(codes); i += 2 {
		row, col := line[codes[i]-'0'], line[codes[i+1]-'0']
		stones = append(stones, At(col, row))
	}
	return stones, nil
}

// CheckFreeHandicap checks a free handicap placement for a size x size
// board: 2 to MaxFreeHandicap(size) distinct points, no pass.
func CheckFreeHandicap(size int, stones []Move) error {
	if len(stones) < 2 {
		return fmt.Errorf("free handicap of %d stones: want at least 2", len(stones))
	}
	if len(stones) > MaxFreeHandicap(size) {
		return fmt.Errorf("free handicap out of range for board size %d: %d stones", size, len(stones))
	}
	seen := make(map[Move]bool, len(stones))
	for _, m := range stones {
		if m == Pass {
			return fmt.Errorf("free handicap: pass is not a point")
		}
		if !m.OnBoard(size) {
			return fmt.Errorf("free handicap stone %v: %w", m, ErrOffBoard)
		}
		if seen[m] {
			return fmt.Errorf("free handicap: duplicate point %v", m)
		}
		seen[m] = true
	}
	return nil
}
