package gobot

import (
	"fmt"

	"github.com/gamemill/gamemill/engine/gogame"
)

// PlaceFreeHandicap chooses n handicap stones for Black and places them
// (GTP's place_free_handicap): the star points of the fixed layout in its
// order where the board has that many, then, for more stones, points of
// the third line and up that lie farthest from the stones already placed,
// so that the stones spread evenly. The board must be empty.
func (e *Engine) PlaceFreeHandicap(n int) ([]gogame.Move, error) {
	if e.game.MoveCount() > 0 || !e.emptyBoard() {
		return nil, fmt.Errorf("handicap: the board is not empty")
	}
	ms, err := freeHandicap(e.size, n)
	if err != nil {
		return nil, err
	}
	return ms, e.SetFreeHandicap(ms)
}

func freeHandicap(size, n int) ([]gogame.Move, error) {
	if n < 2 || n > gogame.MaxFreeHandicap(size) {
		return nil, fmt.Errorf("handicap %d: want 2 to %d stones on %dx%d", n, gogame.MaxFreeHandicap(size), size, size)
	}
	var ms []gogame.Move
	if k := min(n, gogame.MaxFixedHandicap(size)); k >= 2 {
		fixed, err := gogame.FixedHandicap(size, k)
		if err != nil {
			return nil, err
		}
		ms = fixed
	}
	taken := map[gogame.Move]bool{}
	for _, m := range ms {
		taken[m] = true
	}
	// The candidates: away from the first two lines where the board
	// allows, then any point.
	edge := 2
	for size-2*edge < 3 && edge > 0 {
		edge--
	}
	for len(ms) < n {
		best, bestDist := gogame.Pass, -1
		for pass := 0; pass < 2 && best == gogame.Pass; pass++ {
			lo := edge
			if pass == 1 {
				lo = 0
			}
			for y := lo; y < size-lo; y++ {
				for x := lo; x < size-lo; x++ {
					m := gogame.At(x, y)
					if taken[m] {
						continue
					}
					d := nearest(m, ms, size)
					// Ties go to the point nearer the centre, then to
					// the first in reading order.
					if d > bestDist || d == bestDist && centreDist(m, size) < centreDist(best, size) {
						best, bestDist = m, d
					}
				}
			}
		}
		ms = append(ms, best)
		taken[best] = true
	}
	return ms, nil
}

// nearest returns the squared distance from m to the nearest of ms (a
// large number when ms is empty).
func nearest(m gogame.Move, ms []gogame.Move, size int) int {
	d := 4 * size * size
	for _, s := range ms {
		dx, dy := m.Col()-s.Col(), m.Row()-s.Row()
		d = min(d, dx*dx+dy*dy)
	}
	return d
}

func centreDist(m gogame.Move, size int) int {
	if m == gogame.Pass {
		return 1 << 30
	}
	dx, dy := 2*m.Col()-(size-1), 2*m.Row()-(size-1)
	return dx*dx + dy*dy
}
