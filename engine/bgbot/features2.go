package bgbot

import (
	"math/bits"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Input layout 2 (LayoutV2) is layout 1 (the first NumInputs units,
// unchanged, so that a layout-1 network can be widened into a layout-2 one
// without changing what it computes) followed by ExtraPerSide features for
// the player on roll, then the same for the opponent. They follow the
// ideas of GNU Backgammon's published contact inputs (escapes,
// containment, pip loss, double shots, anchors, contact break, timing,
// mobility, moment, bar entry, backbone, back game), written here from
// those descriptions: see docs/bgbot.md.
const (
	ExtraPerSide = 16
	NumInputsV2  = NumInputs + 2*ExtraPerSide
	LayoutV2     = 2
)

// Extra features of layout 2, per side ("me"), offsets inside a side's
// block. Points are numbered from me: 1 is my ace point, 25 my bar.
const (
	XEscape      = iota // rolls (of 36) on which my rearmost checker passes every opposing point within 12 pips ahead / 36
	XContain            // 1 - the fewest escapes (of 36) of a checker on my points 13..24, /36: how well the opponent's points hem in my back area
	XContain2           // XContain squared
	XContainBack        // the same, over the points from my rearmost checker down to 13 only (0 when nothing is back there)
	XPipLoss            // expected pips I lose to being hit on the opponent's next roll (per roll the costliest blot it can hit) / 12
	XDoubleShot         // rolls (of 36) on which the opponent can reach two or more of my blots / 36
	XBackAnchor         // my rearmost made point / 24 (0 when none)
	XFwdAnchor          // my most advanced anchor in the opponent's home board, (25-p)/6: 1 on the 19 point (the golden point), 1/6 on 24; 0 when none
	XBreak              // pips my checkers behind the opponent's rearmost checker must travel to pass it / 152
	XTiming             // free pips: pips outside my home board plus spare (third and later) checkers' pips inside it / 150
	XMobility           // sum over my checkers still in contact of their escapes / (36*15)
	XMoment2            // second moment of my checkers behind their mean position / 1600, capped at 1
	XBarFail            // with checkers on my bar: the chance (closed/6)^2 that one cannot enter; 0 otherwise
	XBarMany            // with two or more on my bar: the chance that they do not both enter
	XBackbone           // share of my made points above my home board with another made point 1..6 pips in front
	XBackGame           // with two or more anchors in the opponent's home board: (checkers back - 3) / 4, else 0
)

// escTable[m] counts the rolls (of 36) with which one checker passes every
// blocked point of the 12-point window m ahead of it: bit i of m is set
// when the point i+1 pips ahead is held by the opponent. A checker passes
// when it can legally land beyond the farthest blocked point (moving one
// die, both, or up to four steps of a double, every landing open). It is
// computed once and only read afterwards.
var escTable = func() [1 << 12]uint8 {
	var t [1 << 12]uint8
	rs := allRolls()
	for m := range t {
		if m == 0 {
			t[m] = 36
			continue
		}
		far := bits.Len(uint(m)) // distance of the farthest blocked point
		open := func(d int) bool { return d > 12 || m&(1<<(d-1)) == 0 }
		n := 0
		for _, r := range rs {
			d1, d2 := int(r.d1), int(r.d2)
			ok := false
			if d1 == d2 {
				for k := 1; k <= 4; k++ {
					if !open(k * d1) {
						break
					}
					if k*d1 > far {
						ok = true
						break
					}
				}
			} else {
				ok = d1 > far && open(d1) || d2 > far && open(d2) ||
					d1+d2 > far && (open(d1) || open(d2))
			}
			if ok {
				n += int(r.w)
			}
		}
		t[m] = uint8(n)
	}
	return t
}()

// sideView holds one side's board in its own numbering with the
// opponent's made points mapped onto it.
type sideView struct {
	n       [26]int  // n[p]: my checkers on my point p (25: bar)
	blocked [26]bool // the opponent holds my point p (1..24)
	ahead   uint32   // bit 25-p set when the opponent holds my point p, so a window ahead of a checker is a shift
}

func newSideView(me, them *[25]int8) sideView {
	var v sideView
	for p := 1; p <= 25; p++ {
		v.n[p] = int(me[p-1])
	}
	for p := 1; p <= 24; p++ {
		if them[24-p] >= 2 {
			v.blocked[p] = true
			v.ahead |= 1 << (25 - p)
		}
	}
	return v
}

// esc is the escape count (of 36) of a checker on my point p (1..25): bit
// i of the window is my point p-1-i, which is bit 26-p+i of ahead (points
// below 1 are never set).
func (v *sideView) esc(p int) int {
	return int(escTable[v.ahead>>(26-p)&(1<<12-1)])
}

// extra computes the layout-2 features of one side into h (len
// ExtraPerSide, zeroed by the caller); sf are the side's shot figures.
func (e *encoder) extra(b *backgammon.Board, side int, h []float32, sf *shotFigures) {
	me := &b[side]
	them := &b[1-side]
	v := newSideView(me, them)
	rm := rearmost(me)
	rt := rearmost(them) // the opponent's rearmost, in its numbering
	front := 25 - rt     // ... in mine: my checkers above it are still in contact

	// Anchors, backbone, back game.
	backAnchor, fwdAnchor, anchors := 0, 0, 0
	made, backed := 0, 0
	for p := 1; p <= 24; p++ {
		if v.n[p] < 2 {
			continue
		}
		backAnchor = p
		if p >= 19 {
			anchors++
			if fwdAnchor == 0 {
				fwdAnchor = p
			}
		}
		if p > 6 {
			made++
			for q := p - 1; q >= max(p-6, 1); q-- {
				if v.n[q] >= 2 {
					backed++
					break
				}
			}
		}
	}
	h[XBackAnchor] = float32(backAnchor) / 24
	if fwdAnchor > 0 {
		h[XFwdAnchor] = float32(25-fwdAnchor) / 6
	}
	if made > 0 {
		h[XBackbone] = float32(backed) / float32(made)
	}
	back := v.n[25]
	for p := 19; p <= 24; p++ {
		back += v.n[p]
	}
	if anchors >= 2 && back > 3 {
		h[XBackGame] = float32(back-3) / 4
	}

	// Timing and moment.
	timing, pips, on := 0, 0, 0
	for p := 1; p <= 25; p++ {
		c := v.n[p]
		if c == 0 {
			continue
		}
		pips += c * p
		on += c
		if p > 6 {
			timing += c * (p - 6)
		} else if c > 2 {
			timing += (c - 2) * (p - 1)
		}
	}
	h[XTiming] = float32(timing) / 150
	if on > 0 {
		mean := float32(pips) / float32(on)
		var m2 float32
		for p := 25; float32(p) > mean; p-- {
			d := float32(p) - mean
			m2 += float32(v.n[p]) * d * d
		}
		h[XMoment2] = min(m2/1600, 1)
	}

	// Bar entry against the opponent's home board (my points 19..24).
	if bar := v.n[25]; bar > 0 {
		closed := 0
		for p := 19; p <= 24; p++ {
			if v.blocked[p] {
				closed++
			}
		}
		c := float32(closed) / 6
		h[XBarFail] = c * c
		if bar >= 2 {
			h[XBarMany] = 1 - (1-c)*(1-c)*(1-c)*(1-c)
		}
	}

	if rm+rt < 25 { // no contact: the rest are the values of a free side
		h[XEscape] = 1
		return
	}
	h[XEscape] = float32(v.esc(rm)) / 36
	minEsc, minBack := 36, 36
	for p := 13; p <= 24; p++ {
		es := v.esc(p)
		minEsc = min(minEsc, es)
		if p <= rm {
			minBack = min(minBack, es)
		}
	}
	h[XContain] = float32(36-minEsc) / 36
	h[XContain2] = h[XContain] * h[XContain]
	if rm >= 13 {
		h[XContainBack] = float32(36-minBack) / 36
	}
	brk, mob := 0, 0
	for p := front + 1; p <= 25; p++ {
		if c := v.n[p]; c > 0 {
			brk += c * (p - front)
			mob += c * v.esc(min(p, 24))
		}
	}
	h[XBreak] = float32(brk) / 152
	h[XMobility] = float32(mob) / (36 * 15)
	h[XPipLoss] = float32(sf.loss) / (36 * 12)
	h[XDoubleShot] = float32(sf.two) / 36
}
