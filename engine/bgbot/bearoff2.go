package bgbot

import (
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// MaxBearoff2Checkers is the most checkers a side may have in a two-sided
// bearoff database.
const MaxBearoff2Checkers = 6

// Bearoff2 is a two-sided bearoff database: for every pair of positions
// of at most Checkers checkers a side, all in the home boards, the exact
// chance that the player on roll wins (each side playing to win, not to
// bear off soonest as a one-sided database assumes) and the exact money
// cubeful equities, in units of the cube, with the cube centred, owned by
// the player on roll, or owned by the opponent (no gammons are possible:
// both sides have borne off checkers). The cubeful equities come from the
// recursion over every roll and move with optimal doubles, takes and
// passes (no beavers), so cube decisions there need no cube-efficiency
// model. It is read-only once built and may be shared.
type Bearoff2 struct {
	Checkers int
	one      *Bearoff // the positions of one side, and their index
	n        int
	win      []float32    // [a*n+b]: the player on roll (a) wins
	nd       [3][]float32 // no-double equity by cube ownership (CubeCentred, CubeOwned, CubeUnavailable)
}

// NewBearoff2 builds the database for up to checkers checkers a side
// (1..MaxBearoff2Checkers). Six checkers (924 positions a side, 853,776
// pairs) take about a second.
func NewBearoff2(checkers int) (*Bearoff2, error) {
	if checkers < 1 || checkers > MaxBearoff2Checkers {
		return nil, fmt.Errorf("two-sided bearoff: %d checkers out of range 1..%d", checkers, MaxBearoff2Checkers)
	}
	one := emptyBearoff(checkers)
	pos := one.positions()
	n := len(pos)
	// The successors of each position for each roll, deduplicated.
	gen := backgammon.NewMoveGen()
	rolls := allRolls()
	succ := make([][21][]int32, n)
	pips := make([]int, n)
	for i, c := range pos {
		for p, x := range c {
			pips[i] += int(x) * (p + 1)
		}
		if i == 0 {
			continue
		}
		var b backgammon.Board
		copy(b[backgammon.OnRoll][:6], c[:])
		for r, rl := range rolls {
			_, boards := gen.Generate(b, int(rl.d1), int(rl.d2))
			seen := map[int32]bool{}
			for j := range boards {
				k, ok := one.index[bearoffKey(&boards[j][backgammon.OnRoll])]
				if !ok {
					return nil, fmt.Errorf("two-sided bearoff: successor of %v not indexed", c)
				}
				if !seen[k] {
					seen[k] = true
					succ[i][r] = append(succ[i][r], k)
				}
			}
		}
	}
	db := &Bearoff2{Checkers: checkers, one: one, n: n, win: make([]float32, n*n)}
	for o := range db.nd {
		db.nd[o] = make([]float32, n*n)
	}
	// V(a, b) needs V(b, a') with a' fewer pips than a: fill the pairs by
	// their total pip count. Index 0 (no checker) only ever appears as the
	// result of a move, which wins.
	byPips := map[int][]int32{}
	maxPips := 0
	for i := 1; i < n; i++ {
		byPips[pips[i]] = append(byPips[pips[i]], int32(i))
		maxPips = max(maxPips, pips[i])
	}
	for total := 2; total <= 2*maxPips; total++ {
		for pa := 1; pa < total && pa <= maxPips; pa++ {
			for _, a := range byPips[pa] {
				for _, b := range byPips[total-pa] {
					db.fill(int(a), int(b), succ[a][:], rolls[:])
				}
			}
		}
	}
	return db, nil
}

// fill computes the entries of the pair (a on roll, b).
func (db *Bearoff2) fill(a, b int, succ [][]int32, rolls []roll) {
	n := db.n
	var win, ndC, ndO, ndU float32
	for r, rl := range rolls {
		// The best move for each objective; after it the opponent is on
		// roll in (b, a'), its cube state the mirror of ours.
		bw, bc, bo, bu := float32(-2), float32(-2), float32(-2), float32(-2)
		for _, s := range succ[r] {
			var w, c, o, u float32
			if s == 0 {
				w, c, o, u = 1, 1, 1, 1
			} else {
				k := b*n + int(s)
				w = 1 - db.win[k]
				c = -db.equity(k, CubeCentred)
				o = -db.equity(k, CubeUnavailable) // we own it: the opponent cannot double
				u = -db.equity(k, CubeOwned)
			}
			bw, bc, bo, bu = max(bw, w), max(bc, c), max(bo, o), max(bu, u)
		}
		wt := float32(rl.w) / 36
		win += wt * bw
		ndC += wt * bc
		ndO += wt * bo
		ndU += wt * bu
	}
	k := a*n + b
	db.win[k] = win
	db.nd[CubeCentred][k], db.nd[CubeOwned][k], db.nd[CubeUnavailable][k] = ndC, ndO, ndU
}

// equity is the cubeful equity of pair k for the player on roll with the
// cube owned as own: the better of not doubling and doubling (where
// allowed), a double handing the opponent the cube at twice the stake to
// take (twice the equity with the cube unavailable) or pass (1).
func (db *Bearoff2) equity(k, own int) float32 {
	nd := db.nd[own][k]
	if own == CubeUnavailable {
		return nd
	}
	return max(nd, min(2*db.nd[CubeUnavailable][k], 1))
}

// pair returns the index of the position b (player on roll Board[1]) when
// both sides are in the database.
func (db *Bearoff2) pair(b *backgammon.Board) (int, bool) {
	if Contact(b) {
		return 0, false
	}
	me, ok := db.one.lookup(&b[backgammon.OnRoll])
	if !ok {
		return 0, false
	}
	op, ok := db.one.lookup(&b[backgammon.Opponent])
	if !ok {
		return 0, false
	}
	return int(me)*db.n + int(op), true
}

// Probs returns the exact cubeless probabilities of b for the player on
// roll, and false when b is not in the database.
func (db *Bearoff2) Probs(b *backgammon.Board) (Probs, bool) {
	k, ok := db.pair(b)
	if !ok {
		return Probs{}, false
	}
	return Probs{Win: min(max(db.win[k], 0), 1)}, true
}

// Cubeful returns the exact money equity of b for the player on roll, in
// units of the cube, with the cube owned as own (CubeCentred, CubeOwned or
// CubeUnavailable), and false when b is not in the database.
func (db *Bearoff2) Cubeful(b *backgammon.Board, own int) (float64, bool) {
	k, ok := db.pair(b)
	if !ok || own < CubeCentred || own > CubeUnavailable {
		return 0, false
	}
	return float64(db.equity(k, own)), true
}

// MoneyCube returns the exact cube equities of b in a money game for the
// player on roll (centred: the cube is centred, else the player owns it),
// and false when b is not in the database. The Jacoby rule changes
// nothing: no gammon is possible.
func (db *Bearoff2) MoneyCube(b *backgammon.Board, centred bool) (CubeEquities, bool) {
	k, ok := db.pair(b)
	if !ok {
		return CubeEquities{}, false
	}
	own := CubeOwned
	if centred {
		own = CubeCentred
	}
	return CubeEquities{NoDouble: float64(db.nd[own][k]), DoubleTake: 2 * float64(db.nd[CubeUnavailable][k]), DoublePass: 1}, true
}
