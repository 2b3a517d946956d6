package bgbot

import (
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Resignation returns the level at which the player on roll of s resigns,
// or NoResult to play on. The bot resigns only a sure loss (a race it
// cannot win whatever the dice), so that it stops playing out hopeless
// bear-offs without ever giving anything away: at Single when it has borne
// off a checker, at Gammon when it cannot bear one off in time and cannot
// be backgammoned.
func (bt *Bot) Resignation(s *backgammon.State) backgammon.Result {
	if s.GameState != backgammon.GamePlaying || s.Doubled || s.Resigned != backgammon.NoResult || !bt.cubeAware() {
		return backgammon.NoResult
	}
	bt.SetVariant(s.Variant)
	b := &s.Board
	if Contact(b) {
		return backgammon.NoResult
	}
	me, opp := &b[backgammon.OnRoll], &b[backgammon.Opponent]
	if !bt.sureRaceLoss(b) {
		return backgammon.NoResult
	}
	if b.OnBoard(backgammon.OnRoll) < bt.checkers {
		return backgammon.Single
	}
	// Gammoned for sure: the opponent is off before any checker of ours
	// can be, and with none in the opponent's home board no backgammon.
	if minRollsFirstOff(me) > maxRaceRolls(opp) && rearmost(me) <= 18 {
		return backgammon.Gammon
	}
	return backgammon.NoResult
}

// sureRaceLoss reports whether the player on roll of a race b loses
// whatever the dice: exactly from a bearoff database (two-sided first)
// when both sides are in it, else when the fewest rolls it could need exceed the most the
// opponent could.
func (bt *Bot) sureRaceLoss(b *backgammon.Board) bool {
	if bt.bearoff2 != nil && bt.checkers == 15 {
		if p, ok := bt.bearoff2.Probs(b); ok {
			return p[Win] == 0
		}
	}
	if p, ok := bearoffExact(bt.bearoff, b); ok && bt.checkers == 15 {
		return p[Win] == 0
	}
	return minRaceRolls(&b[backgammon.OnRoll]) > maxRaceRolls(&b[backgammon.Opponent])
}

// minRaceRolls is a lower bound on the rolls a side needs to bear off:
// one roll moves at most 24 pips and bears off at most 4 checkers.
func minRaceRolls(s *[25]int8) int {
	pips, n := 0, 0
	for i, c := range s {
		pips += int(c) * (i + 1)
		n += int(c)
	}
	return max((pips+23)/24, (n+3)/4)
}

// maxRaceRolls is an upper bound on the rolls a side needs to bear off in
// a race (no contact): each die always moves some checker at least one
// pip, so each roll takes at least 2 pips off the count.
func maxRaceRolls(s *[25]int8) int {
	pips := 0
	for i, c := range s {
		pips += int(c) * (i + 1)
	}
	return (pips + 1) / 2
}

// minRollsFirstOff is a lower bound on the rolls a side needs before its
// first checker is off: every checker outside the home board must come in,
// and then one more pip at least.
func minRollsFirstOff(s *[25]int8) int {
	need := 1
	for i := 6; i < len(s); i++ {
		need += int(s[i]) * (i + 1 - 6)
	}
	return (need + 23) / 24
}

// AcceptResignation answers the resignation pending in s (offered by the
// player on roll; the bot answers for the other). It accepts when the
// offer is at least the most the game could still bring it, or when it is
// worth at least the bot's estimate of playing on (cubeless equity in cube
// units for money, the dead-cube match winning chance in match play).
func (bt *Bot) AcceptResignation(s *backgammon.State) (bool, error) {
	if s.Decision() != backgammon.DecideResign {
		return false, fmt.Errorf("accept resignation: none pending: %w", backgammon.ErrNotNow)
	}
	bt.SetVariant(s.Variant)
	offered := s.Resigned
	best := bestStillPossible(&s.Board, bt.checkers)
	if s.Money() && s.Jacoby && s.CubeOwner == -1 {
		best = backgammon.Single // gammons do not count with a centred cube
	}
	if offered >= best {
		return true, nil
	}
	if !bt.cubeAware() {
		return false, nil
	}
	// The accepter's view: it is the opponent of the player on roll.
	p := bt.Probs(s.Board).Invert()
	if s.Money() {
		if s.Jacoby && s.CubeOwner == -1 {
			p, offered = singles(p), backgammon.Single
		}
		return float64(offered) >= float64(p.Equity()), nil
	}
	mi, err := bt.matchInfo(s, 1-s.Move)
	if err != nil {
		return false, fmt.Errorf("accept resignation: %w", err)
	}
	accepted := bt.met.Win(mi.me-int(offered)*s.CubeValue, mi.opp, mi.postCrawford)
	return accepted >= bt.met.mwc(p, mi, s.CubeValue), nil
}

// bestStillPossible is the highest level at which the opponent of the
// player on roll of b (who resigns) can still win: Single once the resigner
// has borne off a checker; Gammon when, in a race, the resigner has no
// checker left in the winner's home board; else Backgammon.
func bestStillPossible(b *backgammon.Board, checkers int) backgammon.Result {
	resigner := &b[backgammon.OnRoll]
	switch {
	case b.OnBoard(backgammon.OnRoll) < checkers:
		return backgammon.Single
	case !Contact(b) && rearmost(resigner) <= 18:
		return backgammon.Gammon
	}
	return backgammon.Backgammon
}
