package gogame

import (
	"fmt"
	"math/rand/v2"
)

// Position is a board built for speed: the stones, the chains they form
// with pseudo-liberty counts, the empty points, the simple-ko point and a
// Zobrist hash. It knows nothing of turns, history or superko (Game adds
// those); its Play still refuses occupied points, suicide and simple-ko
// retakes.
//
// The board is stored with a border of one point all round, so that every
// point of the board has four neighbours to look at. A chain's
// pseudo-liberties count each (stone, empty neighbour) pair; an empty point
// next to two stones of a chain counts twice. The chain has a real liberty
// other than point p exactly when its count exceeds the number of its
// stones next to p, which is what legality needs.
type Position struct {
	size, stride int32
	dirs         [4]int32 // the offsets of the four neighbours
	diags        [4]int32 // and of the four diagonal neighbours

	color  []Color // by padded index
	chain  []int32 // a stone's chain, named by its head stone; 0 off the stones
	next   []int32 // the next stone of the chain, circular
	libs   []int32 // pseudo-liberties, by head
	stones []int32 // stones in the chain, by head

	empty   []int32 // the empty points, in any order
	emptyAt []int32 // a point's index in empty

	ko       int32 // the point koColor may not play now (simple ko); 0 for none
	koColor  Color
	captured [3]int // stones captured by Black and by White
	hash     uint64

	// scratch for scoring
	mark  []uint32
	epoch uint32
	stack []int32
}

// NewPosition returns an empty size x size board.
func NewPosition(size int) (*Position, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("board size %d: want %d to %d", size, MinSize, MaxSize)
	}
	s := int32(size)
	stride := s + 2
	n := stride * stride
	p := &Position{
		size: s, stride: stride,
		dirs:    [4]int32{-stride, -1, 1, stride},
		diags:   [4]int32{-stride - 1, -stride + 1, stride - 1, stride + 1},
		color:   make([]Color, n),
		chain:   make([]int32, n),
		next:    make([]int32, n),
		libs:    make([]int32, n),
		stones:  make([]int32, n),
		emptyAt: make([]int32, n),
		empty:   make([]int32, 0, size*size),
		mark:    make([]uint32, n),
		stack:   make([]int32, 0, size*size),
	}
	for i := range p.color {
		p.color[i] = border
		p.emptyAt[i] = -1
	}
	for row := int32(0); row < s; row++ {
		for col := int32(0); col < s; col++ {
			pt := (row+1)*stride + col + 1
			p.color[pt] = Empty
			p.emptyAt[pt] = int32(len(p.empty))
			p.empty = append(p.empty, pt)
		}
	}
	return p, nil
}

// Size returns the board's width.
func (p *Position) Size() int { return int(p.size) }

// CopyFrom makes p a copy of q, reusing p's memory where the sizes agree.
func (p *Position) CopyFrom(q *Position) {
	if p.size != q.size {
		*p = Position{}
		p.mark = make([]uint32, len(q.mark))
		p.stack = make([]int32, 0, cap(q.stack))
	}
	p.size, p.stride, p.dirs, p.diags = q.size, q.stride, q.dirs, q.diags
	p.color = append(p.color[:0], q.color...)
	p.chain = append(p.chain[:0], q.chain...)
	p.next = append(p.next[:0], q.next...)
	p.libs = append(p.libs[:0], q.libs...)
	p.stones = append(p.stones[:0], q.stones...)
	p.empty = append(p.empty[:0], q.empty...)
	p.emptyAt = append(p.emptyAt[:0], q.emptyAt...)
	p.ko, p.koColor, p.captured, p.hash = q.ko, q.koColor, q.captured, q.hash
}

// Clone returns a copy of p.
func (p *Position) Clone() *Position {
	q := &Position{}
	q.CopyFrom(p)
	return q
}

// point converts a move on the board to a padded index, or returns 0.
func (p *Position) point(m Move) int32 {
	if !m.OnBoard(int(p.size)) {
		return 0
	}
	return (int32(m.Row())+1)*p.stride + int32(m.Col()) + 1
}

// move converts a padded index back to a move.
func (p *Position) move(pt int32) Move {
	return At(int(pt%p.stride)-1, int(pt/p.stride)-1)
}

// At returns the colour at m (Empty for a pass or a point off the board).
func (p *Position) At(m Move) Color {
	if pt := p.point(m); pt != 0 {
		return p.color[pt]
	}
	return Empty
}

