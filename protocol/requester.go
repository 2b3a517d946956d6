package protocol

import (
	"context"
	"time"
)

// ExtensionPrefix starts the name of every Gamemill-specific command that
// is not part of a game's command set.
const ExtensionPrefix = "gamemill-"

// Requester sends one command and returns the success response text. A
// command set's client sends through one: a [Controller] bound to a timeout
// ([Controller.WithTimeout]), or a player that keeps its own timeouts
// (player.Player).
type Requester interface {
	Do(ctx context.Context, command string, args ...string) (string, error)
}

// WithTimeout returns a Requester that sends through c with the given
// timeout per command (zero: no limit beyond the context's).
func (c *Controller) WithTimeout(timeout time.Duration) Requester {
	return timed{c, timeout}
}

type timed struct {
	c       *Controller
	timeout time.Duration
}

func (t timed) Do(ctx context.Context, command string, args ...string) (string, error) {
	return t.c.Do(ctx, t.timeout, command, args...)
}
