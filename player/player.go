// Package player starts, talks to and stops game engines.
//
// Every kind of player has the same face, [Player]: send a GTP command and
// get the response text, close it, and ask how much CPU time it used. A
// [Process] is an engine run as a subprocess in its own process group (so
// that stopping it also stops anything it started); an [InProcess] is a
// [protocol.Server] run in a goroutine, which is how built-in bots play
// without a subprocess.
//
// Errors from Do are those of [protocol.Controller.Do], wrapped with the
// player's name: test them with errors.As (*protocol.FailureError,
// *protocol.ProtocolError) and errors.Is (protocol.ErrEngineExited,
// protocol.ErrTimeout, [ErrClosed]).
package player

import (
	"context"
	"errors"
	"time"
)

// Player is the common face of every kind of player.
//
// Do sends one command and returns the success response text; a Player is
// used by one goroutine at a time, except that Close may be called from
// another goroutine to abort a Do in progress. Close stops the player and
// releases its resources; it is safe to call more than once. CPUTime reports
// the CPU time the player used; see each implementation for when it is
// valid.
type Player interface {
	Do(ctx context.Context, command string, args ...string) (string, error)
	Close() error
	CPUTime() time.Duration
}

// ErrClosed is returned (wrapped) by Do on a player that is closed or
// closing.
var ErrClosed = errors.New("player closed")

// DefaultGracePeriod is how long Close waits for an engine to exit by
// itself before killing it, unless the Spec says otherwise.
const DefaultGracePeriod = 2 * time.Second

// maxQuitTimeout bounds how long Close waits for the answer to quit.
const maxQuitTimeout = time.Second
