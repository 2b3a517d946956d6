package ringmaster

import (
	"fmt"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// sprtTally follows a matchup's sequential test from its results, seen from
// the matchup's first player: game (or match) wins and losses, and for
// paired dice the pentanomial counts of whole pairs (A's wins in a pair of
// 0, 1 or 2 give pair scores 0, 1 and 2 of the 0..2 scale in half steps).
// Unknown results count for nobody.
//
// With luck_adjusted the test reads instead each game's luck-adjusted score
// of A, (1+x)/2 for a luck-adjusted result x on the +1/-1 scale, as one
// sample (for paired dice, the mean of a pair's two games), through
// ratings.SPRT.LLRScores.
type sprtTally struct {
	test         ratings.SPRT
	m            *control.Matchup
	wins, losses float64
	halves       map[int][2]int // pair number -> {A's wins, decided games}
	pent         [5]float64

	luck       bool
	luckHalves map[int][2]float64 // pair number -> {sum of A's scores, games}
	n, sum, sq float64            // the luck-adjusted samples' moments
}

func newSPRTTally(m *control.Matchup) *sprtTally {
	c := m.SPRT
	if c == nil {
		return nil
	}
	return &sprtTally{test: ratings.SPRT{Elo0: c.Elo0, Elo1: c.Elo1, Alpha: c.Alpha, Beta: c.Beta}, m: m,
		halves: map[int][2]int{}, luck: c.LuckAdjusted, luckHalves: map[int][2]float64{}}
}

func (t *sprtTally) paired() bool { return t.m.Settings.PairedGames() }

// add counts a result. luckAdjusted is the game's luck-adjusted result
// for the stored seats A and B (from its analysis), or nil where it has
// none; the luck-adjusted test then counts the game's win or loss.
func (t *sprtTally) add(res store.GameResult, luckAdjusted *[2]float64) {
	var aWon int
	switch res.Winner {
	case t.m.PlayerA:
		t.wins++
		aWon = 1
	case t.m.PlayerB:
		t.losses++
	default:
		return
	}
	if t.luck {
		t.addScore(res, t.luckScore(res, float64(aWon), luckAdjusted))
		return
	}
	if !t.paired() {
		return
	}
	k := res.Number / 2
	h := t.halves[k]
	h[0] += aWon
	h[1]++
	t.halves[k] = h
	if h[1] == 2 {
		t.pent[2*h[0]]++
	}
}

// luckScore is A's score of a decided game for the luck-adjusted test: the
// luck-adjusted one for a game played to its end or resigned, the win or
// loss itself for a forfeit (whose record stops short) or a game not
// analysed.
func (t *sprtTally) luckScore(res store.GameResult, won float64, luckAdjusted *[2]float64) float64 {
	if luckAdjusted == nil || (res.Ending != store.EndNormal && res.Ending != store.EndResignation) {
		return won
	}
	x := luckAdjusted[0]
	if res.PlayerA != t.m.PlayerA {
		x = luckAdjusted[1]
	}
	return (1 + x) / 2
}

func (t *sprtTally) addScore(res store.GameResult, x float64) {
	if t.paired() {
		k := res.Number / 2
		h := t.luckHalves[k]
		h[0] += x
		h[1]++
		t.luckHalves[k] = h
		if h[1] < 2 {
			return
		}
		x = h[0] / 2
	}
	t.n, t.sum, t.sq = t.n+1, t.sum+x, t.sq+x*x
}

// state returns the log-likelihood ratio and what it decides.
func (t *sprtTally) state() (float64, ratings.Decision) {
	if t.wins+t.losses == 0 {
		return 0, ratings.Continue
	}
	if t.luck {
		llr := t.test.LLRScores(t.n, t.sum, t.sq)
		if t.n < ratings.MinScoreSamples {
			return llr, ratings.Continue
		}
		return llr, t.test.Decide(llr)
	}
	var llr float64
	if t.paired() {
		llr = t.test.LLRPentanomial(t.pent)
	} else {
		llr = t.test.LLR(t.wins, 0, t.losses)
	}
	return llr, t.test.Decide(llr)
}

// describe is the report's line for the test.
func (t *sprtTally) describe() string {
	llr, d := t.state()
	lo, hi := t.test.Bounds()
	verdict := "continue"
	switch d {
	case ratings.AcceptH0:
		verdict = fmt.Sprintf("accepted H0 (%s - %s = %g Elo)", t.m.PlayerA, t.m.PlayerB, t.test.Elo0)
	case ratings.AcceptH1:
		verdict = fmt.Sprintf("accepted H1 (%s - %s = %g Elo)", t.m.PlayerA, t.m.PlayerB, t.test.Elo1)
	}
	basis := "games"
	if t.paired() {
		basis = "pairs"
	}
	if t.luck {
		basis = fmt.Sprintf("luck-adjusted %s (%.0f)", basis, t.n)
		if t.n < ratings.MinScoreSamples && d == ratings.Continue {
			verdict = fmt.Sprintf("continue (decides from %d on)", ratings.MinScoreSamples)
		}
	}
	return fmt.Sprintf("SPRT elo0=%g elo1=%g alpha=%g beta=%g on %s: LLR %.2f (bounds %.2f, %.2f): %s",
		t.test.Elo0, t.test.Elo1, t.test.Alpha, t.test.Beta, basis, llr, lo, hi, verdict)
}
