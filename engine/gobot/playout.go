package gobot

import (
	"math/rand/v2"

	"github.com/gamemill/gamemill/engine/gobot/pattern"
)

// policy is what the playouts know, shared read-only by the workers.
type policy struct {
	// good is, by 3x3 code for the player to move, whether a pattern with
	// a positive value fits the point for either colour (a shape that is
	// urgent for one side is urgent for both).
	good *[1 << 16]bool
}

func newPolicy(db *pattern.DB) *policy {
	p := &policy{}
	if db == nil {
		return p
	}
	p.good = new([1 << 16]bool)
	for code := 0; code < 1<<16; code++ {
		v, ok := db.Small(uint16(code))
		w, ok2 := db.Small(swapCode(uint16(code)))
		p.good[code] = (ok && v > 0) || (ok2 && w > 0)
	}
	return p
}

// swapCode exchanges own and opponent in a 3x3 code.
func swapCode(c uint16) uint16 {
	var out uint16
	for i := 0; i < 8; i++ {
		s := (c >> (2 * i)) & 3
		if s == 1 || s == 2 {
			s = 3 - s
		}
		out |= s << (2 * i)
	}
	return out
}

// Chances of using each heuristic of the playout policy when it applies.
const (
	probCapture = 0.9
	probPattern = 0.9
)

// worker is one thread's playout state.
type worker struct {
	b     *board
	rng   *rand.Rand
	pol   *policy
	cands []int32
	libs  []int32
}

// addCandidate adds pt if c may play it and it is not a self-atari that
// captures nothing.
func (w *worker) addCandidate(c Color, pt int32) {
	b := w.b
	if !b.legal(c, pt) {
		return
	}
	if b.libsAfter(c, pt, 2) < 2 {
		return
	}
	w.cands = append(w.cands, pt)
}

// tactics collects the captures and escapes that the last move makes
// urgent for c: take an opponent chain next to it in atari; save an own
// chain next to it put in atari, by capturing one of its attackers or by
// extending.
func (w *worker) tactics(c Color) {
	b := w.b
	last := b.last
	if last == 0 {
		return
	}
	opp := c.Opponent()
	check := [5]int32{last, last + b.dirs[0], last + b.dirs[1], last + b.dirs[2], last + b.dirs[3]}
	for i, q := range check {
		switch b.color[q] {
		case opp:
			if i > 0 && b.chain[q] == b.chain[last] {
				continue
			}
			h := b.chain[q]
			w.libs = b.chainLibs(h, 2, w.libs[:0])
			if len(w.libs) == 1 {
				w.addCandidate(c, w.libs[0])
			}
		case c:
			h := b.chain[q]
			w.libs = b.chainLibs(h, 2, w.libs[:0])
			if len(w.libs) != 1 {
				continue
			}
			lib := w.libs[0]
			// Capture an attacker in atari: walk the chain's neighbours.
			s := h
			for {
				for _, d := range b.dirs {
					r := s + d
					if b.color[r] == opp && b.libCount(b.chain[r], 2) == 1 {
						w.libs = b.chainLibs(b.chain[r], 1, w.libs[:0])
						w.addCandidate(c, w.libs[0])
					}
				}
				s = b.next[s]
				if s == h {
					break
				}
			}
			// Extend, if that gives more than two liberties (two would
			// only run into a ladder).
			if b.legal(c, lib) && b.libsAfter(c, lib, 3) >= 3 {
				w.cands = append(w.cands, lib)
			}
		}
	}
}

// patterns collects the empty neighbours of the last move whose 3x3
// neighbourhood is a good shape.
func (w *worker) patterns(c Color) {
	b := w.b
	if w.pol.good == nil || b.last == 0 {
		return
	}
	for _, d := range b.nbr8 {
		q := b.last + d
		if b.color[q] == empty && w.pol.good[b.code(c, q)] {
			w.addCandidate(c, q)
		}
	}
}

// pick plays a random candidate and reports whether there was one.
func (w *worker) pick(c Color) bool {
	if len(w.cands) == 0 {
		return false
	}
	pt := w.cands[w.rng.IntN(len(w.cands))]
	w.b.play(c, pt)
	return true
}

// playMove plays the policy's move for c and returns it (0 for a pass).
func (w *worker) playMove(c Color) int32 {
	b := w.b
	w.cands = w.cands[:0]
	if w.rng.Float64() < probCapture {
		w.tactics(c)
		if w.pick(c) {
			return b.last
		}
	}
	if w.rng.Float64() < probPattern {
		w.cands = w.cands[:0]
		w.patterns(c)
		if w.pick(c) {
			return b.last
		}
	}
	// A random move that is legal, does not fill c's own eye, and does
	// not put a chain of more than one stone in atari.
	for n := len(b.empty); n > 0; n-- {
		i := w.rng.IntN(n)
		pt := b.empty[i]
		if b.legal(c, pt) && !b.eye(c, pt) && !w.bigSelfAtari(c, pt) {
			b.play(c, pt)
			return pt
		}
		// Swap the point out of the part still drawn from.
		j := n - 1
		a, z := b.empty[i], b.empty[j]
		b.empty[i], b.empty[j] = z, a
		b.emptyAt[a], b.emptyAt[z] = int32(j), int32(i)
	}
	b.play(c, 0)
	return 0
}

// bigSelfAtari reports whether c at pt would leave a chain of two stones
// or more with one liberty.
func (w *worker) bigSelfAtari(c Color, pt int32) bool {
	b := w.b
	friends := false
	for _, d := range b.dirs {
		if b.color[pt+d] == c {
			friends = true
		}
	}
	return friends && b.libsAfter(c, pt, 2) < 2
}

// playout plays from w.b with c to move until two passes in a row or a
// move limit, and records the moves in seq. It returns Black's area
// margin before komi.
func (w *worker) playout(c Color, seq []played) (int, []played) {
	b := w.b
	limit := 3 * int(b.size*b.size)
	passes := 0
	if b.last == 0 && len(seq) > 0 {
		passes = 1
	}
	for i := 0; i < limit && passes < 2; i++ {
		pt := w.playMove(c)
		if pt == 0 {
			passes++
		} else {
			passes = 0
			seq = append(seq, played{pt, c})
		}
		c = c.Opponent()
	}
	return b.score(), seq
}

type played struct {
	pt    int32
	color Color
}

func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }
