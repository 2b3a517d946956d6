package gobot

import (
	"fmt"

	"github.com/gamemill/gamemill/engine/gogame"
)

// Color is a point's colour, as in engine/gogame.
type Color = gogame.Color

const (
	empty  = gogame.Empty
	black  = gogame.Black
	white  = gogame.White
	border = Color(3) // off the board, in the padded arrays
)

// board is the search's board: engine/gogame's Position design (padded
// arrays, chains as circular lists with pseudo-liberty counts, a list of
// empty points, the simple-ko point) with what the playout policy needs
// on top: exact liberties of a chain, liberties after a move, 3x3 codes.
// Its rules are tested against gogame.Position on random games.
type board struct {
	size, stride int32
	dirs         [4]int32
	diags        [4]int32
	nbr8         [8]int32 // the eight neighbours in pattern.Neighbours order

	color  []Color
	chain  []int32
	next   []int32
	libs   []int32 // pseudo-liberties, by head
	stones []int32

	empty   []int32
	emptyAt []int32

	ko      int32
	koColor Color
	last    int32 // the last move, 0 for a pass or none
	last2   int32 // the move before it

	mark  []uint32
	epoch uint32
}

func newBoard(size int) (*board, error) {
	if size < gogame.MinSize || size > gogame.MaxSize {
		return nil, fmt.Errorf("board size %d: want %d to %d", size, gogame.MinSize, gogame.MaxSize)
	}
	s := int32(size)
	st := s + 2
	n := st * st
	b := &board{
		size: s, stride: st,
		dirs:    [4]int32{-st, -1, 1, st},
		diags:   [4]int32{-st - 1, -st + 1, st - 1, st + 1},
		nbr8:    [8]int32{-st - 1, -st, -st + 1, -1, 1, st - 1, st, st + 1},
		color:   make([]Color, n),
		chain:   make([]int32, n),
		next:    make([]int32, n),
		libs:    make([]int32, n),
		stones:  make([]int32, n),
		emptyAt: make([]int32, n),
		empty:   make([]int32, 0, size*size),
		mark:    make([]uint32, n),
	}
	for i := range b.color {
		b.color[i] = border
		b.emptyAt[i] = -1
	}
	for y := int32(0); y < s; y++ {
		for x := int32(0); x < s; x++ {
			pt := (y+1)*st + x + 1
			b.color[pt] = empty
			b.emptyAt[pt] = int32(len(b.empty))
			b.empty = append(b.empty, pt)
		}
	}
	return b, nil
}

func (b *board) copyFrom(q *board) {
	if b.size != q.size {
		*b = board{mark: make([]uint32, len(q.mark))}
	}
	b.size, b.stride, b.dirs, b.diags, b.nbr8 = q.size, q.stride, q.dirs, q.diags, q.nbr8
	b.color = append(b.color[:0], q.color...)
	b.chain = append(b.chain[:0], q.chain...)
	b.next = append(b.next[:0], q.next...)
	b.libs = append(b.libs[:0], q.libs...)
	b.stones = append(b.stones[:0], q.stones...)
	b.empty = append(b.empty[:0], q.empty...)
	b.emptyAt = append(b.emptyAt[:0], q.emptyAt...)
	b.ko, b.koColor, b.last, b.last2 = q.ko, q.koColor, q.last, q.last2
}

// pt converts a gogame move to a padded index, 0 for a pass.
func (b *board) pt(m gogame.Move) int32 {
	if m == gogame.Pass || !m.OnBoard(int(b.size)) {
		return 0
	}
	return (int32(m.Row())+1)*b.stride + int32(m.Col()) + 1
}

// move converts a padded index to a gogame move; 0 is a pass.
func (b *board) move(pt int32) gogame.Move {
	if pt == 0 {
		return gogame.Pass
	}
	return gogame.At(int(pt%b.stride)-1, int(pt/b.stride)-1)
}

func (b *board) xy(pt int32) (int, int) { return int(pt%b.stride) - 1, int(pt/b.stride) - 1 }

func (b *board) newEpoch() uint32 {
	b.epoch++
	if b.epoch == 0 {
		clear(b.mark)
		b.epoch = 1
	}
	return b.epoch
}

