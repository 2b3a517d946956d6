package bgbot

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// TestBitSetFeaturesMatchLoops checks the bit-set versions of shots, pip
// loss, double shots and escapes against the plain loops they replaced
// (kept below as references), on positions from random games, which are
// full of blots, hits and checkers on the bar.
func TestBitSetFeaturesMatchLoops(t *testing.T) {
	e := newEncoderFor(LayoutV2)
	for i, b := range samplePositions(t, rand.New(rand.NewPCG(31, 32)), 3000) {
		for side := range 2 {
			me, them := &b[side], &b[1-side]
			f := e.shotFigures(me, them)
			if want := e.shotsLoop(me, them); f.shots != want {
				t.Fatalf("position %d side %d: shots %d, want %d (%v)", i, side, f.shots, want, b)
			}
			wl, wt := e.shotStatsLoop(me, them)
			if f.loss != wl || f.two != wt {
				t.Fatalf("position %d side %d: shot stats %d %d, want %d %d (%v)", i, side, f.loss, f.two, wl, wt, b)
			}
			v := newSideView(me, them)
			for p := 1; p <= 25; p++ {
				if got, want := v.esc(p), escLoop(&v, p); got != want {
					t.Fatalf("position %d side %d point %d: escapes %d, want %d (%v)", i, side, p, got, want, b)
				}
			}
		}
	}
}

// escLoop is the escape count as first written, point by point.
func escLoop(v *sideView, p int) int {
	m := 0
	for i := 0; i < 12; i++ {
		q := p - 1 - i
		if q < 1 {
			break
		}
		if v.blocked[q] {
			m |= 1 << i
		}
	}
	return int(escTable[m])
}

// shots counts the rolls (of 36) on which the side "them" can hit at least
// one blot of "me". Points are converted to them's numbering: my point q is
// their point 25-q. Checkers of theirs on the bar must enter first, so only
// those are considered then. Blocking by my made points is respected for
// intermediate landings; the bar entry of combination shots is simplified.
func (e *encoder) shotsLoop(me, them *[25]int8) int {
	var blot, blocked [26]bool
	any := false
	for q := 1; q <= 24; q++ {
		switch n := me[q-1]; {
		case n == 1:
			blot[25-q] = true
			any = true
		case n >= 2:
			blocked[25-q] = true
		}
	}
	if !any {
		return 0
	}
	var origins [25]int
	no := 0
	if them[backgammon.BarIndex] > 0 {
		origins[0], no = 25, 1
	} else {
		for p := 24; p >= 2; p-- {
			if them[p-1] > 0 {
				origins[no] = p
				no++
			}
		}
	}
	total := 0
	for _, r := range e.rolls {
		d1, d2 := int(r.d1), int(r.d2)
		hit := false
		for _, o := range origins[:no] {
			if d1 == d2 {
				p := o
				for k := 0; k < 4; k++ {
					p -= d1
					if p < 1 {
						break
					}
					if blot[p] {
						hit = true
						break
					}
					if blocked[p] {
						break
					}
				}
			} else {
				p1, p2, p3 := o-d1, o-d2, o-d1-d2
				if p1 >= 1 && blot[p1] || p2 >= 1 && blot[p2] {
					hit = true
				} else if p3 >= 1 && blot[p3] && (!blocked[p1] || !blocked[p2]) {
					hit = true
				}
			}
			if hit {
				break
			}
		}
		if hit {
			total += int(r.w)
		}
	}
	return total
}

// shotStats returns, over the opponent's 36 rolls, the sum of the pips I
// lose to its costliest hit (a blot on my point q costs 25-q pips) and the
// rolls that reach two or more of my blots. The hits are judged as in
// shots: blocking of intermediate landings respected, bar entry simplified.
func (e *encoder) shotStatsLoop(me, them *[25]int8) (loss, two int) {
	var blot, blocked [26]bool
	any := false
	for q := 1; q <= 24; q++ {
		switch n := me[q-1]; {
		case n == 1:
			blot[25-q] = true // in the opponent's numbering, costing 25-q pips: its own index
			any = true
		case n >= 2:
			blocked[25-q] = true
		}
	}
	if !any {
		return 0, 0
	}
	var origins [25]int
	no := 0
	if them[backgammon.BarIndex] > 0 {
		origins[0], no = 25, 1
	} else {
		for p := 24; p >= 2; p-- {
			if them[p-1] > 0 {
				origins[no] = p
				no++
			}
		}
	}
	for _, r := range e.rolls {
		d1, d2 := int(r.d1), int(r.d2)
		var hit uint32 // bit t: the blot on the opponent's point t can be hit
		for _, o := range origins[:no] {
			if d1 == d2 {
				p := o
				for k := 0; k < 4; k++ {
					p -= d1
					if p < 1 || blocked[p] {
						break
					}
					if blot[p] {
						hit |= 1 << p
					}
				}
			} else {
				p1, p2, p3 := o-d1, o-d2, o-d1-d2
				if p1 >= 1 && blot[p1] {
					hit |= 1 << p1
				}
				if p2 >= 1 && blot[p2] {
					hit |= 1 << p2
				}
				if p3 >= 1 && blot[p3] && (!blocked[p1] || !blocked[p2]) {
					hit |= 1 << p3
				}
			}
		}
		if hit == 0 {
			continue
		}
		// The costliest blot is the one nearest the opponent's home, i.e. the
		// highest bit: its index t is the pips it costs.
		loss += int(r.w) * (bits.Len32(hit) - 1)
		if bits.OnesCount32(hit) >= 2 {
			two += int(r.w)
		}
	}
	return loss, two
}
