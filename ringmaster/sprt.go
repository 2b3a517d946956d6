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
type sprtTally struct {
	test         ratings.SPRT
	m            *control.Matchup
	wins, losses float64
	halves       map[int][2]int // pair number -> {A's wins, decided games}
	pent         [5]float64
}

func newSPRTTally(m *control.Matchup) *sprtTally {
	c := m.SPRT
	if c == nil {
		return nil
	}
	return &sprtTally{test: ratings.SPRT{Elo0: c.Elo0, Elo1: c.Elo1, Alpha: c.Alpha, Beta: c.Beta}, m: m, halves: map[int][2]int{}}
}

func (t *sprtTally) paired() bool { return t.m.Settings.PairedGames() }

func (t *sprtTally) add(res store.GameResult) {
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

// state returns the log-likelihood ratio and what it decides.
func (t *sprtTally) state() (float64, ratings.Decision) {
	var llr float64
	if t.paired() {
		llr = t.test.LLRPentanomial(t.pent)
	} else {
		llr = t.test.LLR(t.wins, 0, t.losses)
	}
	if t.wins+t.losses == 0 {
		return 0, ratings.Continue
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
	return fmt.Sprintf("SPRT elo0=%g elo1=%g alpha=%g beta=%g on %s: LLR %.2f (bounds %.2f, %.2f): %s",
		t.test.Elo0, t.test.Elo1, t.test.Alpha, t.test.Beta, basis, llr, lo, hi, verdict)
}
