// Package gnubgid reads and writes GNU Backgammon's position IDs and match
// IDs, bit for bit as gnubg 1.07 writes them.
package gnubgid

import (
	"encoding/base64"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// The IDs are unpadded standard base64.
var idEncoding = base64.StdEncoding.WithPadding(base64.NoPadding)

// EncodePosition writes the 14-character position ID of a board seen from
// the player on roll. The 80-bit key lists, for the opponent and then the
// player on roll, points 1..24 and the bar: each checker a 1 bit, each point
// closed by a 0 bit, least significant bit of each byte first.
func EncodePosition(b backgammon.Board) string {
	var key [10]byte
	bit := 0
	for side := 0; side < 2; side++ {
		for i := 0; i < 25; i++ {
			for c := int8(0); c < b[side][i]; c++ {
				if bit < 80 {
					key[bit/8] |= 1 << (bit % 8)
				}
				bit++
			}
			bit++
		}
	}
	return idEncoding.EncodeToString(key[:])
}

// DecodePosition reads a position ID. It rejects IDs of the wrong length or
// alphabet and keys with more than 15 checkers a side or runs past 80 bits;
// it does not check that the position could arise in play.
func DecodePosition(id string) (backgammon.Board, error) {
	var b backgammon.Board
	if len(id) != 14 {
		return b, fmt.Errorf("position ID %q: want 14 characters, got %d", id, len(id))
	}
	if err := checkAlphabet(id); err != nil {
		return b, fmt.Errorf("position ID %q: %w", id, err)
	}
	key, err := idEncoding.DecodeString(id)
	if err != nil {
		return b, fmt.Errorf("position ID %q: %w", id, err)
	}
	side, point, total := 0, 0, 0
	for bit := 0; bit < 80 && side < 2; bit++ {
		if key[bit/8]&(1<<(bit%8)) != 0 {
			b[side][point]++
			total++
			if total > 15 {
				return backgammon.Board{}, fmt.Errorf("position ID %q: side %d has more than 15 checkers (bit %d)", id, side, bit)
			}
			continue
		}
		point++
		if point == 25 {
			side, point, total = side+1, 0, 0
		}
	}
	if side < 2 {
		return backgammon.Board{}, fmt.Errorf("position ID %q: key ends inside side %d's checkers", id, side)
	}
	return b, nil
}
