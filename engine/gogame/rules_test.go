package gogame

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkInvariants checks everything Position keeps incrementally against a
// count from scratch: colours, chains, pseudo-liberties, the empty list,
// the hash, and that every chain has a real liberty.
func checkInvariants(t *testing.T, p *Position) {
	t.Helper()
	var hash uint64
	empties := 0
	for pt := range p.color {
		r, c := int32(pt)/p.stride, int32(pt)%p.stride
		inside := r >= 1 && r <= p.size && c >= 1 && c <= p.size
		col := p.color[pt]
		if !inside {
			if col != border {
				t.Fatalf("border point %d has colour %v", pt, col)
			}
			continue
		}
		switch col {
		case Empty:
			empties++
			if i := p.emptyAt[pt]; i < 0 || int(i) >= len(p.empty) || p.empty[i] != int32(pt) {
				t.Fatalf("empty point %v not in the empty list", p.move(int32(pt)))
			}
			if p.chain[pt] != 0 {
				t.Fatalf("empty point %v in chain %d", p.move(int32(pt)), p.chain[pt])
			}
		case Black, White:
			hash ^= zobrist[col][pt]
			h := p.chain[pt]
			if p.chain[h] != h || p.color[h] != col {
				t.Fatalf("stone %v: chain head %d is not a %v head", p.move(int32(pt)), h, col)
			}
			if int32(pt) != h {
				continue
			}
			// Walk the chain from its head.
			n, libs, real := int32(0), int32(0), map[int32]bool{}
			s := h
			for {
				if p.chain[s] != h || p.color[s] != col {
					t.Fatalf("chain %v: stone %v is not in it", p.move(h), p.move(s))
				}
				n++
				for _, d := range p.dirs {
					if p.color[s+d] == Empty {
						libs++
						real[s+d] = true
					}
				}
				s = p.next[s]
				if s == h {
					break
				}
				if n > p.size*p.size {
					t.Fatalf("chain %v: next list does not close", p.move(h))
				}
			}
			if n != p.stones[h] {
				t.Fatalf("chain %v: %d stones counted, %d recorded", p.move(h), n, p.stones[h])
			}
			if libs != p.libs[h] {
				t.Fatalf("chain %v: %d pseudo-liberties counted, %d recorded", p.move(h), libs, p.libs[h])
			}
			if len(real) == 0 {
				t.Fatalf("chain %v has no liberty\n%v", p.move(h), p.Board())
			}
		default:
			t.Fatalf("point %v has colour %v", p.move(int32(pt)), col)
		}
	}
	// Every stone's head walk covered its stones: count them per head.
	perHead := map[int32]int32{}
	for pt, col := range p.color {
		if col == Black || col == White {
			perHead[p.chain[pt]]++
		}
	}
	for h, n := range perHead {
		if p.stones[h] != n {
			t.Fatalf("chain %v: %d stones name it, %d recorded", p.move(h), n, p.stones[h])
		}
	}
	if empties != len(p.empty) {
		t.Fatalf("%d empty points, %d in the list", empties, len(p.empty))
	}
	if hash != p.hash {
		t.Fatalf("hash %x, recomputed %x", p.hash, hash)
	}
}

func sameBoard(t *testing.T, g *Game, n *naive) {
	t.Helper()
	b := g.Board()
	for i, c := range n.b {
		if m := At(i%n.size, i/n.size); b.At(m) != c {
			t.Fatalf("at %v: game has %v, naive %v\ngame:\n%v", m, b.At(m), c, b)
		}
	}
	for _, c := range []Color{Black, White} {
		if g.Captured(c) != n.captured[c] {
			t.Fatalf("%v captured %d, naive %d", c, g.Captured(c), n.captured[c])
		}
	}
}

