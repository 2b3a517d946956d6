package player

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamemill/gamemill/protocol"
)

// InProcessOption configures an InProcess player.
type InProcessOption func(*InProcess)

// WithTimeout sets the timeout for each Do (zero: no limit beyond Do's
// context).
func WithTimeout(d time.Duration) InProcessOption {
	return func(p *InProcess) { p.timeout = d }
}

// WithTranscript sets a hook that sees every protocol line; see
// protocol.ControllerOptions.Transcript.
func WithTranscript(f func(sent bool, line string)) InProcessOption {
	return func(p *InProcess) { p.transcript = f }
}

// WithGracePeriod sets how long Close waits for the server goroutine to
// stop (default DefaultGracePeriod).
func WithGracePeriod(d time.Duration) InProcessOption {
	return func(p *InProcess) { p.grace = d }
}

// InProcess is a player whose engine is a protocol.Server running in a
// goroutine of this process, connected through in-memory pipes. It speaks
// the same GTP text as a subprocess would, so the caller cannot tell the
// difference, but it costs no process start. It implements Player.
type InProcess struct {
	timeout    time.Duration
	transcript func(sent bool, line string)
	grace      time.Duration

	ctrl   *protocol.Controller
	cmdW   *io.PipeWriter
	respR  *io.PipeReader
	cancel context.CancelFunc
	served chan error // receives Serve's result

	busy    atomic.Int64 // nanoseconds spent inside Do
	doMu    sync.Mutex
	closing atomic.Bool

	closeOnce sync.Once
	closeErr  error
}

var _ Player = (*InProcess)(nil)

// NewInProcess starts srv in a goroutine and returns a player talking to
// it. The server's handlers receive a context that Close cancels.
func NewInProcess(srv *protocol.Server, opts ...InProcessOption) *InProcess {
	p := &InProcess{grace: DefaultGracePeriod, served: make(chan error, 1)}
	for _, o := range opts {
		o(p)
	}
	if p.grace <= 0 {
		p.grace = DefaultGracePeriod
	}
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p.cmdW, p.respR, p.cancel = cmdW, respR, cancel
	p.ctrl = protocol.NewController(respR, cmdW, protocol.ControllerOptions{Transcript: p.transcript})
	go func() {
		err := srv.Serve(ctx, cmdR, respW)
		respW.Close()
		cmdR.Close()
		p.served <- err
	}()
	return p
}

// Do sends one command to the server and returns the success response
// text; errors are as for Process.Do.
func (p *InProcess) Do(ctx context.Context, command string, args ...string) (string, error) {
	p.doMu.Lock()
	defer p.doMu.Unlock()
	if p.closing.Load() {
		return "", fmt.Errorf("in-process engine: %q: %w", command, ErrClosed)
	}
	start := time.Now()
	text, err := p.ctrl.Do(ctx, p.timeout, command, args...)
	p.busy.Add(int64(time.Since(start)))
	if err != nil {
		return "", fmt.Errorf("in-process engine: %w", err)
	}
	return text, nil
}

// Close sends quit (unless a Do is in progress), closes the pipes, cancels
// the handlers' context and waits up to the grace period for the server
// goroutine to end. It returns an error if the goroutine did not end in
// time (a handler ignoring its context) or if Serve failed; later calls
// return the same error.
func (p *InProcess) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.close() })
	return p.closeErr
}

func (p *InProcess) close() error {
	p.closing.Store(true)
	if p.doMu.TryLock() {
		if p.ctrl.Err() == nil {
			qt := min(p.grace, maxQuitTimeout)
			ctx, cancel := context.WithTimeout(context.Background(), qt)
			_, _ = p.ctrl.Do(ctx, qt, "quit")
			cancel()
		}
		p.doMu.Unlock()
	}
	// Close the controller and the pipes before cancelling, so that a Do
	// in progress sees the engine go away rather than a failure caused by
	// the cancellation.
	p.ctrl.Close()
	p.cmdW.Close()
	p.respR.Close()
	p.cancel()
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case err := <-p.served:
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.ErrClosedPipe) {
			return fmt.Errorf("in-process engine: %w", err)
		}
		return nil
	case <-t.C:
		return fmt.Errorf("in-process engine: server goroutine still running %v after close (a handler ignores its context)", p.grace)
	}
}

// CPUTime approximates the engine's CPU time by the wall-clock time spent
// inside Do calls, which includes protocol overhead and any time the
// server's goroutine waited to be scheduled. It is valid at any time.
func (p *InProcess) CPUTime() time.Duration {
	return time.Duration(p.busy.Load())
}
