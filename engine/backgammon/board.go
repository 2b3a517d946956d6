// Package backgammon holds the rules of backgammon and its variants: the
// board, legal moves, move notation, dice, and the match state machine that
// decides whose decision comes next. It does no I/O.
package backgammon

import (
	"fmt"
	"strings"
)

// Indexes into a Board's two sides, following gnubg: the opponent of the
// player on roll is side 0, the player on roll is side 1.
const (
	Opponent = 0
	OnRoll   = 1
)

// BarIndex is the index of the bar in a side's array; indexes 0..23 hold the
// owner's points 1..24 counted from the owner's own home board.
const BarIndex = 24

// Board is a position seen from the player on roll, laid out as gnubg's
// TanBoard: Board[side][i] is the number of that side's checkers on its own
// point i+1, and Board[side][24] its checkers on the bar. Borne-off checkers
// are not stored: they are the variant's checker count minus those on the board.
type Board [2][25]int8

// Variant is a backgammon variant: the starting position and checker count.
type Variant int

const (
	Standard Variant = iota
	Nackgammon
	Hypergammon1
	Hypergammon2
	Hypergammon3
)

var variantNames = [...]string{"standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3"}

// Variants returns the variants' names, as the protocol and control files
// write them, in Variant order: the one list of them.
func Variants() []string { return append([]string(nil), variantNames[:]...) }

func (v Variant) String() string {
	if v < 0 || int(v) >= len(variantNames) {
		return fmt.Sprintf("variant(%d)", int(v))
	}
	return variantNames[v]
}

// ParseVariant accepts the names used by the protocol and control files.
func ParseVariant(s string) (Variant, error) {
	for i, n := range variantNames {
		if strings.EqualFold(s, n) {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q (want one of %s)", s, strings.Join(variantNames[:], ", "))
}

// Checkers is the number of checkers each side plays with.
func (v Variant) Checkers() int {
	switch v {
	case Hypergammon1:
		return 1
	case Hypergammon2:
		return 2
	case Hypergammon3:
		return 3
	}
	return 15
}

// StartBoard is the variant's starting position, as in the GNU Backgammon
// manual; both sides are set up alike.
func (v Variant) StartBoard() Board {
	var side [25]int8
	switch v {
	case Nackgammon:
		side[23], side[22], side[12], side[7], side[5] = 2, 2, 4, 3, 4
	case Hypergammon1:
		side[23] = 1
	case Hypergammon2:
		side[23], side[22] = 1, 1
	case Hypergammon3:
		side[23], side[22], side[21] = 1, 1, 1
	default:
		side[23], side[12], side[7], side[5] = 2, 5, 3, 5
	}
	return Board{side, side}
}

// Swap returns the board seen from the other player.
func (b Board) Swap() Board { return Board{b[1], b[0]} }

// OnBoard counts a side's checkers on the points and the bar.
func (b *Board) OnBoard(side int) int {
	n := 0
	for _, c := range b[side] {
		n += int(c)
	}
	return n
}

// Pips is a side's pip count: the sum of the distances its checkers still
// have to travel, the bar counting 25.
func (b *Board) Pips(side int) int {
	n := 0
	for i, c := range b[side] {
		n += int(c) * (i + 1)
	}
	return n
}

// Validate checks that a board is a legal backgammon position for a variant:
// no negative counts, no more checkers than the variant has, and no point
// held by both sides.
func (b *Board) Validate(v Variant) error {
	max := v.Checkers()
	for side := 0; side < 2; side++ {
		for i, c := range b[side] {
			if c < 0 {
				return fmt.Errorf("side %d point %d: negative checker count %d", side, i+1, c)
			}
		}
		if n := b.OnBoard(side); n > max {
			return fmt.Errorf("side %d has %d checkers, more than the %d of %s", side, n, max, v)
		}
	}
	for i := 0; i < 24; i++ {
		if b[OnRoll][i] > 0 && b[Opponent][23-i] > 0 {
			return fmt.Errorf("point %d holds checkers of both sides", i+1)
		}
	}
	return nil
}

// Borne reports how many checkers a side has borne off under variant v.
func (b *Board) Borne(side int, v Variant) int { return v.Checkers() - b.OnBoard(side) }

// String draws the board compactly for test failures and debugging.
func (b Board) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "on roll:")
	for i := 24; i >= 0; i-- {
		if b[OnRoll][i] != 0 {
			fmt.Fprintf(&sb, " %d:%d", i+1, b[OnRoll][i])
		}
	}
	fmt.Fprintf(&sb, " | opponent:")
	for i := 24; i >= 0; i-- {
		if b[Opponent][i] != 0 {
			fmt.Fprintf(&sb, " %d:%d", i+1, b[Opponent][i])
		}
	}
	return sb.String()
}
