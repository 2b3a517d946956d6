// Package referee plays one game between two players, enforcing the rules
// itself: it rolls the dice, asks each player for its decisions at the
// right moments, checks every answer against engine/backgammon and never
// trusts an engine's idea of the position. It is the only place where a
// game's rules meet a player.
package referee

import (
	"context"
	"errors"
	"fmt"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
)

// Referee plays one game (for backgammon: a match or one money game)
// between two seats. The seed fixes every random choice the referee makes
// (the dice), so a replayed game is the same game. A *VoidError (or the
// context's error) means there is no result; any other outcome, forfeits
// included, is in the Outcome. Go arrives as a second implementation.
type Referee interface {
	Play(ctx context.Context, seats [2]Seat, seed uint64) (Outcome, error)
}

// Seat is one side of a game: a player code and the running engine.
type Seat struct {
	Code   string
	Player player.Player
}

// How a game ended, for the store and the reports.
const (
	ResultSingle     = "single"
	ResultGammon     = "gammon"
	ResultBackgammon = "backgammon"
	ResultMatch      = "match"   // a match played out (or resigned/dropped)
	ResultForfeit    = "forfeit" // a player broke the rules
	ResultUnknown    = "unknown" // past the move limit: nobody won
)

// ErrVoid marks an outcome that is no result at all: an engine could not
// start, died or its channel broke before the result was settled.
var ErrVoid = errors.New("void game")

// VoidError says why a game is void and which seat caused it.
type VoidError struct {
	Seat   int
	Code   string
	Reason error
}

func (e *VoidError) Error() string {
	return fmt.Sprintf("void: player %s: %v", e.Code, e.Reason)
}

func (e *VoidError) Unwrap() []error { return []error{ErrVoid, e.Reason} }

// classify splits an engine error into a forfeit (the engine answered
// wrongly: a failure response, garbage, or no answer in time) or a void
// (the engine went away: it exited or its pipe broke).
func classify(err error) (forfeit bool) {
	var fe *protocol.FailureError
	var pe *protocol.ProtocolError
	switch {
	case errors.As(err, &fe), errors.As(err, &pe), errors.Is(err, protocol.ErrTimeout):
		return true
	}
	return false
}