// Captured returns how many stones c has captured.
func (p *Position) Captured(c Color) int { return p.captured[c] }

// Hash returns the Zobrist hash of the stones on the board (not of the
// ko point or the player to move).
func (p *Position) Hash() uint64 { return p.hash }

// Ko returns the point that c may not play now because it would retake a
// ko, or Pass when there is none.
func (p *Position) Ko(c Color) Move {
	if p.ko == 0 || c != p.koColor {
		return Pass
	}
	return p.move(p.ko)
}

// Legal returns nil if c may play m (a pass is always legal), or why not:
// an error wrapping ErrOffBoard, ErrOccupied, ErrKo or ErrSuicide.
func (p *Position) Legal(c Color, m Move) error {
	if m == Pass {
		return nil
	}
	if c != Black && c != White {
		return fmt.Errorf("colour %v cannot play", c)
	}
	pt := p.point(m)
	if pt == 0 {
		return moveError(c, m, ErrOffBoard)
	}
	return p.legal(c, pt, m)
}

func (p *Position) legal(c Color, pt int32, m Move) error {
	switch {
	case p.color[pt] != Empty:
		return moveError(c, m, ErrOccupied)
	case pt == p.ko && c == p.koColor:
		return moveError(c, m, ErrKo)
	case !p.breathes(c, pt):
		return moveError(c, m, ErrSuicide)
	}
	return nil
}

// Play plays c at m, or passes, after checking that it is legal.
func (p *Position) Play(c Color, m Move) error {
	if m == Pass {
		p.Pass()
		return nil
	}
	if err := p.Legal(c, m); err != nil {
		return err
	}
	p.play(c, p.point(m))
	return nil
}

// Pass passes: it only clears the ko point.
func (p *Position) Pass() { p.ko = 0 }

// adjacent counts the stones of chain head next to pt.
func (p *Position) adjacent(pt, head int32) int32 {
	n := int32(0)
	for _, d := range p.dirs {
		if p.chain[pt+d] == head {
			n++
		}
	}
	return n
}

// breathes reports whether a stone of c at the empty point pt would have a
// liberty after its captures: an empty neighbour, a friendly chain with a
// liberty besides pt, or an enemy chain whose last liberty is pt.
func (p *Position) breathes(c Color, pt int32) bool {
	for _, d := range p.dirs {
		q := pt + d
		switch p.color[q] {
		case Empty:
			return true
		case border:
		default:
			h := p.chain[q]
			k := p.adjacent(pt, h)
			if p.color[q] == c {
				if p.libs[h] > k {
					return true
				}
			} else if p.libs[h] == k {
				return true
			}
		}
	}
	return false
}

// play puts a stone of c on the empty point pt, which must be legal.
func (p *Position) play(c Color, pt int32) {
	opp := c.Opponent()
	p.place(c, pt)
	captured, lastCaptured := int32(0), int32(0)
	for _, d := range p.dirs {
		q := pt + d
		if p.color[q] == opp {
			if h := p.chain[q]; p.libs[h] == 0 {
				captured += p.remove(h)
				lastCaptured = q
			}
		}
	}
	p.captured[c] += int(captured)
	p.ko = 0
	if h := p.chain[pt]; captured == 1 && p.stones[h] == 1 && p.libs[h] == 1 {
		p.ko, p.koColor = lastCaptured, opp
	}
}

// place puts a stone of c on the empty point pt and merges it with its
// friends, capturing nothing: for setting up positions.
func (p *Position) place(c Color, pt int32) {
	p.removeEmpty(pt)
	p.color[pt] = c
	p.chain[pt] = pt
	p.next[pt] = pt
	p.stones[pt] = 1
	p.libs[pt] = 0
	p.hash ^= zobrist[c][pt]
	for _, d := range p.dirs {
		q := pt + d
		switch p.color[q] {
		case Empty:
			p.libs[pt]++
		case Black, White:
			p.libs[p.chain[q]]--
		}
	}
	for _, d := range p.dirs {
		q := pt + d
		if p.color[q] == c {
			if a, b := p.chain[pt], p.chain[q]; a != b {
				p.merge(a, b)
			}
		}
	}
}

// hasLiberty reports whether chain h has a liberty.
func (p *Position) hasLiberty(h int32) bool { return p.libs[h] > 0 }