// legal reports whether c may play at the point pt (simple ko, no
// suicide).
func (b *board) legal(c Color, pt int32) bool {
	return b.color[pt] == empty && !(pt == b.ko && c == b.koColor) && b.breathes(c, pt)
}

func (b *board) adjacent(pt, head int32) int32 {
	n := int32(0)
	for _, d := range b.dirs {
		if b.chain[pt+d] == head {
			n++
		}
	}
	return n
}

func (b *board) breathes(c Color, pt int32) bool {
	for _, d := range b.dirs {
		q := pt + d
		switch b.color[q] {
		case empty:
			return true
		case border:
		default:
			h := b.chain[q]
			k := b.adjacent(pt, h)
			if b.color[q] == c {
				if b.libs[h] > k {
					return true
				}
			} else if b.libs[h] == k {
				return true
			}
		}
	}
	return false
}

// play plays c at pt (0: a pass), which must be legal, and returns the
// number of stones captured.
func (b *board) play(c Color, pt int32) int32 {
	b.last2, b.last = b.last, pt
	b.ko = 0
	if pt == 0 {
		return 0
	}
	opp := c.Opponent()
	b.place(c, pt)
	captured, lastCaptured := int32(0), int32(0)
	for _, d := range b.dirs {
		q := pt + d
		if b.color[q] == opp {
			if h := b.chain[q]; b.libs[h] == 0 {
				captured += b.remove(h)
				lastCaptured = q
			}
		}
	}
	if h := b.chain[pt]; captured == 1 && b.stones[h] == 1 && b.libs[h] == 1 {
		b.ko, b.koColor = lastCaptured, opp
	}
	return captured
}

func (b *board) place(c Color, pt int32) {
	b.removeEmpty(pt)
	b.color[pt] = c
	b.chain[pt] = pt
	b.next[pt] = pt
	b.stones[pt] = 1
	b.libs[pt] = 0
	for _, d := range b.dirs {
		q := pt + d
		switch b.color[q] {
		case empty:
			b.libs[pt]++
		case black, white:
			b.libs[b.chain[q]]--
		}
	}
	for _, d := range b.dirs {
		q := pt + d
		if b.color[q] == c {
			if x, y := b.chain[pt], b.chain[q]; x != y {
				b.merge(x, y)
			}
		}
	}
}

func (b *board) merge(x, y int32) {
	if b.stones[x] < b.stones[y] {
		x, y = y, x
	}
	s := y
	for {
		b.chain[s] = x
		s = b.next[s]
		if s == y {
			break
		}
	}
	b.next[x], b.next[y] = b.next[y], b.next[x]
	b.libs[x] += b.libs[y]
	b.stones[x] += b.stones[y]
}

func (b *board) remove(h int32) int32 {
	s := h
	for {
		b.color[s] = empty
		b.chain[s] = 0
		b.addEmpty(s)
		s = b.next[s]
		if s == h {
			break
		}
	}
	for {
		for _, d := range b.dirs {
			if q := s + d; b.color[q] == black || b.color[q] == white {
				b.libs[b.chain[q]]++
			}
		}
		s = b.next[s]
		if s == h {
			break
		}
	}
	return b.stones[h]
}

func (b *board) removeEmpty(pt int32) {
	i := b.emptyAt[pt]
	last := b.empty[len(b.empty)-1]
	b.empty[i] = last
	b.emptyAt[last] = i
	b.empty = b.empty[:len(b.empty)-1]
	b.emptyAt[pt] = -1
}

func (b *board) addEmpty(pt int32) {
	b.emptyAt[pt] = int32(len(b.empty))
	b.empty = append(b.empty, pt)
}

// chainLibs returns the distinct liberties of chain h, at most max of
// them, appended to out.
func (b *board) chainLibs(h int32, max int, out []int32) []int32 {
	ep := b.newEpoch()
	s := h
	for {
		for _, d := range b.dirs {
			q := s + d
			if b.color[q] == empty && b.mark[q] != ep {
				b.mark[q] = ep
				out = append(out, q)
				if len(out) >= max {
					return out
				}
			}
		}
		s = b.next[s]
		if s == h {
			return out
		}
	}
}

// libCount returns the number of liberties of chain h, counting to max.
func (b *board) libCount(h int32, max int) int {
	var buf [8]int32
	if max > len(buf) {
		return len(b.chainLibs(h, max, nil))
	}
	return len(b.chainLibs(h, max, buf[:0]))
}

