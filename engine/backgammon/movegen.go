package backgammon

import "math/bits"

// Step moves one checker by one die. From is 1..24 or 25 for the bar; To is
// 1..24 or 0 for borne off. Points are counted from the mover's view.
type Step struct{ From, To int8 }

// Move is a full play for one roll: up to four steps, in the order played.
type Move struct {
	Steps [4]Step
	N     int8
}

// StepList returns the steps actually used.
func (m Move) StepList() []Step { return m.Steps[:m.N] }

func (m *Move) push(s Step) { m.Steps[m.N] = s; m.N++ }

// applyStep moves the checker of the player on roll; it reports a hit.
// The caller has checked legality.
func applyStep(b *Board, s Step) bool {
	b[OnRoll][s.From-1]--
	if s.To <= 0 {
		return false
	}
	b[OnRoll][s.To-1]++
	opp := 24 - s.To
	if b[Opponent][opp] == 1 {
		b[Opponent][opp] = 0
		b[Opponent][BarIndex]++
		return true
	}
	return false
}

// Apply plays a move on a board, from the view of the player on roll, and
// returns the result from the same view (not swapped). It does not check
// legality; use Legal for that.
func (b Board) Apply(m Move) Board {
	for _, s := range m.StepList() {
		applyStep(&b, s)
	}
	return b
}

// MoveGen generates legal moves. It keeps its buffers between calls, so one
// generator per goroutine makes generation allocation-free in steady state.
//
// It plays the steps on one board and takes them back (no copy a step),
// keeps a Zobrist hash of that board up to date as it goes, and finds
// the positions already reached in an open-addressed table of those
// hashes, whose entries a new generation number empties at once.
type MoveGen struct {
	moves    []Move
	boards   []Board
	larger   []bool
	slots    []genSlot // len a power of two, at least twice len(moves)
	gen      uint32    // the generation of slots' live entries
	board    Board     // the board the steps are played on
	dice     [4]int8
	nd       int
	blocked  uint32 // bit p set: the opponent holds my point p (hits never change it)
	maxDepth int
	big      int8
	doubles  bool
}

// genSlot is an entry of MoveGen's table: a reached position's hash and
// its index in moves, live while gen is the generator's.
type genSlot struct {
	hash uint64
	idx  int32
	gen  uint32
}

// zobrist holds a random key for each side, point and checker count
// (counts above 15 share the last); a board's hash is the XOR of the
// keys of its 50 cells. It is filled once at start-up.
var zobrist = func() (z [2][25][16]uint64) {
	x := uint64(0x9e3779b97f4a7c15)
	for s := range z {
		for p := range z[s] {
			for c := range z[s][p] {
				// splitmix64
				x += 0x9e3779b97f4a7c15
				v := x
				v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
				v = (v ^ v>>27) * 0x94d049bb133111eb
				z[s][p][c] = v ^ v>>31
			}
		}
	}
	return z
}()

// cellKey is the Zobrist key of side s having n checkers on cell p.
func cellKey(s, p int, n int8) uint64 { return zobrist[s][p][uint8(n)&15] }

// zobristStep[s][p][n] turns the hash of a board with n checkers of side
// s on cell p into that of the board with n+1 there (and back).
var zobristStep = func() (z [2][25][16]uint64) {
	for s := range z {
		for p := range z[s] {
			for n := range 15 {
				z[s][p][n] = zobrist[s][p][n] ^ zobrist[s][p][n+1]
			}
		}
	}
	return z
}()

// hashBoard is the Zobrist hash of b.
func hashBoard(b *Board) uint64 {
	var h uint64
	for s := range b {
		for p, n := range b[s] {
			h ^= cellKey(s, p, n)
		}
	}
	return h
}

// NewMoveGen returns a generator with empty buffers.
func NewMoveGen() *MoveGen { return &MoveGen{slots: make([]genSlot, 128)} }

