package gobot

import (
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/gogame"
)

// TestBoardAgainstGogame plays random games on both boards and compares
// legality of every point, the stones and the liberty counts (against a
// flood fill) after every move.
func TestBoardAgainstGogame(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	games := 12
	if testing.Short() {
		games = 4
	}
	for g := 0; g < games; g++ {
		size := 5 + rng.IntN(10)
		ref, _ := gogame.NewPosition(size)
		b, _ := newBoard(size)
		c := black
		for mv := 0; mv < 3*size*size; mv++ {
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					m := gogame.At(x, y)
					pt := b.pt(m)
					if want, got := ref.Legal(c, m) == nil, b.legal(c, pt); want != got {
						t.Fatalf("size %d move %d: %v %v legal %v, gogame says %v", size, mv, c, m, got, want)
					}
					if ref.At(m) != b.color[pt] {
						t.Fatalf("size %d move %d: %v is %v, gogame has %v", size, mv, m, b.color[pt], ref.At(m))
					}
					if mv%9 != 0 {
						continue
					}
					if b.color[pt] == black || b.color[pt] == white {
						want := floodLibs(b, pt)
						if got := b.libCount(b.chain[pt], 1000); got != want {
							t.Fatalf("%v: %d liberties, flood fill says %d", m, got, want)
						}
					} else if b.legal(c, pt) {
						cp := &board{}
						cp.copyFrom(b)
						cp.play(c, pt)
						want := floodLibs(cp, pt)
						if got := b.libsAfter(c, pt, 1000); got < min(want, 1) || got > want {
							t.Fatalf("%v at %v: libsAfter %d, after playing %d", c, m, got, want)
						}
						if got := b.libsAfter(c, pt, 2); min(got, 2) != min(want, 2) && !capturesSome(b, c, pt) {
							t.Fatalf("%v at %v: libsAfter(2) %d, after playing %d", c, m, got, want)
						}
					}
				}
			}
			m := ref.PlayRandom(c, rng)
			if m != gogame.Pass {
				b.play(c, b.pt(m))
			} else {
				b.play(c, 0)
			}
			c = c.Opponent()
		}
		if got, want := b.areaScore(), ref.AreaScore(0); float64(got) != want.Margin() {
			t.Fatalf("area score %d, gogame %v", got, want.Margin())
		}
	}
}

// capturesSome reports whether c at pt captures: libsAfter may then
// count fewer liberties than the capture frees.
func capturesSome(b *board, c Color, pt int32) bool {
	for _, d := range b.dirs {
		q := pt + d
		if b.color[q] == c.Opponent() && b.libCount(b.chain[q], 2) == 1 {
			return true
		}
	}
	return false
}

func floodLibs(b *board, pt int32) int {
	c := b.color[pt]
	seen := map[int32]bool{pt: true}
	libs := map[int32]bool{}
	stack := []int32{pt}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range b.dirs {
			q := p + d
			switch {
			case b.color[q] == empty:
				libs[q] = true
			case b.color[q] == c && !seen[q]:
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return len(libs)
}
