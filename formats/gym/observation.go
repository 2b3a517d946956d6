package gym

import (
	"fmt"
	"math"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Colour is a side in the environments' absolute board. Functions taking a
// Colour read any value other than White as Black.
type Colour int

const (
	White Colour = 0 // X: moves from index 23 to 0, first in the observation
	Black Colour = 1 // O: moves from index 0 to 23
)

func (c Colour) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("colour(%d)", int(c))
}

// Other is the opposite colour.
func (c Colour) Other() Colour { return 1 - c }

// Layout of the observation vector.
const (
	ObservationSize = 198
	BlackOffset     = 98  // first unit of Black's block; White's starts at 0
	BarUnit         = 96  // offset of the bar unit within a colour's block
	OffUnit         = 97  // offset of the borne-off unit within a colour's block
	TurnUnit        = 196 // first of the two turn units
	checkers        = 15
)

// offTolerance is how far a borne-off unit may be from n/15 and still be
// read as n: the unit cannot be written exactly in float32, and a vector
// computed in float64 and narrowed, or in float32 arithmetic, differs in the
// last bit.
const offTolerance = 1e-5

// Encode writes the observation of board b, seen from the player on roll,
// who plays colour onRoll; the turn units name onRoll, as gym-backgammon's
// observations do. b must be a valid standard position (b.Validate of
// backgammon.Standard); borne-off counts are 15 minus the checkers on board.
func Encode(b backgammon.Board, onRoll Colour) [ObservationSize]float32 {
	return EncodeTurn(b, onRoll, onRoll)
}

// EncodeTurn is Encode with the turn units naming turn rather than onRoll.
// PettingZoo's backgammon_v3 always writes Black there; EncodeTurn(b, c,
// Black) reproduces its observations.
func EncodeTurn(b backgammon.Board, onRoll, turn Colour) [ObservationSize]float32 {
	var v [ObservationSize]float32
	if onRoll != White {
		onRoll = Black
	}
	for _, c := range [2]Colour{White, Black} {
		side := &b[backgammon.Opponent]
		if c == onRoll {
			side = &b[backgammon.OnRoll]
		}
		base := 0
		if c == Black {
			base = BlackOffset
		}
		onBoard := 0
		for i := 0; i < 24; i++ {
			n := int(side[ownIndex(c, i)])
			onBoard += n
			u := v[base+4*i : base+4*i+4]
			if n >= 1 {
				u[0] = 1
			}
			if n >= 2 {
				u[1] = 1
			}
			if n >= 3 {
				u[2] = 1
				u[3] = float32(n-3) / 2
			}
		}
		bar := int(side[backgammon.BarIndex])
		onBoard += bar
		v[base+BarUnit] = float32(bar) / 2
		v[base+OffUnit] = offValue(max(checkers-onBoard, 0))
	}
	if turn == White {
		v[TurnUnit] = 1
	} else {
		v[TurnUnit+1] = 1
	}
	return v
}

// offValue is n/15 as Python computes it in float64, narrowed to float32 as
// numpy does.
func offValue(n int) float32 { return float32(float64(n) / checkers) }

// ownIndex maps absolute point index i (0..23) to the index in colour c's
// own side array.
func ownIndex(c Colour, i int) int {
	if c == White {
		return i
	}
	return 23 - i
}

// FeatureError reports an observation that is no encoding of a position.
type FeatureError struct {
	Index  int     // the first unit found wrong
	Value  float32 // its value
	Reason string
}

func (e *FeatureError) Error() string {
	return fmt.Sprintf("gym observation: feature %d = %v: %s", e.Index, e.Value, e.Reason)
}