// Generate returns every legal move for the player on roll of b with dice
// d1 and d2, one move per distinct resulting position, and the resulting
// positions (seen from the same player, not swapped). When no die can be
// played the result is a single empty move. The slices belong to g and are
// overwritten by the next call.
func (g *MoveGen) Generate(b Board, d1, d2 int) ([]Move, []Board) {
	g.moves, g.boards, g.larger = g.moves[:0], g.boards[:0], g.larger[:0]
	g.clearSlots()
	g.maxDepth = 0
	a, c := int8(d1), int8(d2)
	if a < c {
		a, c = c, a
	}
	g.big = a
	g.doubles = a == c
	g.board = b
	h := hashBoard(&g.board)
	var occ, blocked uint32 // bit p: the player on roll holds its point p; the opponent holds it
	out := 0                // checkers of the player on roll outside its home board
	for p := 1; p <= 24; p++ {
		if b[OnRoll][p-1] > 0 {
			occ |= 1 << p
		}
		if b[Opponent][24-p] >= 2 {
			blocked |= 1 << p
		}
		if p > 6 {
			out += int(b[OnRoll][p-1])
		}
	}
	out += int(b[OnRoll][BarIndex])
	g.blocked = blocked
	if g.doubles {
		g.dice, g.nd = [4]int8{a, a, a, a}, 4
		g.search(h, occ, out, 0, Move{}, 25, false)
	} else {
		g.dice, g.nd = [4]int8{a, c}, 2
		g.search(h, occ, out, 0, Move{}, 25, false)
		g.dice = [4]int8{c, a}
		g.search(h, occ, out, 0, Move{}, 25, false)
		if g.maxDepth == 1 {
			g.keepLarger()
		}
	}
	return g.moves, g.boards
}

// clearSlots empties the table by moving to the next generation (and
// truly clears it once in 2^32 calls, when the number wraps).
func (g *MoveGen) clearSlots() {
	if len(g.slots) == 0 {
		g.slots = make([]genSlot, 128)
	}
	g.gen++
	if g.gen == 0 {
		clear(g.slots)
		g.gen = 1
	}
}

// search plays die k of g.dice from every point it can on g.board, whose
// hash is h, whose points held by the player on roll are the bits of occ
// (bit p for point p) and which has out checkers outside the home board,
// and goes on with the next die; a move that can play no further ends in
// leaf. Each step is taken back before the next is tried.
func (g *MoveGen) search(h uint64, occ uint32, out, k int, cur Move, maxFrom int8, usedBig bool) {
	b := &g.board
	if k == g.nd {
		g.leaf(h, cur, k, usedBig)
		return
	}
	d := g.dice[k]
	big := usedBig || d == g.big
	if b[OnRoll][BarIndex] > 0 {
		to := 25 - d
		if g.blocked&(1<<to) != 0 {
			g.leaf(h, cur, k, usedBig)
			return
		}
		next := cur
		next.push(Step{25, to})
		g.step(h, occ, out, k, next, 25, to, maxFrom, big)
		return
	}
	top := int8(24)
	if g.doubles && maxFrom < top {
		top = maxFrom
	}
	// The points a checker may leave with d to land on an open point, from
	// the highest down, then (all checkers home) those it bears off from.
	from := occ &^ (g.blocked << d) & (1<<(top+1) - 1) &^ (1<<(d+1) - 1)
	moved := from != 0
	for from != 0 {
		p := int8(bits.Len32(from) - 1)
		from &^= 1 << p
		next := cur
		next.push(Step{p, p - d})
		g.step(h, occ, out, k, next, p, p-d, p, big)
	}
	if out == 0 {
		for p := min(top, d); p >= 1; p-- {
			if occ&(1<<p) == 0 || !bearOffLegal(b, p, p-d) {
				continue
			}
			moved = true
			next := cur
			next.push(Step{p, 0})
			g.step(h, occ, out, k, next, p, 0, p, big)
		}
	}
	if !moved {
		g.leaf(h, cur, k, usedBig)
	}
}

// bearOffLegal reports whether, with every checker home, one may bear off
// from point from with a die that takes it to to (0 or below): exactly,
// or with a higher die from the highest point held.
func bearOffLegal(b *Board, from, to int8) bool {
	if to == 0 {
		return true
	}
	for i := from; i < 6; i++ {
		if b[OnRoll][i] != 0 {
			return false
		}
	}
	return true
}