// merge joins chains a and b, relabelling the smaller.
func (p *Position) merge(a, b int32) {
	if p.stones[a] < p.stones[b] {
		a, b = b, a
	}
	s := b
	for {
		p.chain[s] = a
		s = p.next[s]
		if s == b {
			break
		}
	}
	p.next[a], p.next[b] = p.next[b], p.next[a]
	p.libs[a] += p.libs[b]
	p.stones[a] += p.stones[b]
}

// remove takes chain h off the board and returns its size.
func (p *Position) remove(h int32) int32 {
	c := p.color[h]
	s := h
	for {
		p.color[s] = Empty
		p.chain[s] = 0
		p.hash ^= zobrist[c][s]
		p.addEmpty(s)
		s = p.next[s]
		if s == h {
			break
		}
	}
	// Now that the chain is gone, its points are liberties of the chains
	// around it.
	for {
		for _, d := range p.dirs {
			if q := s + d; p.color[q] == Black || p.color[q] == White {
				p.libs[p.chain[q]]++
			}
		}
		s = p.next[s]
		if s == h {
			break
		}
	}
	return p.stones[h]
}

func (p *Position) removeEmpty(pt int32) {
	i := p.emptyAt[pt]
	last := p.empty[len(p.empty)-1]
	p.empty[i] = last
	p.emptyAt[last] = i
	p.empty = p.empty[:len(p.empty)-1]
	p.emptyAt[pt] = -1
}

func (p *Position) addEmpty(pt int32) {
	p.emptyAt[pt] = int32(len(p.empty))
	p.empty = append(p.empty, pt)
}

// swapEmpty exchanges two entries of the empty list.
func (p *Position) swapEmpty(i, j int) {
	a, b := p.empty[i], p.empty[j]
	p.empty[i], p.empty[j] = b, a
	p.emptyAt[a], p.emptyAt[b] = int32(j), int32(i)
}

// Eye reports whether m is a one-point eye of c: an empty point whose
// neighbours are all c's stones (or the edge), and of whose diagonal
// neighbours the opponent holds at most one in the middle of the board and
// none on the edge. Filling such a point can only harm c.
func (p *Position) Eye(c Color, m Move) bool {
	pt := p.point(m)
	return pt != 0 && p.color[pt] == Empty && p.eye(c, pt)
}

func (p *Position) eye(c Color, pt int32) bool {
	for _, d := range p.dirs {
		if q := p.color[pt+d]; q != c && q != border {
			return false
		}
	}
	opp := c.Opponent()
	bad, edge := 0, 0
	for _, d := range p.diags {
		switch p.color[pt+d] {
		case opp:
			bad++
		case border:
			edge = 1
		}
	}
	return bad+edge < 2
}

// PlayRandom plays a uniformly random legal move for c that does not fill
// one of c's one-point eyes (see Eye) and returns it, or passes and
// returns Pass when there is none.
func (p *Position) PlayRandom(c Color, rng *rand.Rand) Move {
	// Draw from the empty points; a point that will not do is swapped out
	// of the part still drawn from, so each draw is uniform over the rest.
	for n := len(p.empty); n > 0; n-- {
		i := rng.IntN(n)
		pt := p.empty[i]
		if !(pt == p.ko && c == p.koColor) && !p.eye(c, pt) && p.breathes(c, pt) {
			p.play(c, pt)
			return p.move(pt)
		}
		p.swapEmpty(i, n-1)
	}
	p.Pass()
	return Pass
}

// Playout plays random moves (PlayRandom) from the position, toPlay
// first, until both sides pass in turn or maxMoves moves (passes
// included) have been played, and returns the number of moves played.
func (p *Position) Playout(toPlay Color, rng *rand.Rand, maxMoves int) int {
	passes := 0
	n := 0
	for n < maxMoves && passes < 2 {
		if p.PlayRandom(toPlay, rng) == Pass {
			passes++
		} else {
			passes = 0
		}
		toPlay = toPlay.Opponent()
		n++
	}
	return n
}

// zobrist holds a random 64-bit key per colour and padded point of the
// largest board, from a fixed seed; it never changes after start-up.
var zobrist = func() (z [3][(MaxSize + 2) * (MaxSize + 2)]uint64) {
	rng := rand.New(rand.NewPCG(0x60676f, 0x7a6f62))
	for c := range z {
		for i := range z[c] {
			z[c][i] = rng.Uint64()
		}
	}
	return z
}()
