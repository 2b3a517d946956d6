package backgammon

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

// allHome reports whether the player on roll has every checker on points 1..6.
func allHome(b *Board) bool {
	for i := 6; i < 25; i++ {
		if b[OnRoll][i] != 0 {
			return false
		}
	}
	return true
}

// stepLegal reports whether the player on roll may move a checker from
// point from with die d, ignoring the bar-first rule.
func stepLegal(b *Board, from, d int8) bool {
	if b[OnRoll][from-1] == 0 {
		return false
	}
	to := from - d
	if to >= 1 {
		return b[Opponent][24-to] < 2
	}
	if !allHome(b) {
		return false
	}
	if to == 0 {
		return true
	}
	// A higher die bears off from a lower point only when no checker stands higher.
	for i := from; i < 6; i++ {
		if b[OnRoll][i] != 0 {
			return false
		}
	}
	return true
}

func target(from, d int8) int8 {
	if to := from - d; to > 0 {
		return to
	}
	return 0
}

// MoveGen generates legal moves. It keeps its buffers between calls, so one
// generator per goroutine makes generation allocation-free in steady state.
type MoveGen struct {
	moves    []Move
	boards   []Board
	larger   []bool
	index    map[Board]int32
	maxDepth int
	big      int8
	doubles  bool
}

// NewMoveGen returns a generator with empty buffers.
func NewMoveGen() *MoveGen { return &MoveGen{index: make(map[Board]int32, 64)} }

// Generate returns every legal move for the player on roll of b with dice
// d1 and d2, one move per distinct resulting position, and the resulting
// positions (seen from the same player, not swapped). When no die can be
// played the result is a single empty move. The slices belong to g and are
// overwritten by the next call.
func (g *MoveGen) Generate(b Board, d1, d2 int) ([]Move, []Board) {
	g.moves, g.boards, g.larger = g.moves[:0], g.boards[:0], g.larger[:0]
	clear(g.index)
	g.maxDepth = 0
	a, c := int8(d1), int8(d2)
	if a < c {
		a, c = c, a
	}
	g.big = a
	g.doubles = a == c
	if g.doubles {
		g.search(b, [4]int8{a, a, a, a}, 4, 0, Move{}, 25, false)
	} else {
		g.search(b, [4]int8{a, c}, 2, 0, Move{}, 25, false)
		g.search(b, [4]int8{c, a}, 2, 0, Move{}, 25, false)
		if g.maxDepth == 1 {
			g.keepLarger()
		}
	}
	return g.moves, g.boards
}

func (g *MoveGen) search(b Board, dice [4]int8, nd, k int, cur Move, maxFrom int8, usedBig bool) {
	if k == nd {
		g.leaf(&b, cur, k, usedBig)
		return
	}
	d := dice[k]
	big := usedBig || d == g.big
	if b[OnRoll][BarIndex] > 0 {
		to := 25 - d
		if b[Opponent][24-to] >= 2 {
			g.leaf(&b, cur, k, usedBig)
			return
		}
		nb := b
		s := Step{25, to}
		applyStep(&nb, s)
		next := cur
		next.push(s)
		g.search(nb, dice, nd, k+1, next, maxFrom, big)
		return
	}
	moved := false
	top := int8(24)
	if g.doubles && maxFrom < top {
		top = maxFrom
	}
	for from := top; from >= 1; from-- {
		if !stepLegal(&b, from, d) {
			continue
		}
		moved = true
		nb := b
		s := Step{from, target(from, d)}
		applyStep(&nb, s)
		next := cur
		next.push(s)
		g.search(nb, dice, nd, k+1, next, from, big)
	}
	if !moved {
		g.leaf(&b, cur, k, usedBig)
	}
}

func (g *MoveGen) leaf(b *Board, m Move, depth int, usedBig bool) {
	if depth < g.maxDepth {
		return
	}
	if depth > g.maxDepth {
		g.maxDepth = depth
		g.moves, g.boards, g.larger = g.moves[:0], g.boards[:0], g.larger[:0]
		clear(g.index)
	}
	if i, ok := g.index[*b]; ok {
		g.larger[i] = g.larger[i] || usedBig
		return
	}
	g.index[*b] = int32(len(g.moves))
	g.moves = append(g.moves, m)
	g.boards = append(g.boards, *b)
	g.larger = append(g.larger, usedBig)
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
