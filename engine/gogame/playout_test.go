package gogame

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestPlayouts runs random playouts on several sizes and checks that each
// ends with two passes, leaves a consistent board where every chain has a
// liberty, and scores as the naive flood fill does.
func TestPlayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for size := MinSize; size <= 19; size++ {
		for range 5 {
			p, _ := NewPosition(size)
			p.Playout(Black, rng, 10*size*size)
			checkInvariants(t, p)
			n := newNaive(size, false)
			b := p.Board()
			for i := range n.b {
				n.b[i] = b.At(At(i%size, i/size))
			}
			// Finished: neither side has a move the policy would play.
			for _, c := range []Color{Black, White} {
				q := p.Clone()
				if m := q.PlayRandom(c, rng); m != Pass {
					t.Fatalf("size %d: playout ended with %v %v still to play\n%v", size, c, m, b)
				}
			}
			nb, nw := n.score()
			if s := p.AreaScore(0); s.Black != nb || s.White != nw {
				t.Fatalf("size %d: score %+v, naive B %d W %d\n%v", size, s, nb, nw, b)
			}
		}
	}
}

// TestPlayRandomUniform draws many moves from one position and checks
// that every legal point that is not the mover's eye comes up about
// equally often, and no other point at all.
func TestPlayRandomUniform(t *testing.T) {
	g, _ := NewGame(Settings{Size: 4})
	// For White, A1 is suicide (Black's eye) and D4 is White's own eye:
	// neither may come up; the other 9 empty points must, equally.
	mustPlay(t, g, "B1 C4 A2 D3 B2")
	base := g.Position()
	const draws = 40000
	counts := map[Move]int{}
	rng := rand.New(rand.NewPCG(9, 10))
	p := base.Clone()
	for range draws {
		p.CopyFrom(base)
		counts[p.PlayRandom(White, rng)]++
	}
	var want []Move
	for i := range 16 {
		m := At(i%4, i/4)
		if base.Legal(White, m) == nil && !base.Eye(White, m) {
			want = append(want, m)
		}
	}
	if len(want) != 9 || len(counts) != len(want) {
		t.Errorf("drew %d different moves, %d are allowed: %v", len(counts), len(want), counts)
	}
	expect := float64(draws) / float64(len(want))
	for _, m := range want {
		if got := float64(counts[m]); got < 0.93*expect || got > 1.07*expect {
			t.Errorf("%v drawn %v times, expected about %.0f", m, got, expect)
		}
	}
	for _, m := range []Move{At(0, 0), At(3, 3)} {
		if counts[m] != 0 {
			t.Errorf("%v drawn %d times", m, counts[m])
		}
	}
}

// BenchmarkPlayout9x9 measures one random playout on an empty 9x9 board:
// uniformly random legal moves that never fill a one-point own eye, to
// two passes, then the area count.
func BenchmarkPlayout9x9(b *testing.B) {
	empty, _ := NewPosition(9)
	p := empty.Clone()
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	for b.Loop() {
		p.CopyFrom(empty)
		moves += p.Playout(Black, rng, 1000)
		p.AreaScore(7.5)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

func BenchmarkPlayout19x19(b *testing.B) {
	empty, _ := NewPosition(19)
	p := empty.Clone()
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	for b.Loop() {
		p.CopyFrom(empty)
		moves += p.Playout(Black, rng, 5000)
		p.AreaScore(7.5)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkGamePlay9x9 measures the referee's path: a random game played
// through Game.Play, with positional superko.
func BenchmarkGamePlay9x9(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	for b.Loop() {
		g, _ := NewGame(Settings{Size: 9, Komi: 7.5, Superko: true})
		p := g.Position()
		for !g.Over() && g.MoveCount() < 1000 {
			c := g.ToPlay()
			m := p.PlayRandom(c, rng)
			err := g.Play(c, m)
			if errors.Is(err, ErrSuperko) {
				// The playout policy knows only simple ko: pass instead.
				p.CopyFrom(g.pos)
				p.Pass()
				err = g.Play(c, Pass)
			}
			if err != nil {
				b.Fatal(err)
			}
			moves++
		}
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}
