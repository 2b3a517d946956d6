package pattern

import (
	"math/rand/v2"

	"github.com/gamemill/gamemill/engine/gogame"
)

// grid is a plain board for the tests: colours by point, liberties by
// flood fill.
type grid struct {
	n   int
	pts []Color
}

func newGrid(n int) *grid { return &grid{n: n, pts: make([]Color, n*n)} }

func (g *grid) Size() int              { return g.n }
func (g *grid) At(x, y int) Color      { return g.pts[y*g.n+x] }
func (g *grid) set(x, y int, c Color)  { g.pts[y*g.n+x] = c }
func (g *grid) on(x, y int) bool       { return x >= 0 && y >= 0 && x < g.n && y < g.n }
func (g *grid) Liberties(x, y int) int { l, _ := g.chain(x, y); return l }
func (g *grid) ChainSize(x, y int) int { _, s := g.chain(x, y); return s }

func (g *grid) chain(x, y int) (libs, stones int) {
	c := g.At(x, y)
	if c == gogame.Empty {
		return 0, 0
	}
	seen := map[[2]int]bool{{x, y}: true}
	lib := map[[2]int]bool{}
	stack := [][2]int{{x, y}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stones++
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			q := [2]int{p[0] + d[0], p[1] + d[1]}
			if !g.on(q[0], q[1]) || seen[q] {
				continue
			}
			switch g.At(q[0], q[1]) {
			case gogame.Empty:
				lib[q] = true
			case c:
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return len(lib), stones
}

func (g *grid) LibertiesAfter(c Color, x, y int) int {
	if g.At(x, y) != gogame.Empty {
		return 0
	}
	h := &grid{n: g.n, pts: append([]Color(nil), g.pts...)}
	h.set(x, y, c)
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		qx, qy := x+d[0], y+d[1]
		if h.on(qx, qy) && h.At(qx, qy) == c.Opponent() && g.Liberties(qx, qy) == 1 {
			h.clearChain(qx, qy)
		}
	}
	return h.Liberties(x, y)
}

func (g *grid) clearChain(x, y int) {
	c := g.At(x, y)
	if c == gogame.Empty {
		return
	}
	g.set(x, y, gogame.Empty)
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if qx, qy := x+d[0], y+d[1]; g.on(qx, qy) && g.At(qx, qy) == c {
			g.clearChain(qx, qy)
		}
	}
}

// randomGrid fills each point with a stone of either colour with
// probability density.
func randomGrid(rng *rand.Rand, n int, density float64) *grid {
	g := newGrid(n)
	for i := range g.pts {
		if rng.Float64() < density {
			g.pts[i] = Color(1 + rng.IntN(2))
		}
	}
	return g
}
