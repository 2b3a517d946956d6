package bgbot

import (
	"math/bits"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Input layout (LayoutV1) of the network, also used by the heuristic:
//
//   - 0..97: the player on roll in TD-Gammon's encoding: for each of its
//     points 1..24 four units (at least 1, 2 and 3 checkers, and (n-3)/2
//     beyond three), then its bar checkers / 2 and its borne-off checkers
//     / 15.
//   - 98..195: the same for the opponent.
//   - 196, 197: TD-Gammon's two "whose turn" units. The board is always seen
//     from the player on roll, so they are constant (1, 0): they keep the
//     198-unit encoding intact and act as a bias.
//   - 198..213: hand-made features, HandFeatures for the player on roll
//     then for the opponent (see the Hand* constants).
const (
	tdSide      = 98
	tdInputs    = 2*tdSide + 2
	HandPerSide = 8
	NumInputs   = tdInputs + 2*HandPerSide
	LayoutV1    = 1
)

// Hand-made features, per side, offsets inside a side's block.
const (
	HandPips    = iota // pip count / 167
	HandShots          // rolls (of 36) on which the other side hits one of its blots / 36
	HandBlots          // blots / 4, capped at 1
	HandEscapes        // rolls (of 36) that move its rearmost checker the whole roll / 36; 1 when it is past all contact
	HandPrime          // longest run of made points / 6, capped at 1
	HandHome           // made points in its home board / 6
	HandAnchors        // made points in the other side's home board / 2, capped at 1
	HandBack           // checkers in the other side's home board or on the bar / 5, capped at 1
)

// rollWeights lists the 21 distinct rolls with their frequency out of 36.
type roll struct{ d1, d2, w int8 }

func allRolls() [21]roll {
	var rs [21]roll
	n := 0
	for a := int8(1); a <= 6; a++ {
		for b := a; b <= 6; b++ {
			w := int8(2)
			if a == b {
				w = 1
			}
			rs[n] = roll{a, b, w}
			n++
		}
	}
	return rs
}

// Contact reports whether the two sides can still hit or block each other.
func Contact(b *backgammon.Board) bool {
	a := rearmost(&b[backgammon.OnRoll])
	c := rearmost(&b[backgammon.Opponent])
	return a+c >= 25
}

// rearmost is the highest point (1..24, 25 for the bar) holding a checker of
// the side, 0 when none.
func rearmost(s *[25]int8) int {
	for i := backgammon.BarIndex; i >= 0; i-- {
		if s[i] > 0 {
			return i + 1
		}
	}
	return 0
}

// encoder computes the inputs of a position. It is cheap to build and
// holds no state besides the rolls table.
type encoder struct {
	rolls  [21]roll
	layout int
}

func newEncoder() encoder { return encoder{rolls: allRolls(), layout: LayoutV1} }

// newEncoderFor returns an encoder for the input layout (LayoutV1..
// LayoutLast; checked by the callers).
func newEncoderFor(layout int) encoder { return encoder{rolls: allRolls(), layout: layout} }

// InputsOf returns the number of inputs of an input layout, 0 for an
// unknown layout.
func InputsOf(layout int) int {
	switch layout {
	case LayoutV1:
		return NumInputs
	case LayoutV2:
		return NumInputsV2
	case LayoutV3, LayoutV4:
		return NumInputsV3
	}
	return 0
}

// encode fills x (len InputsOf(e.layout), zeroed by encode) and appends
// the indexes of non-zero inputs to nz, returning it.
func (e *encoder) encode(b *backgammon.Board, x []float32, nz []int32) []int32 {
	clear(x)
	nz = nz[:0]
	for k, side := range [2]int{backgammon.OnRoll, backgammon.Opponent} {
		s := &b[side]
		base := k * tdSide
		on := 0
		for i := 0; i < 24; i++ {
			n := int(s[i])
			on += n
			if n == 0 {
				continue
			}
			j := base + 4*i
			x[j] = 1
			nz = append(nz, int32(j))
			if n >= 2 {
				x[j+1] = 1
				nz = append(nz, int32(j+1))
			}
			if n >= 3 {
				x[j+2] = 1
				nz = append(nz, int32(j+2))
			}
			if n > 3 {
				x[j+3] = float32(n-3) / 2
				nz = append(nz, int32(j+3))
			}
		}
		if bar := int(s[backgammon.BarIndex]); bar > 0 {
			on += bar
			x[base+96] = float32(bar) / 2
			nz = append(nz, int32(base+96))
		}
		if off := 15 - on; off > 0 {
			x[base+97] = float32(off) / 15
			nz = append(nz, int32(base+97))
		}
	}
	x[196] = 1
	nz = append(nz, 196)
	// The shot figures feed both layouts' features; work them out once.
	var sf [2]shotFigures
	contact := Contact(b)
	if contact {
		sf[0] = e.shotFigures(&b[backgammon.OnRoll], &b[backgammon.Opponent])
		sf[1] = e.shotFigures(&b[backgammon.Opponent], &b[backgammon.OnRoll])
	}
	var h [2 * HandPerSide]float32
	e.hand(b, backgammon.OnRoll, h[:HandPerSide], &sf[0])
	e.hand(b, backgammon.Opponent, h[HandPerSide:], &sf[1])
	for i, v := range h {
		if v != 0 {
			x[tdInputs+i] = v
			nz = append(nz, int32(tdInputs+i))
		}
	}
	if e.layout >= LayoutV2 {
		var xs [2 * ExtraPerSide]float32
		e.extra(b, backgammon.OnRoll, xs[:ExtraPerSide], &sf[0])
		e.extra(b, backgammon.Opponent, xs[ExtraPerSide:], &sf[1])
		for i, v := range xs {
			if v != 0 {
				x[NumInputs+i] = v
				nz = append(nz, int32(NumInputs+i))
			}
		}
	}
	if e.layout >= LayoutV3 && !contact || e.layout >= LayoutV4 && Class(b) == ClassCrashed {
		var rs [2 * RacePerSide]float32
		raceFeatures(&b[backgammon.OnRoll], rs[:RacePerSide])
		raceFeatures(&b[backgammon.Opponent], rs[RacePerSide:])
		for i, v := range rs {
			if v != 0 {
				x[NumInputsV2+i] = v
				nz = append(nz, int32(NumInputsV2+i))
			}
		}
	}
	return nz
}

// hand computes the hand-made features of one side, whose shot figures
// are sf.
func (e *encoder) hand(b *backgammon.Board, side int, h []float32, sf *shotFigures) {
	me := &b[side]
	them := &b[1-side]
	pips := 0
	blots := 0
	for i := 0; i < 25; i++ {
		n := int(me[i])
		pips += n * (i + 1)
		if i < 24 && n == 1 {
			blots++
		}
	}
	h[HandPips] = float32(pips) / 167
	h[HandBlots] = min(float32(blots)/4, 1)
	// Primes, home points, anchors.
	run, best, home, anchors := 0, 0, 0, 0
	for i := 0; i < 24; i++ {
		if me[i] >= 2 {
			run++
			best = max(best, run)
			if i < 6 {
				home++
			}
			if i >= 18 {
				anchors++
			}
		} else {
			run = 0
		}
	}
	h[HandPrime] = min(float32(best)/6, 1)
	h[HandHome] = float32(home) / 6
	h[HandAnchors] = min(float32(anchors)/2, 1)
	back := int(me[backgammon.BarIndex])
	for i := 18; i < 24; i++ {
		back += int(me[i])
	}
	h[HandBack] = min(float32(back)/5, 1)
	if a, c := rearmost(me), rearmost(them); a+c < 25 {
		h[HandEscapes] = 1
		return
	}
	h[HandShots] = float32(sf.shots) / 36
	h[HandEscapes] = float32(e.escapes(me, them)) / 36
}

// shotFigures are what the opponent's next roll threatens against one
// side's blots (see hitMasks for what counts as a hit).
type shotFigures struct {
	shots int // rolls (of 36) that hit at least one blot
	loss  int // sum over the 36 rolls of the pips the costliest hit costs (a blot on my point q costs 25-q)
	two   int // rolls (of 36) that can hit two or more blots
}

// shotFigures computes one side's shot figures: "me" is the side with the
// blots, "them" the side to roll.
func (e *encoder) shotFigures(me, them *[25]int8) shotFigures {
	var hits [21]uint32
	var f shotFigures
	if !e.hitMasks(me, them, &hits) {
		return f
	}
	for k, r := range e.rolls {
		hit := hits[k]
		if hit == 0 {
			continue
		}
		f.shots += int(r.w)
		// The costliest blot is the one nearest the opponent's home, i.e. the
		// highest bit: its index t is the pips it costs.
		f.loss += int(r.w) * (bits.Len32(hit) - 1)
		if bits.OnesCount32(hit) >= 2 {
			f.two += int(r.w)
		}
	}
	return f
}

// hitMasks sets hits[k], for each of the 21 rolls of the side "them", to
// the blots of "me" that the roll can hit, as bits in them's numbering (my
// point q is their point 25-q, bit 25-q), and reports whether I have a
// blot at all. Checkers of theirs on the bar must enter first, so only
// those are considered then. Blocking by my made points is respected for
// intermediate landings; the bar entry of combination shots is simplified.
// Bit sets make it a few dozen operations a side.
func (e *encoder) hitMasks(me, them *[25]int8, hits *[21]uint32) bool {
	var blots, blocked uint32
	for q := 1; q <= 24; q++ {
		switch n := me[q-1]; {
		case n == 1:
			blots |= 1 << (25 - q)
		case n >= 2:
			blocked |= 1 << (25 - q)
		}
	}
	if blots == 0 {
		return false
	}
	var origins uint32 // their points with a checker that may hit (bit p)
	if them[backgammon.BarIndex] > 0 {
		origins = 1 << 25
	} else {
		for p := 2; p <= 24; p++ {
			if them[p-1] > 0 {
				origins |= 1 << p
			}
		}
	}
	for k, r := range e.rolls {
		d1, d2 := uint(r.d1), uint(r.d2)
		var hit uint32
		if d1 == d2 {
			reach := origins
			for range 4 { // a checker moves on past a blot it hits, not past a made point
				reach = reach >> d1 &^ blocked
				hit |= reach & blots
			}
		} else {
			hit = (origins>>d1 | origins>>d2) & blots
			// Both dice with one checker: one of the two midway points must be open.
			free := origins &^ (blocked << d1 & (blocked << d2))
			hit |= free >> (d1 + d2) & blots
		}
		hits[k] = hit
	}
	return true
}

// escapes counts the rolls (of 36) with which my rearmost checker can move
// the whole roll through points the other side has not made.
func (e *encoder) escapes(me, them *[25]int8) int {
	r := rearmost(me)
	if r == 0 {
		return 36
	}
	open := func(q int) bool { // my point q is open to me
		return q < 1 || them[24-q] < 2
	}
	total := 0
	for _, ro := range e.rolls {
		d1, d2 := int(ro.d1), int(ro.d2)
		ok := false
		if d1 == d2 {
			ok = true
			for k := 1; k <= 4; k++ {
				if !open(r - k*d1) {
					ok = false
					break
				}
			}
		} else {
			ok = open(r-d1-d2) && (open(r-d1) || open(r-d2))
		}
		if ok {
			total += int(ro.w)
		}
	}
	return total
}