// randomGame plays a random game in g and n side by side, checking after
// every move that both agree on the legality of every point (and on why a
// point is illegal), on the board and on the captures, and that the
// position's invariants hold. Moves are drawn uniformly from the legal
// points that do not fill one of the mover's own one-point eyes; a side
// passes when none is left, or now and then at random. It returns how
// many moves each rule forbade along the way.
func randomGame(t *testing.T, rng *rand.Rand, g *Game, n *naive, checkAll bool, maxMoves int) map[string]int {
	t.Helper()
	size := g.Size()
	forbidden := map[string]int{}
	played := [3]int{}
	for _, m := range g.Handicap() {
		n.b[m.Row()*size+m.Col()] = Black
		played[Black]++
	}
	n.history = [][]Color{slices.Clone(n.b)}
	sameBoard(t, g, n)
	for moves := 0; !g.Over() && moves < maxMoves; moves++ {
		c := g.ToPlay()
		var candidates []Move
		for i := range size * size {
			m := At(i%size, i/size)
			if !checkAll && n.b[i] != Empty {
				continue
			}
			err := g.Legal(c, m)
			if checkAll || rng.IntN(4) == 0 {
				_, _, nerr := n.after(c, i)
				if kind(err) != kind(nerr) {
					t.Fatalf("move %d, %v %v: game says %q, naive %q\n%v", moves+1, c, m, kind(err), kind(nerr), g.Board())
				}
			}
			if err != nil {
				forbidden[kind(err)]++
				continue
			}
			if !g.pos.Eye(c, m) {
				candidates = append(candidates, m)
			}
		}
		if len(candidates) == 0 || rng.IntN(size*size*2) == 0 {
			if err := g.Pass(c); err != nil {
				t.Fatalf("pass: %v", err)
			}
			n.pass()
			continue
		}
		m := candidates[rng.IntN(len(candidates))]
		if err := g.Play(c, m); err != nil {
			t.Fatalf("playing legal %v %v: %v", c, m, err)
		}
		if err := n.play(c, m.Row()*size+m.Col()); err != nil {
			t.Fatalf("naive refuses %v %v: %v", c, m, err)
		}
		played[c]++
		sameBoard(t, g, n)
		checkInvariants(t, g.pos)
		for _, col := range []Color{Black, White} {
			if on := len(g.Board().Stones(col)); on != played[col]-g.Captured(col.Opponent()) {
				t.Fatalf("%v: %d stones on the board, %d played less %d captured", col, on, played[col], g.Captured(col.Opponent()))
			}
		}
	}
	return forbidden
}

// TestRandomGamesAgainstNaive plays random games on every size from 2 to
// 19 and compares each step with the naive implementation, then the final
// area count with the naive flood fill.
func TestRandomGamesAgainstNaive(t *testing.T) {
	games := 3
	if testing.Short() {
		games = 1
	}
	rng := rand.New(rand.NewPCG(1, 2))
	total := map[string]int{}
	finished := 0
	for size := MinSize; size <= 19; size++ {
		for i := range games {
			superko := i%2 == 1
			g, err := NewGame(Settings{Size: size, Komi: 7.5, Superko: superko})
			if err != nil {
				t.Fatal(err)
			}
			n := newNaive(size, superko)
			checkAll := size <= 9 || !testing.Short()
			for k, v := range randomGame(t, rng, g, n, checkAll, 3*size*size) {
				total[k] += v
			}
			if !g.Over() {
				continue
			}
			finished++
			b, w := n.score()
			s := g.AreaScore()
			if s.Black != b || s.White != w {
				t.Fatalf("size %d: score B %d W %d, naive B %d W %d\n%v", size, s.Black, s.White, b, w, g.Board())
			}
		}
	}
	// The test means something only if every rule came up.
	for _, e := range []error{ErrOccupied, ErrSuicide, ErrKo} {
		if total[e.Error()] == 0 {
			t.Errorf("no move was forbidden by %q", e)
		}
	}
	if finished < 10 {
		t.Errorf("only %d games reached two passes", finished)
	}
	t.Logf("forbidden: %v; %d games finished", total, finished)
}

// TestSuperkoAgainstNaive plays random games on small boards, where
// positions repeat often, and checks that superko forbids exactly the
// moves that recreate an earlier position.
func TestSuperkoAgainstNaive(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 60
	}
	rng := rand.New(rand.NewPCG(3, 4))
	total := map[string]int{}
	for i := range games {
		size := 2 + i%4
		g, _ := NewGame(Settings{Size: size, Superko: true})
		n := newNaive(size, true)
		if size >= 4 && i%3 == 0 {
			// Some games start from a free handicap.
			stones := []Move{At(0, 0), At(size-1, size-1), At(1, 2)}
			if err := g.SetFreeHandicap(stones); err != nil {
				t.Fatal(err)
			}
		}
		for k, v := range randomGame(t, rng, g, n, true, 200) {
			total[k] += v
		}
	}
	if total[ErrSuperko.Error()] == 0 || total[ErrKo.Error()] == 0 {
		t.Errorf("superko and ko should both come up: %v", total)
	}
	t.Logf("forbidden: %v", total)
}

func mustPlay(t *testing.T, g *Game, moves string) {
	t.Helper()
	for _, v := range strings.Fields(moves) {
		m, err := ParseVertex(v, g.Size())
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(g.ToPlay(), m); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
	}
}