// step plays one checker from from to to (0: off) on g.board, updating
// the hash and the points held, searches on from die k+1 with next, and
// takes the step back.
func (g *MoveGen) step(h uint64, occ uint32, out, k int, next Move, from, to, maxFrom int8, big bool) {
	b := &g.board
	f := int(from - 1)
	n := b[OnRoll][f] - 1
	h ^= zobristStep[OnRoll][f][uint8(n)&15]
	b[OnRoll][f] = n
	if n == 0 {
		occ &^= 1 << from
	}
	if from > 6 && to <= 6 {
		out--
	}
	hit := false
	if to > 0 {
		t := int(to - 1)
		n := b[OnRoll][t]
		h ^= zobristStep[OnRoll][t][uint8(n)&15]
		b[OnRoll][t] = n + 1
		occ |= 1 << to
		if o := 24 - to; b[Opponent][o] == 1 {
			hit = true
			bar := b[Opponent][BarIndex]
			h ^= zobristStep[Opponent][o][0] ^ zobristStep[Opponent][BarIndex][uint8(bar)&15]
			b[Opponent][o] = 0
			b[Opponent][BarIndex] = bar + 1
		}
	}
	g.search(h, occ, out, k+1, next, maxFrom, big)
	if to > 0 {
		if hit {
			b[Opponent][24-to] = 1
			b[Opponent][BarIndex]--
		}
		b[OnRoll][to-1]--
	}
	b[OnRoll][f]++
}

// leaf records g.board, reached by m with depth dice played, unless a
// move of more dice is known or the position is already recorded (then
// only whether the larger die was used is added to it).
func (g *MoveGen) leaf(h uint64, m Move, depth int, usedBig bool) {
	if depth < g.maxDepth {
		return
	}
	if depth > g.maxDepth {
		g.maxDepth = depth
		g.moves, g.boards, g.larger = g.moves[:0], g.boards[:0], g.larger[:0]
		g.clearSlots()
	}
	mask := uint64(len(g.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &g.slots[i]
		if sl.gen != g.gen {
			*sl = genSlot{hash: h, idx: int32(len(g.moves)), gen: g.gen}
			break
		}
		if sl.hash == h && g.boards[sl.idx] == g.board {
			g.larger[sl.idx] = g.larger[sl.idx] || usedBig
			return
		}
	}
	g.moves = append(g.moves, m)
	g.boards = append(g.boards, g.board)
	g.larger = append(g.larger, usedBig)
	if 2*len(g.moves) > len(g.slots) {
		g.growSlots()
	}
}

// growSlots doubles the table and enters the recorded positions again.
func (g *MoveGen) growSlots() {
	g.slots = make([]genSlot, 2*len(g.slots))
	g.gen = 1
	mask := uint64(len(g.slots) - 1)
	for idx := range g.boards {
		h := hashBoard(&g.boards[idx])
		i := h & mask
		for g.slots[i].gen == g.gen {
			i = (i + 1) & mask
		}
		g.slots[i] = genSlot{hash: h, idx: int32(idx), gen: g.gen}
	}
}

// keepLarger applies the rule that when only one die can be played, the
// larger one must be played if it can.
func (g *MoveGen) keepLarger() {
	any := false
	for _, l := range g.larger {
		any = any || l
	}
	if !any {
		return
	}
	n := 0
	for i := range g.moves {
		if g.larger[i] {
			g.moves[n], g.boards[n], g.larger[n] = g.moves[i], g.boards[i], true
			n++
		}
	}
	g.moves, g.boards, g.larger = g.moves[:n], g.boards[:n], g.larger[:n]
}

// LegalMoves is Generate with fresh buffers, for callers that keep the result.
func LegalMoves(b Board, d1, d2 int) ([]Move, []Board) {
	ms, bs := NewMoveGen().Generate(b, d1, d2)
	return ms, bs
}

// FindLegal returns the legal move that reaches the same position as m, if
// any: a move is legal exactly when its result is one of the legal results.
func (g *MoveGen) FindLegal(b Board, d1, d2 int, m Move) (Move, bool) {
	target, ok := playSteps(b, m)
	if !ok {
		return Move{}, false
	}
	moves, boards := g.Generate(b, d1, d2)
	for i := range boards {
		if boards[i] == target {
			return moves[i], true
		}
	}
	return Move{}, false
}

// playSteps applies m's steps, checking only that each moves an existing
// checker; the full legality check compares the result with the legal ones.
func playSteps(b Board, m Move) (Board, bool) {
	if m.N < 0 || m.N > 4 {
		return b, false
	}
	for _, s := range m.StepList() {
		if s.From < 1 || s.From > 25 || s.To < 0 || s.To >= s.From || b[OnRoll][s.From-1] == 0 {
			return b, false
		}
		applyStep(&b, s)
	}
	return b, true
}
