package gogame

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Settings are the rules of one game.
type Settings struct {
	Size int     // 2 to 25
	Komi float64 // added to White's score
	// Superko forbids a move that recreates any earlier position of the
	// game (stones only, whoever is to play: positional superko). Simple
	// ko is forbidden either way.
	Superko bool
}

// Played is one move of a game.
type Played struct {
	Color Color
	Move  Move
}

// Game is a game in progress, as a referee sees it: whose turn it is, the
// moves so far, and the rules that a move must pass. Black plays first,
// or White after a handicap; two passes in a row end the game.
type Game struct {
	settings Settings
	pos      *Position
	toPlay   Color
	moves    []Played
	handicap []Move
	passes   int // passes in a row at the end of moves

	// For superko: every position so far, size*size colours each, and
	// where each hash was seen.
	history []Color
	seen    map[uint64][]int
	scratch *Position
	snap    []Color
}

// NewGame starts a game on an empty board with Black to play.
func NewGame(s Settings) (*Game, error) {
	pos, err := NewPosition(s.Size)
	if err != nil {
		return nil, err
	}
	if math.IsNaN(s.Komi) || math.IsInf(s.Komi, 0) {
		return nil, fmt.Errorf("komi %v: want a finite number", s.Komi)
	}
	g := &Game{settings: s, pos: pos, toPlay: Black}
	if s.Superko {
		g.seen = make(map[uint64][]int)
		g.scratch = pos.Clone()
		g.remember()
	}
	return g, nil
}

// Settings returns the game's rules.
func (g *Game) Settings() Settings { return g.settings }

// Size returns the board's width.
func (g *Game) Size() int { return g.settings.Size }

// ToPlay returns the colour to move.
func (g *Game) ToPlay() Color { return g.toPlay }

// Over reports whether the game has ended: two passes in a row.
func (g *Game) Over() bool { return g.passes >= 2 }

// Moves returns the moves so far, handicap stones not included.
func (g *Game) Moves() []Played { return slices.Clone(g.moves) }

// MoveCount returns the number of moves so far, passes included.
func (g *Game) MoveCount() int { return len(g.moves) }

// Handicap returns the handicap stones, or nil.
func (g *Game) Handicap() []Move { return slices.Clone(g.handicap) }

// Captured returns how many stones c has captured.
func (g *Game) Captured(c Color) int { return g.pos.Captured(c) }

// Board returns a snapshot of the stones.
func (g *Game) Board() Board { return g.pos.Board() }

// Position returns a copy of the board, for a player to search from.
func (g *Game) Position() *Position { return g.pos.Clone() }

// AreaScore counts the board by area, every stone alive, with the game's
// komi.
func (g *Game) AreaScore() Score { return g.pos.AreaScore(g.settings.Komi) }

// SetFixedHandicap places the GTP fixed handicap of n stones (see
// FixedHandicap) and gives White the move. It returns the stones.
func (g *Game) SetFixedHandicap(n int) ([]Move, error) {
	stones, err := FixedHandicap(g.settings.Size, n)
	if err != nil {
		return nil, err
	}
	return stones, g.setHandicap(stones)
}

// SetFreeHandicap places a free handicap (checked by CheckFreeHandicap)
// and gives White the move.
func (g *Game) SetFreeHandicap(stones []Move) error {
	if err := CheckFreeHandicap(g.settings.Size, stones); err != nil {
		return err
	}
	return g.setHandicap(stones)
}

func (g *Game) setHandicap(stones []Move) error {
	if err := g.Setup(stones, nil, White); err != nil {
		return err
	}
	g.handicap = slices.Clone(stones)
	return nil
}

// Setup puts stones on the empty board before the first move, as an SGF
// record's AB and AW do, and gives toPlay the move. The points must be
// distinct and on the board, and every chain must have a liberty. Stones
// set up this way are not a handicap (see SetFixedHandicap and
// SetFreeHandicap).
func (g *Game) Setup(black, white []Move, toPlay Color) error {
	if len(g.moves) > 0 || len(g.pos.empty) != g.area() {
		return fmt.Errorf("setup: the board is not empty")
	}
	if toPlay != Black && toPlay != White {
		return fmt.Errorf("setup: %v cannot be to play", toPlay)
	}
	seen := make(map[Move]bool, len(black)+len(white))
	for _, m := range slices.Concat(black, white) {
		if !m.OnBoard(g.settings.Size) {
			return fmt.Errorf("setup stone %v: %w", m, ErrOffBoard)
		}
		if seen[m] {
			return fmt.Errorf("setup: %v given twice", m)
		}
		seen[m] = true
	}
	pos := g.pos.Clone()
	for i, m := range slices.Concat(black, white) {
		c := Black
		if i >= len(black) {
			c = White
		}
		pos.place(c, pos.point(m))
	}
	for _, m := range slices.Concat(black, white) {
		if h := pos.chain[pos.point(m)]; !pos.hasLiberty(h) {
			return fmt.Errorf("setup: the %v chain at %v has no liberty", pos.color[h], m)
		}
	}
	pos.ko = 0
	g.pos = pos
	g.toPlay = toPlay
	if g.settings.Superko {
		g.history = g.history[:0]
		clear(g.seen)
		g.remember()
	}
	return nil
}