// libsAfter returns how many liberties c's chain at the empty point pt
// would have after c plays there, counting to max; 0 if the move is
// suicide.
func (b *board) libsAfter(c Color, pt int32, max int) int {
	ep := b.newEpoch()
	n := 0
	b.mark[pt] = ep
	add := func(q int32) bool {
		if b.mark[q] != ep {
			b.mark[q] = ep
			n++
		}
		return n >= max
	}
	opp := c.Opponent()
	for _, d := range b.dirs {
		q := pt + d
		switch b.color[q] {
		case empty:
			if add(q) {
				return n
			}
		case opp:
			// A neighbour captured by the move gives its points back.
			h := b.chain[q]
			if b.libs[h] == b.adjacent(pt, h) {
				if add(q) {
					return n
				}
			}
		}
	}
	for _, d := range b.dirs {
		q := pt + d
		if b.color[q] != c {
			continue
		}
		h := b.chain[q]
		s := h
		for {
			for _, e := range b.dirs {
				r := s + e
				if b.color[r] == empty && add(r) {
					return n
				}
			}
			s = b.next[s]
			if s == h {
				break
			}
		}
	}
	return n
}

// eye reports whether the empty point pt is a one-point eye of c that
// filling can only harm (as gogame.Position.Eye).
func (b *board) eye(c Color, pt int32) bool {
	for _, d := range b.dirs {
		if q := b.color[pt+d]; q != c && q != border {
			return false
		}
	}
	opp := c.Opponent()
	bad, edge := 0, 0
	for _, d := range b.diags {
		switch b.color[pt+d] {
		case opp:
			bad++
		case border:
			edge = 1
		}
	}
	return bad+edge < 2
}

// code returns the 3x3 pattern code of pt for toPlay (see
// pattern.Code).
func (b *board) code(toPlay Color, pt int32) uint16 {
	st := &stateOf[toPlay]
	var code uint16
	for i, d := range b.nbr8 {
		code |= uint16(st[b.color[pt+d]]) << (2 * i)
	}
	return code
}

// stateOf maps a colour to a pattern state for each player to move.
var stateOf = [3][4]uint8{
	{0, 1, 2, 3},
	{0, 1, 2, 3}, // Black to move: Black is own
	{0, 2, 1, 3},
}

// score is the area count (every stone alive) as Black's margin before
// komi.
func (b *board) score() int {
	n := 0
	for y := int32(1); y <= b.size; y++ {
		for pt := y*b.stride + 1; pt <= y*b.stride+b.size; pt++ {
			switch b.owner(pt) {
			case black:
				n++
			case white:
				n--
			}
		}
	}
	return n
}

// owner returns who has pt at the end of a playout: the stone's colour,
// or for an empty point the colour of all its neighbours (a playout ends
// with one-point eyes only; anything else counts as neutral).
func (b *board) owner(pt int32) Color {
	c := b.color[pt]
	if c != empty {
		return c
	}
	var seen [4]bool
	for _, d := range b.dirs {
		seen[b.color[pt+d]] = true
	}
	switch {
	case seen[black] && !seen[white]:
		return black
	case seen[white] && !seen[black]:
		return white
	}
	return empty
}

// patternBoard adapts the board to pattern.Board.
type patternBoard struct{ b *board }

func (p patternBoard) Size() int { return int(p.b.size) }
func (p patternBoard) at(x, y int) int32 {
	return int32(y+1)*p.b.stride + int32(x) + 1
}
func (p patternBoard) At(x, y int) Color { return p.b.color[p.at(x, y)] }
func (p patternBoard) Liberties(x, y int) int {
	pt := p.at(x, y)
	if p.b.color[pt] == empty {
		return 0
	}
	return p.b.libCount(p.b.chain[pt], 1<<30)
}
func (p patternBoard) ChainSize(x, y int) int {
	pt := p.at(x, y)
	if p.b.color[pt] == empty {
		return 0
	}
	return int(p.b.stones[p.b.chain[pt]])
}
func (p patternBoard) LibertiesAfter(c Color, x, y int) int {
	pt := p.at(x, y)
	if !p.b.legal(c, pt) {
		return 0
	}
	return p.b.libsAfter(c, pt, 1<<30)
}
