package bgbot

import (
	"math"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Heuristic is the hand-written evaluator: a linear score over pips, blots
// and their exposure, made points, primes, home board points, anchors,
// checkers back, the bar and borne-off checkers, mapped to a winning
// chance by a logistic curve; a pip-count formula in races; and rough
// gammon chances from the borne-off counts and checkers left behind.
type Heuristic struct {
	enc encoder
	x   []float32
	nz  []int32
}

// NewHeuristic returns a heuristic evaluator (one per goroutine).
func NewHeuristic() *Heuristic {
	return &Heuristic{enc: newEncoder(), x: make([]float32, NumInputs), nz: make([]int32, 0, NumInputs)}
}

// Evaluate implements Evaluator.
func (h *Heuristic) Evaluate(b backgammon.Board) Probs {
	h.nz = h.enc.encode(&b, h.x, h.nz)
	x := h.x
	me := x[tdInputs : tdInputs+HandPerSide]
	op := x[tdInputs+HandPerSide:]
	myPips := float64(me[HandPips]) * 167
	opPips := float64(op[HandPips]) * 167
	myOff := b.OnBoard(backgammon.OnRoll)
	opOff := b.OnBoard(backgammon.Opponent)
	myOff, opOff = 15-myOff, 15-opOff
	var win float64
	if !Contact(&b) {
		avg := (myPips + opPips) / 2
		scale := 0.64*math.Sqrt(max(avg, 1)) + 1
		win = logistic((opPips - myPips + 4) / scale)
	} else {
		s := 0.02 * (opPips - myPips)
		// The player on roll hits first: its shots at the opponent's blots
		// are worth much more than the opponent's shots at its own blots,
		// which it may still cover or move.
		s += 1.6*float64(op[HandShots]) - 0.35*float64(me[HandShots])
		s += 0.25*float64(op[HandBlots]) - 0.25*float64(me[HandBlots])
		s += 0.9 * (float64(me[HandHome]) - float64(op[HandHome]))
		s += 1.0 * (float64(me[HandPrime]) - float64(op[HandPrime]))
		s += 0.35 * (float64(me[HandAnchors]) - float64(op[HandAnchors]))
		s += 0.3 * (float64(op[HandBack]) - float64(me[HandBack]))
		s += 0.3 * (float64(me[HandEscapes]) - float64(op[HandEscapes]))
		// Checkers on the bar, weighted by the home board waiting for them.
		s += float64(b[backgammon.Opponent][backgammon.BarIndex]) * (0.25 + 0.6*float64(me[HandHome]))
		s -= float64(b[backgammon.OnRoll][backgammon.BarIndex]) * (0.25 + 0.6*float64(op[HandHome]))
		s += 0.05 * float64(myOff-opOff)
		win = logistic(s)
	}
	p := Probs{Win: float32(win)}
	p[WinGammon] = float32(win * gammonShare(opOff, float64(op[HandBack]), opPips-myPips, float64(me[HandHome])))
	p[LoseGammon] = float32((1 - win) * gammonShare(myOff, float64(me[HandBack]), myPips-opPips, float64(op[HandHome])))
	p[WinBackgammon] = p[WinGammon] * 0.1 * op[HandBack]
	p[LoseBackgammon] = p[LoseGammon] * 0.1 * me[HandBack]
	return p.Sanitize()
}

// gammonShare guesses the fraction of a side's losses that are gammons,
// from the loser's borne-off checkers, its checkers back, how far it trails
// in the race and the winner's home board.
func gammonShare(loserOff int, loserBack, loserTrails, winnerHome float64) float64 {
	if loserOff > 0 {
		return 0
	}
	g := 0.08 + 0.25*loserBack + 0.15*winnerHome + 0.004*loserTrails
	return min(max(g, 0), 0.7)
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
