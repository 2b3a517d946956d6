package bgbot

import (
	"fmt"
	"slices"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// BearoffRolls is the length of a one-sided bearoff distribution; the tail
// beyond it is folded into the last entry.
const BearoffRolls = 32

// DefaultBearoffCheckers is the number of checkers the bots' bearoff
// database covers: positions with at most this many checkers, all in the
// home board. With 10 or fewer left a side has borne off at least 5, so no
// gammon is possible and the database's win chance is the whole answer.
const DefaultBearoffCheckers = 10

// Bearoff is a one-sided bearoff database: for every position of at most
// Checkers checkers on the home board points 1..6, the distribution of the
// number of rolls needed to bear them all off, playing each roll to
// minimise the expected number of rolls (as gnubg's one-sided databases
// do). Two such distributions give a race's winning chance. It is
// read-only once built and may be shared between goroutines.
//
// A database of 15 checkers also holds, for each position with all 15 still
// on the board, the distribution of the rolls needed to bear off the first
// checker (playing each roll to make that soonest), so that its races
// include gammons: gnubg's one-sided database with gammon distributions.
type Bearoff struct {
	Checkers int
	index    map[uint32]int32
	dist     [][BearoffRolls]float32
	mean     []float32
	first    [][BearoffRolls]float32 // rolls to the first checker off; nil below 15 checkers
	firstMn  []float32
}

// bearoffKey packs home-board counts (4 bits each, point 1 lowest).
func bearoffKey(s *[25]int8) uint32 {
	var k uint32
	for i := 5; i >= 0; i-- {
		k = k<<4 | uint32(s[i])
	}
	return k
}

// NewBearoff builds the database for up to checkers checkers (1..15). Ten
// checkers take a few hundred milliseconds.
func NewBearoff(checkers int) (*Bearoff, error) {
	if checkers < 1 || checkers > 15 {
		return nil, fmt.Errorf("bearoff: %d checkers out of range 1..15", checkers)
	}
	db := emptyBearoff(checkers)
	gen := backgammon.NewMoveGen()
	rolls := allRolls()
	for i, c := range db.positions() {
		var b backgammon.Board
		copy(b[backgammon.OnRoll][:6], c[:])
		n := 0
		for _, x := range c {
			n += int(x)
		}
		full := db.first != nil && n == 15
		if db.first != nil && !full { // a checker is off already
			db.first[i][0] = 1
		}
		if i == 0 { // nothing left: done in 0 rolls
			db.dist[0][0] = 1
			continue
		}
		var mean, fmean float32 = 1, 1
		var d, f [BearoffRolls]float32
		for _, r := range rolls {
			_, boards := gen.Generate(b, int(r.d1), int(r.d2))
			best, bestF := int32(-1), int32(-1)
			for j := range boards {
				k, ok := db.index[bearoffKey(&boards[j][backgammon.OnRoll])]
				if !ok {
					return nil, fmt.Errorf("bearoff: successor of %v not indexed", c)
				}
				if best < 0 || db.mean[k] < db.mean[best] {
					best = k
				}
				if full && (bestF < 0 || db.firstMn[k] < db.firstMn[bestF]) {
					bestF = k
				}
			}
			w := float32(r.w) / 36
			mean += w * db.mean[best]
			shift(&d, &db.dist[best], w)
			if full {
				fmean += w * db.firstMn[bestF]
				shift(&f, &db.first[bestF], w)
			}
		}
		db.dist[i], db.mean[i] = d, mean
		if full {
			db.first[i], db.firstMn[i] = f, fmean
		}
	}
	return db, nil
}

// shift adds w times src, one roll later, to d (the tail folded into the
// last entry).
func shift(d, src *[BearoffRolls]float32, w float32) {
	for n := 0; n < BearoffRolls-1; n++ {
		d[n+1] += w * src[n]
	}
	d[BearoffRolls-1] += w * src[BearoffRolls-1]
}

// emptyBearoff enumerates the positions of up to checkers checkers, fewest
// pips first (every move lowers the pip count, so each position's
// successors come before it), indexes them and allocates their
// distributions, left zero.
func emptyBearoff(checkers int) *Bearoff {
	var all [][6]int8
	var rec func(p int, left int, cur [6]int8)
	rec = func(p int, left int, cur [6]int8) {
		if p == 6 {
			all = append(all, cur)
			return
		}
		for n := 0; n <= left; n++ {
			cur[p] = int8(n)
			rec(p+1, left-n, cur)
		}
	}
	rec(0, checkers, [6]int8{})
	pips := func(c [6]int8) int {
		s := 0
		for i, n := range c {
			s += int(n) * (i + 1)
		}
		return s
	}
	slices.SortStableFunc(all, func(a, b [6]int8) int { return pips(a) - pips(b) })
	db := &Bearoff{Checkers: checkers, index: make(map[uint32]int32, len(all)),
		dist: make([][BearoffRolls]float32, len(all)), mean: make([]float32, len(all))}
	for i, c := range all {
		var s [25]int8
		copy(s[:6], c[:])
		db.index[bearoffKey(&s)] = int32(i)
	}
	if checkers == 15 {
		db.first = make([][BearoffRolls]float32, len(all))
		db.firstMn = make([]float32, len(all))
	}
	return db
}

// positions lists the database's positions (home-board counts, point 1
// first) in their index order.
func (db *Bearoff) positions() [][6]int8 {
	out := make([][6]int8, len(db.dist))
	for k, i := range db.index {
		for p := range 6 {
			out[i][p] = int8(k >> (4 * p) & 15)
		}
	}
	return out
}

// lookup returns the index of a side's position, or false when the side
// has checkers outside its home board or more than the database holds.
func (db *Bearoff) lookup(s *[25]int8) (int32, bool) {
	n := 0
	for i := 0; i < 25; i++ {
		if s[i] != 0 && i >= 6 {
			return 0, false
		}
		n += int(s[i])
	}
	if n > db.Checkers || n == 0 {
		return 0, false
	}
	k, ok := db.index[bearoffKey(s)]
	return k, ok
}

// Probs returns the exact race probabilities for the player on roll when
// both sides are in the database, and false otherwise. The player on roll
// wins when it needs no more rolls than the opponent.
func (db *Bearoff) Probs(b *backgammon.Board) (Probs, bool) {
	me, ok := db.lookup(&b[backgammon.OnRoll])
	if !ok {
		return Probs{}, false
	}
	op, ok := db.lookup(&b[backgammon.Opponent])
	if !ok {
		return Probs{}, false
	}
	dm, do := &db.dist[me], &db.dist[op]
	p := Probs{Win: beats(dm, do)}
	if db.first != nil {
		// We win a gammon when we are off before the opponent's first
		// checker, and lose one when the opponent is off before ours (it
		// rolls second, so it needs fewer rolls than our first checker).
		p[WinGammon] = beats(dm, &db.first[op])
		p[LoseGammon] = 1 - beats(&db.first[me], do)
	}
	return p.Sanitize(), true
}

// beats is the chance that the player on roll, needing a rolls (a
// distribution), is done no later than the opponent needing b: sum over n
// of P(a = n) P(b >= n).
func beats(a, b *[BearoffRolls]float32) float32 {
	var win, tail float32
	for n := BearoffRolls - 1; n >= 0; n-- {
		tail += b[n]
		win += a[n] * tail
	}
	return win
}

// MeanRolls is the expected number of rolls to bear off a side's checkers,
// and false when the side is not in the database.
func (db *Bearoff) MeanRolls(s *[25]int8) (float32, bool) {
	k, ok := db.lookup(s)
	if !ok {
		return 0, false
	}
	return db.mean[k], true
}
