// Package referee holds what every game's referee shares: the Referee
// interface the ringmaster drives, the seats, the game-agnostic outcome of
// a game, and the rule that splits an engine's failure into a forfeit or a
// void game. Each game's referee lives with the game (ringmaster/games/...)
// and enforces its rules itself, never trusting an engine's idea of the
// position.
package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/ringmaster/control"
)

// Referee plays one game (for backgammon: a match or one money game)
// between two seats. The game's seed fixes every random choice the referee
// makes (the dice), so a replayed game is the same game. A *VoidError (or
// the context's error) means there is no result; any other outcome,
// forfeits included, is in the Outcome.
type Referee interface {
	Play(ctx context.Context, game GameInfo, seats [2]Seat) (Outcome, error)
}

// GameInfo is what a referee is told about the game it plays.
type GameInfo struct {
	ID    string // the game id, as in the store and the records' names
	Event string // the event name for records (competition code and game id)
	Seed  uint64 // fixes the referee's random choices
	// Number is the game's number within its matchup, from 0; Pair is
	// Number/2 when the matchup's games are played in pairs with the
	// seats swapped, else -1. A referee choosing a start position by game
	// uses them.
	Number, Pair int
	// Launch starts another player of the competition by its code (a
	// referee engine that scores the game), set up for this game as the
	// seats' engines are; the caller closes it. Nil when the ringmaster
	// offers none.
	Launch func(ctx context.Context, code string) (player.Player, error)
}

// Seat is one side of a game: a player code, the running engine and its
// definition from the control file (nil in tests that need none).
type Seat struct {
	Code   string
	Player player.Player
	Config *control.Player
	// VoidedBefore says that this seat's player voided an earlier attempt
	// at this game (same game id): another engine failure that would void
	// it is the player's forfeit instead, so that an engine cannot erase
	// its losses by exiting whenever it is losing.
	VoidedBefore bool
}

// How a game ended, apart from who won (stored in games.ending).
const (
	EndNormal      = "normal"      // played out (or scored after the passes)
	EndResignation = "resignation" // a player resigned
	EndForfeit     = "forfeit"     // a player broke the rules or the protocol
	EndClaim       = "claim"       // a player claimed the win and the referee accepted
	EndUnknown     = "unknown"     // over, but the result could not be settled
	EndMoveLimit   = "move_limit"  // stopped at the move limit: nobody won
	EndTime        = "time"        // a player's clock ran out: it lost on time
	// EndAdjudicated: the referee stopped the game and scored it by its
	// expected value (a backgammon race settled by the bearoff database);
	// never a resignation.
	EndAdjudicated = "adjudicated"
)

// StatDisputes is a statistic (Outcome.Stats) any game may write: by
// seat, 1 where the seat disputed a result the referee could not settle
// (Go: a final_score that disagrees with the other player's and with the
// referee's own area count). Such a game has no result, so a player that
// disputes its losses would erase them: the ringmaster reports disputes
// per player and refuses to rate a player with any.
const StatDisputes = "disputes"

// StatMaxPrefix starts the name of a statistic that is combined across
// games by its largest value, not summed (Go's longest think).
const StatMaxPrefix = "max_"

// CombineStat adds one game's statistic v to the running total t: the sum
// by seat, or the larger by seat for a StatMaxPrefix name.
func CombineStat(name string, t, v [2]int) [2]int {
	if strings.HasPrefix(name, StatMaxPrefix) {
		return [2]int{max(t[0], v[0]), max(t[1], v[1])}
	}
	return [2]int{t[0] + v[0], t[1] + v[1]}
}

// Result texts every game shares; each game adds its own ("gammon", "W+4.5").
const (
	ResultForfeit = "forfeit" // a player broke the rules
	ResultUnknown = "unknown" // past the move limit, or unsettled: nobody won
)

// Outcome is what a refereed game came to, by seat. The core fields mean
// the same for every game; Stats and Records are the game's own, which the
// ringmaster stores and hands back to the game's report without reading.
type Outcome struct {
	// Winner is the seat that won (0 or 1), or -1: a draw, an unknown
	// result or the move limit (Ending tells which).
	Winner int
	// Ending is one of the End* names.
	Ending string
	// Result is the game's result text: "gammon", "match", "W+4.5", "0",
	// or one of the Result* names.
	Result string
	// Detail is a one-line human description.
	Detail string
	// ForfeitBy is the seat that forfeited, or -1.
	ForfeitBy int
	// FirstMover is the seat that moved first (in the first game of a
	// backgammon match; Black in Go), or -1.
	FirstMover int
	// Points is each seat's net points, on the game's scale: whole
	// points for a game played out, a fraction for one adjudicated by
	// its expected value (EndAdjudicated).
	Points    [2]float64
	Moves     int
	Decisions [2]int
	// EngineCPU is each seat's CPU time for the game as its engine
	// reported it (gomill-cpu_time); 0 where the engine did not, and the
	// ringmaster's own measure stands.
	EngineCPU [2]time.Duration
	// Stats counts the game's own events by name, by seat.
	Stats map[string][2]int
	// Records holds the game's records by format ("mat", "sgf"); for a
	// void game, what was played before it was abandoned.
	Records map[string]string
}

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

// Void is the error that voids a game because of the engine in seat, or
// ctx's error when the game was interrupted rather than void.
func Void(ctx context.Context, seats [2]Seat, seat int, reason error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &VoidError{Seat: seat, Code: seats[seat].Code, Reason: reason}
}

// EngineFailure decides what an engine's error during what (a command)
// means for the game: a forfeit by the seat (forfeit set, nil returned:
// the referee records it, with ForfeitReason, and ends the game) or a
// void game (the error to return), or the context's error. A failure
// that would void the game is the seat's forfeit when the seat's player
// voided an earlier attempt at it (Seat.VoidedBefore).
func EngineFailure(ctx context.Context, seats [2]Seat, seat int, what string, err error) (forfeit bool, voidErr error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if IsForfeit(err) || seats[seat].VoidedBefore {
		return true, nil
	}
	return false, Void(ctx, seats, seat, fmt.Errorf("%s: %w", what, err))
}

// ForfeitReason is the reason recorded for a forfeit EngineFailure
// decided: what failed and how, and, where the failure alone would have
// voided the game, why it did not.
func ForfeitReason(seats [2]Seat, seat int, what string, err error) string {
	if !IsForfeit(err) && seats[seat].VoidedBefore {
		return fmt.Sprintf("%s: %v (a second void of this game by %s: its forfeit)", what, err, seats[seat].Code)
	}
	return fmt.Sprintf("%s: %v", what, err)
}

// IsForfeit splits an engine error into a forfeit (the engine answered
// wrongly: a failure response, a reply breaking the command's grammar,
// garbage, or no answer in time; true) or a void (the engine went away:
// it exited or its pipe broke, even in the middle of a response; false).
// docs/protocol.md's outcome table says the same, and a test holds the two
// together.
func IsForfeit(err error) bool {
	var fe *protocol.FailureError
	var pe *protocol.ProtocolError
	var re *protocol.ReplyError
	switch {
	case errors.Is(err, protocol.ErrEngineExited):
		return false
	case errors.As(err, &fe), errors.As(err, &pe), errors.As(err, &re), errors.Is(err, protocol.ErrTimeout):
		return true
	}
	return false
}