func TestKo(t *testing.T) {
	for _, superko := range []bool{false, true} {
		g, _ := NewGame(Settings{Size: 5, Superko: superko})
		// Black's mouth at C3, White's at D3; Black plays into White's,
		// White takes it from C3.
		mustPlay(t, g, "C4 D4 B3 E3 C2 D2 D3 C3")
		if g.Captured(White) != 1 || g.Board().At(At(3, 2)) != Empty {
			t.Fatalf("C3 should capture D3:\n%v", g.Board())
		}
		if ko := g.pos.Ko(Black); ko != At(3, 2) {
			t.Errorf("ko point for black: %v", ko)
		}
		if err := g.Play(Black, At(3, 2)); !errors.Is(err, ErrKo) {
			t.Fatalf("immediate retake at D3: %v", err)
		}
		// After a move elsewhere the retake is legal (also under superko:
		// the board differs by the two moves).
		mustPlay(t, g, "A1 A5 D3")
		if g.Captured(Black) != 1 || g.Board().At(At(2, 2)) != Empty {
			t.Fatalf("D3 should capture C3:\n%v", g.Board())
		}
		if ko := g.pos.Ko(White); ko != At(2, 2) {
			t.Errorf("ko point for white: %v", ko)
		}
		// A pass clears it.
		mustPlay(t, g, "pass")
		if ko := g.pos.Ko(White); ko != Pass {
			t.Errorf("ko point after a pass: %v", ko)
		}
	}
}

func TestErrors(t *testing.T) {
	g, _ := NewGame(Settings{Size: 3})
	if err := g.Play(White, At(0, 0)); !errors.Is(err, ErrWrongTurn) {
		t.Errorf("white first: %v", err)
	}
	if err := g.Play(Black, At(3, 0)); !errors.Is(err, ErrOffBoard) {
		t.Errorf("D1 on 3x3: %v", err)
	}
	if err := g.Play(Black, At(-1, 0)); !errors.Is(err, ErrOffBoard) {
		t.Errorf("At(-1, 0): %v", err)
	}
	mustPlay(t, g, "A1")
	if err := g.Play(White, At(0, 0)); !errors.Is(err, ErrOccupied) || err.Error() != "white A1: point is occupied" {
		t.Errorf("occupied: %v", err)
	}
	// Black's A1 B1 C1 lose their last liberty to White's C2.
	mustPlay(t, g, "B2 B1 A2 C1 C2")
	if g.Captured(White) != 3 || g.Board().At(At(0, 0)) != Empty {
		t.Errorf("capture of 3: %d\n%v", g.Captured(White), g.Board())
	}
	if g.MoveCount() != 6 {
		t.Errorf("%d moves", g.MoveCount())
	}
	mustPlay(t, g, "pass pass")
	if !g.Over() {
		t.Fatal("two passes should end the game")
	}
	if err := g.Play(Black, At(0, 0)); !errors.Is(err, ErrGameOver) {
		t.Errorf("after the end: %v", err)
	}
	if err := g.Pass(Black); !errors.Is(err, ErrGameOver) {
		t.Errorf("a pass after the end: %v", err)
	}
	if s := g.AreaScore(); s.Black != 0 || s.White != 9 || s.String() != "W+9" || s.Winner() != White {
		t.Errorf("score %+v %v", s, s)
	}
	if _, err := NewGame(Settings{Size: 1}); err == nil {
		t.Error("size 1 accepted")
	}
	if _, err := NewGame(Settings{Size: 26}); err == nil {
		t.Error("size 26 accepted")
	}
}

func TestSuicide(t *testing.T) {
	g, _ := NewGame(Settings{Size: 3})
	mustPlay(t, g, "B1 C3 A2")
	if err := g.Play(White, At(0, 0)); !errors.Is(err, ErrSuicide) {
		t.Errorf("white A1 into black's eye: %v", err)
	}
	// Three stones at once: White's bottom row would have no liberty.
	g, _ = NewGame(Settings{Size: 3})
	mustPlay(t, g, "A2 A1 B2 B1 C2")
	if err := g.Play(White, At(2, 0)); !errors.Is(err, ErrSuicide) {
		t.Errorf("white C1 filling its own last liberty: %v", err)
	}
	// Taking the last liberty of a chain that has no other is a capture,
	// not suicide.
	g, _ = NewGame(Settings{Size: 2})
	mustPlay(t, g, "A1 B2 B1 A2")
	if g.Captured(White) != 2 {
		t.Errorf("A2 should capture A1 B1:\n%v", g.Board())
	}
}

func TestScoreString(t *testing.T) {
	for _, tc := range []struct {
		s    Score
		want string
	}{
		{Score{Black: 45, White: 36, Komi: 7.5}, "B+1.5"},
		{Score{Black: 40, White: 41, Komi: 0}, "W+1"},
		{Score{Black: 44, White: 37, Komi: 7}, "0"},
		{Score{Black: 10, White: 0, Komi: -2.5}, "B+12.5"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

func ExampleGame() {
	g, _ := NewGame(Settings{Size: 5, Komi: 0.5})
	for _, v := range []string{"C3", "D3", "pass", "pass"} {
		m, _ := ParseVertex(v, 5)
		if err := g.Play(g.ToPlay(), m); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Print(g.Board())
	fmt.Println(g.Over(), g.AreaScore())
	// Output:
	//     A B C D E
	//   5 . . . . . 5
	//   4 . . . . . 4
	//   3 . . X O . 3
	//   2 . . . . . 2
	//   1 . . . . . 1
	//     A B C D E
	// true W+0.5
}