// Legal returns nil if c may play m now, or why not: an error wrapping
// ErrGameOver, ErrWrongTurn, ErrOffBoard, ErrOccupied, ErrKo, ErrSuicide
// or ErrSuperko.
func (g *Game) Legal(c Color, m Move) error {
	switch {
	case g.Over():
		return moveError(c, m, ErrGameOver)
	case c != g.toPlay:
		return moveError(c, m, ErrWrongTurn)
	case m == Pass:
		return nil
	}
	if err := g.pos.Legal(c, m); err != nil {
		return err
	}
	if g.settings.Superko && g.repeats(c, g.pos.point(m)) {
		return moveError(c, m, ErrSuperko)
	}
	return nil
}

// Play plays m (a point or Pass) for c if it is legal, else returns why
// not as Legal does and changes nothing.
func (g *Game) Play(c Color, m Move) error {
	if err := g.Legal(c, m); err != nil {
		return err
	}
	if m == Pass {
		g.pos.Pass()
		g.passes++
	} else {
		g.pos.play(c, g.pos.point(m))
		g.passes = 0
		if g.settings.Superko {
			g.remember()
		}
	}
	g.moves = append(g.moves, Played{c, m})
	g.toPlay = c.Opponent()
	return nil
}

// Pass passes for c.
func (g *Game) Pass(c Color) error { return g.Play(c, Pass) }

// remember adds the current position to the superko history.
func (g *Game) remember() {
	n := len(g.history) / g.area()
	g.history = g.pos.appendBoard(g.history)
	h := g.pos.hash
	g.seen[h] = append(g.seen[h], n)
}

func (g *Game) area() int { return g.settings.Size * g.settings.Size }

// repeats reports whether c playing at pt (legal by simple ko) would
// recreate an earlier position. The hash finds candidates; the stored
// positions decide, so a hash collision cannot forbid a move.
func (g *Game) repeats(c Color, pt int32) bool {
	earlier := g.seen[g.pos.hashAfter(c, pt)]
	if len(earlier) == 0 {
		return false
	}
	g.scratch.CopyFrom(g.pos)
	g.scratch.play(c, pt)
	g.snap = g.scratch.appendBoard(g.snap[:0])
	a := g.area()
	for _, i := range earlier {
		if slices.Equal(g.history[i*a:(i+1)*a], g.snap) {
			return true
		}
	}
	return false
}

// hashAfter returns the hash the position would have after c plays at the
// empty point pt: the new stone in, the captured chains out.
func (p *Position) hashAfter(c Color, pt int32) uint64 {
	h := p.hash ^ zobrist[c][pt]
	opp := c.Opponent()
	var done [4]int32
	for i, d := range p.dirs {
		q := pt + d
		if p.color[q] != opp {
			continue
		}
		head := p.chain[q]
		if slices.Contains(done[:i], head) || p.libs[head] != p.adjacent(pt, head) {
			continue
		}
		done[i] = head
		s := head
		for {
			h ^= zobrist[opp][s]
			s = p.next[s]
			if s == head {
				break
			}
		}
	}
	return h
}

// Board is a snapshot of the stones on a board.
type Board struct {
	size   int
	points []Color // row by row from the bottom, left to right
}

// Board returns a snapshot of the stones.
func (p *Position) Board() Board {
	return Board{size: int(p.size), points: p.appendBoard(nil)}
}

// appendBoard appends the colours of the board's points to dst, row by
// row from the bottom.
func (p *Position) appendBoard(dst []Color) []Color {
	for row := int32(1); row <= p.size; row++ {
		start := row*p.stride + 1
		dst = append(dst, p.color[start:start+p.size]...)
	}
	return dst
}

// Size returns the board's width.
func (b Board) Size() int { return b.size }

// At returns the colour at m (Empty off the board).
func (b Board) At(m Move) Color {
	if !m.OnBoard(b.size) {
		return Empty
	}
	return b.points[m.Row()*b.size+m.Col()]
}

// Stones returns c's stones, row by row from the bottom.
func (b Board) Stones(c Color) []Move {
	var out []Move
	for i, pc := range b.points {
		if pc == c {
			out = append(out, At(i%b.size, i/b.size))
		}
	}
	return out
}

// Equal reports whether two boards hold the same stones.
func (b Board) Equal(o Board) bool { return b.size == o.size && slices.Equal(b.points, o.points) }

// String draws the board as text, top row first: X black, O white, .
// empty, with GTP coordinates round it.
func (b Board) String() string {
	var sb strings.Builder
	letters := "   "
	for col := range b.size {
		letters += " " + gtpColumns[col:col+1]
	}
	sb.WriteString(letters + "\n")
	for row := b.size - 1; row >= 0; row-- {
		fmt.Fprintf(&sb, "%3d", row+1)
		for col := range b.size {
			sb.WriteByte(' ')
			sb.WriteByte(".XO"[b.points[row*b.size+col]])
		}
		fmt.Fprintf(&sb, " %d\n", row+1)
	}
	sb.WriteString(letters + "\n")
	return sb.String()
}
