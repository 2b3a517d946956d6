package benchset

import (
	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
)

// CubeScore is what a judge's money cube decisions give up on a set, each
// decision made by Janowski's model (bgbot.MoneyCube, the Jacoby rule for
// a centred cube) from the judge's probabilities and priced by the same
// model from the set's: for every position, the initial double (cube
// centred), the redouble (cube owned) and, where the set gives the player
// on roll more than 60% to win, the answer to a double. The sums are in
// equity (units of the cube before the double). The model gives gnubg's
// 0-ply cube decisions from the same probabilities (docs/bgbot.md), so
// this isolates the judge's probabilities as a source of cube errors.
type CubeScore struct {
	Positions                   int
	Double, Take, Redouble      float64
	WrongDoubles, MissedDoubles int
	WrongTakes, WrongPasses     int
}

// takeWindow is the least win chance of the doubler, by the set, for
// which the answer to a double is scored: below it nobody doubles.
const takeWindow = 0.6

// CubeScores scores judge's money cube decisions on the set.
func CubeScores(set []Position, judge func(backgammon.Board) bgbot.Probs) CubeScore {
	var s CubeScore
	for _, p := range set {
		truth, q := p.Rollout.Probs, judge(p.Board)
		x := bgbot.CubeEfficiencyOf(&p.Board)
		s.Positions++
		// Initial double, cube centred, Jacoby.
		t, j := bgbot.MoneyCube(truth, x, true, true), bgbot.MoneyCube(q, x, true, true)
		loss, doubled := doubleLoss(t, j)
		s.Double += loss
		switch {
		case doubled && !t.ShouldDouble():
			s.WrongDoubles++
		case !doubled && t.ShouldDouble():
			s.MissedDoubles++
		}
		// The answer to that double, from the doubler's view.
		if float64(truth[bgbot.Win]) > takeWindow {
			takes := j.DoubleTake <= j.DoublePass
			best := min(t.DoubleTake, t.DoublePass)
			if takes {
				s.Take += t.DoubleTake - best
				if t.DoubleTake > t.DoublePass {
					s.WrongTakes++
				}
			} else {
				s.Take += t.DoublePass - best
				if t.DoubleTake < t.DoublePass {
					s.WrongPasses++
				}
			}
		}
		// Redouble, cube owned.
		loss, _ = doubleLoss(bgbot.MoneyCube(truth, x, false, false), bgbot.MoneyCube(q, x, false, false))
		s.Redouble += loss
	}
	return s
}

// doubleLoss is what the doubling decision taken by judged gives up by
// truth's equities, and whether judged doubles. The taker is assumed to
// answer right.
func doubleLoss(truth, judged bgbot.CubeEquities) (float64, bool) {
	best := max(truth.NoDouble, min(truth.DoubleTake, truth.DoublePass))
	if judged.ShouldDouble() {
		return best - min(truth.DoubleTake, truth.DoublePass), true
	}
	return best - truth.NoDouble, false
}
