package bgbot

import (
	"github.com/gamemill/gamemill/engine/backgammon"
)

// Race gammons from one-sided counts.
//
// The race network judges the gammon chances of a race less well than its
// winning chances. A side with all 15 checkers still on the board saves
// the gammon by bearing off one checker before the other side is done,
// and once the other side is in the one-sided bearoff database, both
// counts can be had nearly exactly: the database gives the leader's rolls
// to finish, and the trailer's rolls to its first checker off once it is
// home. For a trailer with checkers still outside its home board, a short
// one-sided search gives the same count: each roll moves the outside
// checkers (a die goes to a home checker only once every checker is home,
// where it bears one off if it can), the choice among such plays made to
// get the first checker off soonest on average, as the database's own
// plays are chosen.

// maxFirstPips bounds the search: a trailer whose checkers outside the
// home board are more pips from it than this keeps the network's gammon
// chances (the search grows fast with them, and such a trailer's first
// checker is far off anyway).
const maxFirstPips = 12

// raceMemoLimit bounds the memo; it is emptied when full.
const raceMemoLimit = 1 << 17

// oneSided is a distribution of rolls needed and its mean.
type oneSided struct {
	dist [BearoffRolls]float32
	mean float32
}

// offThisRoll is the count of a side whose first checker comes off during
// the roll being played: no more rolls needed.
var offThisRoll = &oneSided{dist: [BearoffRolls]float32{1}}

// raceCounts holds one bot's memo of trailers' counts. It is not safe for
// concurrent use; each bot owns one.
type raceCounts struct {
	db    *Bearoff
	rolls [21]roll
	first map[[25]int8]*oneSided
}

func newRaceCounts(db *Bearoff) *raceCounts {
	return &raceCounts{db: db, rolls: allRolls(), first: make(map[[25]int8]*oneSided)}
}

// outsidePips is how far a side's checkers outside the home board are from
// it, in pips; the bar counts as point 25.
func outsidePips(s *[25]int8) int {
	n := 0
	for i := 6; i < 25; i++ {
		n += int(s[i]) * (i - 5)
	}
	return n
}

// firstOff returns the distribution of the rolls a side with all 15
// checkers on the board needs to bear off its first one, and false when it
// is beyond the search.
func (rc *raceCounts) firstOff(s *[25]int8) (*oneSided, bool) {
	if k, ok := rc.db.lookup(s); ok {
		return &oneSided{rc.db.first[k], rc.db.firstMn[k]}, true
	}
	if c, ok := rc.first[*s]; ok {
		return c, true
	}
	if outsidePips(s) > maxFirstPips {
		return nil, false
	}
	if len(rc.first) >= raceMemoLimit {
		clear(rc.first)
	}
	out := &oneSided{mean: 1}
	for _, r := range rc.rolls {
		dice := []int8{r.d1, r.d2}
		if r.d1 == r.d2 {
			dice = []int8{r.d1, r.d1, r.d1, r.d1}
		}
		best := rc.play(*s, dice, nil)
		if r.d1 != r.d2 {
			best = rc.play(*s, []int8{r.d2, r.d1}, best)
		}
		w := float32(r.w) / 36
		out.mean += w * best.mean
		shift(&out.dist, &best.dist, w)
	}
	rc.first[*s] = out
	return out, true
}

// play plays dice in order on s as the search does and returns the best
// of best and the counts of the sides it can reach (offThisRoll when a
// checker comes off).
func (rc *raceCounts) play(s [25]int8, dice []int8, best *oneSided) *oneSided {
	if best == offThisRoll {
		return best
	}
	if len(dice) == 0 {
		c, ok := rc.firstOff(&s)
		if !ok { // cannot happen: playing only lowers the outside pips
			return best
		}
		if best == nil || c.mean < best.mean {
			return c
		}
		return best
	}
	d := int(dice[0])
	moved := false
	for i := 24; i >= 6; i-- { // an outside checker moves
		if s[i] == 0 {
			continue
		}
		moved = true
		next := s
		next[i]--
		next[i-d]++
		if best = rc.play(next, dice[1:], best); best == offThisRoll {
			return best
		}
	}
	if moved {
		return best
	}
	// Every checker is home: the die bears one off if it can.
	higher := false
	for i := d; i < 6; i++ {
		higher = higher || s[i] > 0
	}
	if s[d-1] > 0 || !higher {
		return offThisRoll
	}
	for i := d; i < 6; i++ { // else a home checker moves down
		if s[i] == 0 {
			continue
		}
		next := s
		next[i]--
		next[i-d]++
		if best = rc.play(next, dice[1:], best); best == offThisRoll {
			return best
		}
	}
	return best
}

// raceGammons returns p with its gammon chances replaced by the ones the
// one-sided counts give, for a race b (the player on roll being
// Board[OnRoll]) in which a side with all 15 checkers on the board faces
// one in the bearoff database; p unchanged otherwise.
func (rc *raceCounts) raceGammons(b *backgammon.Board, p Probs) Probs {
	if rc == nil || Contact(b) {
		return p
	}
	changed := false
	// The player on roll wins a gammon when it finishes no later than the
	// opponent's first checker comes off, and loses one when the opponent
	// (rolling second) finishes before its first checker.
	if k, ok := rc.db.lookup(&b[backgammon.OnRoll]); ok && b.OnBoard(backgammon.Opponent) == 15 {
		if f, ok := rc.firstOff(&b[backgammon.Opponent]); ok {
			p[WinGammon] = beats(&rc.db.dist[k], &f.dist)
			changed = true
		}
	}
	if k, ok := rc.db.lookup(&b[backgammon.Opponent]); ok && b.OnBoard(backgammon.OnRoll) == 15 {
		if f, ok := rc.firstOff(&b[backgammon.OnRoll]); ok {
			p[LoseGammon] = 1 - beats(&f.dist, &rc.db.dist[k])
			changed = true
		}
	}
	if !changed {
		return p
	}
	return p.Sanitize()
}
