package bgbot

import "github.com/gamemill/gamemill/engine/backgammon"

// IsBearoff reports whether a position is a bearoff: every checker either
// side has left on the board is in its home board (points 1 to 6), none
// on the bar. Such a position is a race (Class gives ClassRace); it is
// the part of the race that bearoff databases cover by their size.
func IsBearoff(b *backgammon.Board) bool {
	return homeOnly(&b[backgammon.OnRoll]) && homeOnly(&b[backgammon.Opponent])
}

// homeOnly reports whether every checker of a side left on the board is in
// its home board (indexes 0 to 5; the bar is index 24).
func homeOnly(s *[25]int8) bool {
	for _, n := range s[6:] {
		if n > 0 {
			return false
		}
	}
	return true
}