// Decode reads an observation. It returns the board seen from the colour the
// turn units name, and that colour. (A PettingZoo observation always names
// Black; Swap the board where White is to play.) It rejects, with a
// *FeatureError naming the first offending unit, any vector Encode could not
// have written: units outside their patterns, counts that are not whole,
// a point held by both colours, a colour without exactly 15 checkers, both
// colours borne off, or turn units other than [1, 0] and [0, 1]. Borne-off
// units are accepted within 1e-5 of n/15; every other unit must be exact.
func Decode(v [ObservationSize]float32) (backgammon.Board, Colour, error) {
	var sides [2][25]int8 // indexed by Colour, in each colour's own numbering
	var off [2]int
	for _, c := range [2]Colour{White, Black} {
		base := 0
		if c == Black {
			base = BlackOffset
		}
		total := 0
		for i := 0; i < 24; i++ {
			n, err := decodePoint(v[:], base+4*i)
			if err != nil {
				return backgammon.Board{}, 0, err
			}
			if c == Black && n > 0 && sides[White][ownIndex(White, i)] > 0 {
				return backgammon.Board{}, 0, &FeatureError{base + 4*i, v[base+4*i], "point also held by white"}
			}
			sides[c][ownIndex(c, i)] = int8(n)
			total += n
		}
		k := base + BarUnit
		bar, ok := whole(v[k] * 2)
		if !ok || bar > checkers {
			return backgammon.Board{}, 0, &FeatureError{k, v[k], "bar unit is not n/2 for n in 0..15"}
		}
		sides[c][backgammon.BarIndex] = int8(bar)
		total += bar
		k = base + OffUnit
		o, ok := offCount(v[k])
		if !ok {
			return backgammon.Board{}, 0, &FeatureError{k, v[k], "borne-off unit is not n/15 for n in 0..15"}
		}
		if total+o != checkers {
			return backgammon.Board{}, 0, &FeatureError{k, v[k], fmt.Sprintf("%s has %d checkers on the board and bar and %d off, not 15", c, total, o)}
		}
		off[c] = o
	}
	if off[White] == checkers && off[Black] == checkers {
		k := BlackOffset + OffUnit
		return backgammon.Board{}, 0, &FeatureError{k, v[k], "both colours have borne off all their checkers"}
	}
	var turn Colour
	switch {
	case v[TurnUnit] == 1 && v[TurnUnit+1] == 0:
		turn = White
	case v[TurnUnit] == 0 && v[TurnUnit+1] == 1:
		turn = Black
	case v[TurnUnit] != 0 && v[TurnUnit] != 1:
		return backgammon.Board{}, 0, &FeatureError{TurnUnit, v[TurnUnit], "turn unit is neither 0 nor 1"}
	default:
		return backgammon.Board{}, 0, &FeatureError{TurnUnit + 1, v[TurnUnit+1], "turn units are not [1, 0] or [0, 1]"}
	}
	var b backgammon.Board
	b[backgammon.OnRoll] = sides[turn]
	b[backgammon.Opponent] = sides[turn.Other()]
	if err := b.Validate(backgammon.Standard); err != nil {
		// Unreachable after the checks above; kept as a guard.
		return backgammon.Board{}, 0, &FeatureError{0, v[0], err.Error()}
	}
	return b, turn, nil
}

// decodePoint reads the four units of a point starting at k.
func decodePoint(v []float32, k int) (int, error) {
	u := v[k : k+4]
	bad := func(j int, why string) (int, error) {
		return 0, &FeatureError{k + j, u[j], why}
	}
	n := 0
	for j := 0; j < 3; j++ {
		switch u[j] {
		case 1:
			if n < j {
				return bad(j, "unit set after an unset one")
			}
			n = j + 1
		case 0:
		default:
			return bad(j, "point unit is neither 0 nor 1")
		}
	}
	if n < 3 {
		if u[3] != 0 {
			return bad(3, "overflow unit set on a point with fewer than 3 checkers")
		}
		return n, nil
	}
	extra, ok := whole(u[3] * 2)
	if !ok || 3+extra > checkers {
		return bad(3, "overflow unit is not (n-3)/2 for n in 3..15")
	}
	return 3 + extra, nil
}

// whole reports x as an int when it is a whole number in 0..15.
func whole(x float32) (int, bool) {
	if !(x >= 0 && x <= checkers) || x != float32(math.Trunc(float64(x))) {
		return 0, false
	}
	return int(x), true
}

// offCount reads a borne-off unit.
func offCount(x float32) (int, bool) {
	if !(x >= -offTolerance && x <= 1+offTolerance) {
		return 0, false
	}
	n := int(math.Round(float64(x) * checkers))
	if math.Abs(float64(x)-float64(n)/checkers) > offTolerance {
		return 0, false
	}
	return n, true
}
