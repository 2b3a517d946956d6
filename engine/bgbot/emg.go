package bgbot

import (
	"fmt"
	"sync"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// MoverEquity puts the cubeful figures of the positions a move can leave
// into one scale for the player on roll of a state: gnubg's normalised
// money equity (EMG), in which gnubg's analysis prices chequer errors. In
// money play that is equity in units of the current cube; in a match a
// match winning chance w becomes (2w - (W+L)) / (W-L), where W and L are
// the mover's chances after winning and after losing a single game at the
// current cube, so that +1 and -1 mean those two.
type MoverEquity struct {
	checkers int
	singles  bool // money play, Jacoby rule, cube centred: gammons count single
	met      *MET // nil in money play
	mi       matchInfo
	win      float64 // W, in a match
	lose     float64 // L, in a match
}

// sharedMET is the default table parsed once for the scales, which only
// read it: parsed for each of them, as before, the tables of the 470,000
// decisions of 4,000 matches held gigabytes and took minutes to make.
var sharedMET = sync.OnceValues(DefaultMET)

// NewMoverEquity returns the scale for the player on roll of s (a game in
// play with the cube; money or a match of at most the default table's
// length, longer ones clamped to it).
func NewMoverEquity(s *backgammon.State) (*MoverEquity, error) {
	if s.GameState != backgammon.GamePlaying {
		return nil, fmt.Errorf("mover's equity: no game in play")
	}
	e := &MoverEquity{checkers: s.Variant.Checkers(), singles: s.Money() && s.Jacoby && s.CubeOwner == -1}
	if s.Money() {
		return e, nil
	}
	met, err := sharedMET()
	if err != nil {
		return nil, err
	}
	e.met, e.mi = met, matchInfoOf(s, s.Move)
	e.win, e.lose = met.singleGame(e.mi)
	return e, nil
}

// matchInfoOf is player's match context in s.
func matchInfoOf(s *backgammon.State, player int) matchInfo {
	return matchInfo{
		me:           s.MatchLength - s.Score[player],
		opp:          s.MatchLength - s.Score[1-player],
		cube:         s.CubeValue,
		postCrawford: s.CrawfordGame || s.PostCrawford || !s.Rules.Crawford,
	}
}

// singleGame is the match winning chance after winning, and after losing,
// a single game at mi's cube.
func (m *MET) singleGame(mi matchInfo) (win, lose float64) {
	return m.mwc(Probs{Win: 1}, mi, mi.cube), m.mwc(Probs{}, mi, mi.cube)
}

// Ended is the mover's equity of a result b (seen from the mover) that
// ends the game, and whether it does: the points won at the cube, where
// in money play with the Jacoby rule and the cube centred a gammon or
// backgammon counts single.
func (e *MoverEquity) Ended(b *backgammon.Board) (float64, bool) {
	p, over := Outcome(b, e.checkers)
	if !over {
		return 0, false
	}
	if e.met == nil {
		if e.singles {
			p = singles(p)
		}
		return float64(p.Equity()), true
	}
	return e.match(e.met.mwc(p, e.mi, e.mi.cube)), true
}

// Opponent is the mover's equity of a result whose cubeful value for the
// opponent, next on roll, is x: gnubg's cubeful money equity for the
// opponent in units of the cube, or its match winning chance in a match.
func (e *MoverEquity) Opponent(x float64) float64 {
	if e.met == nil {
		return -x
	}
	return e.match(1 - x)
}

// Own is the mover's equity of a cubeful value x of its own, as the bot's
// CubeEquities give it: equity in units of the cube in money play, a
// match winning chance in a match.
func (e *MoverEquity) Own(x float64) float64 {
	if e.met == nil {
		return x
	}
	return e.match(x)
}

// match is the mover's equity of its own match winning chance w (0 in
// money play, where there is no match).
func (e *MoverEquity) match(w float64) float64 {
	if e.met == nil || e.win == e.lose {
		return 0
	}
	return (2*w - (e.win + e.lose)) / (e.win - e.lose)
}
