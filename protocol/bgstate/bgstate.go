// Package bgstate keeps what a backgammon engine has been told through the
// command set: the rules from set_game and the full state from
// set_position, decoded and checked. Engines (bgbot, the gnubg adapter,
// test engines) embed a Keeper and implement only their decisions.
package bgstate

import (
	"errors"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// ErrNoPosition is returned for a decision asked before a valid set_position.
var ErrNoPosition = errors.New("no position set")

// Keeper holds the rules and the current state. Its zero value plays
// standard money games with the cube until set_game says otherwise.
type Keeper struct {
	rules   backgammon.Rules
	haveSet bool
	state   *backgammon.State
}

// SetGame records the rules and forgets the position.
func (k *Keeper) SetGame(r bgcmd.GameRules) error {
	rules, err := r.Rules()
	if err != nil {
		return err
	}
	k.rules, k.haveSet, k.state = rules, true, nil
	return nil
}

// GameRules returns the rules in force.
func (k *Keeper) GameRules() backgammon.Rules {
	if !k.haveSet {
		return backgammon.Rules{Cube: true}
	}
	return k.rules
}

// SetPosition decodes and checks the state; on error the old position is
// forgotten, so no decision is made on a stale one.
func (k *Keeper) SetPosition(positionID, matchID string) error {
	k.state = nil
	rules := k.GameRules()
	s, err := gnubgid.DecodeState(positionID, matchID, rules)
	if err != nil {
		return err
	}
	if k.haveSet && s.MatchLength != rules.MatchLength {
		return fmt.Errorf("match ID %s: match length %d, but set_game said %d", matchID, s.MatchLength, rules.MatchLength)
	}
	if s.GameState != backgammon.GamePlaying {
		return fmt.Errorf("match ID %s: no game in progress", matchID)
	}
	k.state = s
	return nil
}

// State returns the current state, or ErrNoPosition.
func (k *Keeper) State() (*backgammon.State, error) {
	if k.state == nil {
		return nil, ErrNoPosition
	}
	return k.state, nil
}

// Need returns the state if it waits for one of the given decisions.
func (k *Keeper) Need(want ...backgammon.Decision) (*backgammon.State, error) {
	s, err := k.State()
	if err != nil {
		return nil, err
	}
	d := s.Decision()
	for _, w := range want {
		if d == w {
			return s, nil
		}
	}
	return nil, fmt.Errorf("the position waits for a %v decision", d)
}
