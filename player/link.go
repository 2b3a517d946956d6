package player

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gamemill/gamemill/protocol"
)

// Link is what an adapter (a foreign program wrapped by an in-process
// protocol server, as gnubg and the agents are) shares between the Player
// that drives it and the server that relays to the program: the context
// of the command in progress, which bounds the server's wait for the
// program, and the error that broke the link for good. Its zero value is
// ready to use; every method may be called from any goroutine.
type Link struct {
	mu      sync.Mutex
	callCtx context.Context // the context of the Do in progress, if any
	broken  error           // set once the program is out of step or gone
}

// SetCallContext records the context of the command in progress (nil
// when none is).
func (l *Link) SetCallContext(ctx context.Context) {
	l.mu.Lock()
	l.callCtx = ctx
	l.mu.Unlock()
}

// CallContext returns the context of the command in progress, or nil.
func (l *Link) CallContext() context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.callCtx
}

// Fatal returns the error that broke the link, or nil.
func (l *Link) Fatal() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.broken
}

// Break breaks the link with err unless it is already broken, and returns
// the error that broke it first.
func (l *Link) Break(err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken == nil {
		l.broken = err
	}
	return l.broken
}

// Do sends one command through inproc, the adapter's in-process server,
// under timeout (none when 0). Errors are wrapped with name: ErrClosed once
// closing reports true, the link's own error when it broke (rather than
// the failure response that carried it), and errors wrapping
// protocol.ErrTimeout when the program did not answer in time.
func (l *Link) Do(ctx context.Context, name string, closing func() bool, timeout time.Duration, inproc Player, command string, args ...string) (string, error) {
	if closing() {
		return "", fmt.Errorf("%s: %q: %w", name, command, ErrClosed)
	}
	if err := l.Fatal(); err != nil {
		return "", fmt.Errorf("%s: %q: %w: %w", name, command, protocol.ErrControllerBroken, err)
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	l.SetCallContext(ctx)
	defer l.SetCallContext(nil)
	text, err := inproc.Do(ctx, command, args...)
	if err == nil {
		return text, nil
	}
	if closing() {
		return "", fmt.Errorf("%s: %q: %w", name, command, ErrClosed)
	}
	if ferr := l.Fatal(); ferr != nil {
		return "", fmt.Errorf("%s: %q: %w", name, command, ferr)
	}
	if errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, protocol.ErrTimeout) {
		err = fmt.Errorf("%w: %w", protocol.ErrTimeout, err)
	}
	return "", fmt.Errorf("%s: %w", name, err)
}
