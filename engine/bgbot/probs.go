// Package bgbot is Gamemill's backgammon bot: position evaluators (a random
// player, a hand-written heuristic and a small neural network trained by
// TD(lambda) self-play), an n-ply search with gnubg-style move filters,
// seeded evaluation noise, cube decisions for money play (Janowski's cube
// efficiency model) and match play (a computed match equity table), and the
// self-play trainer and duplicate-dice duel used to measure it all.
//
// Conventions. An [Evaluator] looks at a position before the dice are
// rolled and answers for the player on roll: Board[1] is that player,
// Board[0] the opponent, exactly as in package backgammon. To judge a move,
// the search swaps the board after the move (the opponent is then on roll),
// evaluates it and inverts the result ([Probs.Invert]).
//
// Nothing in this package holds package-level mutable state; every random
// choice comes from a source seeded by the caller. A [Bot] and the
// evaluators it holds are for one goroutine at a time; [Weights] are
// read-only once loaded and can be shared by any number of evaluators.
package bgbot

import "github.com/gamemill/gamemill/engine/backgammon"

// Probs are the outcome probabilities of a game for one player: win (any
// kind), win a gammon or better, win a backgammon, lose a gammon or worse,
// lose a backgammon. The gammon entries include the backgammons, as in
// gnubg, so Probs[0] >= Probs[1] >= Probs[2] and 1-Probs[0] >= Probs[3] >=
// Probs[4].
type Probs [5]float32

// Indexes into Probs.
const (
	Win = iota
	WinGammon
	WinBackgammon
	LoseGammon
	LoseBackgammon
)

// Equity is the cubeless money equity of the probabilities:
// 2*win - 1 + wg - lg + wbg - lbg, between -3 and +3.
func (p Probs) Equity() float32 {
	return 2*p[Win] - 1 + p[WinGammon] - p[LoseGammon] + p[WinBackgammon] - p[LoseBackgammon]
}

// Invert returns the same probabilities seen from the other player.
func (p Probs) Invert() Probs {
	return Probs{1 - p[Win], p[LoseGammon], p[LoseBackgammon], p[WinGammon], p[WinBackgammon]}
}

// Sanitize clamps the probabilities into [0,1] and makes them consistent:
// a gammon cannot be likelier than the win (or loss) it is part of.
func (p Probs) Sanitize() Probs {
	for i := range p {
		p[i] = min(max(p[i], 0), 1)
	}
	p[WinGammon] = min(p[WinGammon], p[Win])
	p[WinBackgammon] = min(p[WinBackgammon], p[WinGammon])
	p[LoseGammon] = min(p[LoseGammon], 1-p[Win])
	p[LoseBackgammon] = min(p[LoseBackgammon], p[LoseGammon])
	return p
}

// Evaluator estimates a position before the roll for the player on roll
// (Board[1]). The board must hold a game in progress: both sides still have
// checkers on the board. Implementations keep scratch buffers, so one
// evaluator serves one goroutine at a time.
type Evaluator interface {
	Evaluate(b backgammon.Board) Probs
}

// Outcome returns the exact probabilities of a finished game for the player
// who just moved (Board[1], the mover's view before swapping), and whether
// the game is over: it is over when that player has no checker left on the
// board. checkers is the variant's checker count.
func Outcome(b *backgammon.Board, checkers int) (Probs, bool) {
	if b.OnBoard(backgammon.OnRoll) != 0 {
		return Probs{}, false
	}
	p := Probs{Win: 1}
	if b.OnBoard(backgammon.Opponent) < checkers {
		return p, true
	}
	p[WinGammon] = 1
	opp := &b[backgammon.Opponent]
	for i := 18; i <= backgammon.BarIndex; i++ {
		if opp[i] > 0 {
			p[WinBackgammon] = 1
			break
		}
	}
	return p, true
}
