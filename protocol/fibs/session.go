package fibs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// ErrLoginRefused is returned by Session.Login when the server asks for
// the login again or says the login failed.
var ErrLoginRefused = errors.New("login refused")

// ErrNoWelcome is returned by Session.Login when the welcome does not come
// within the login timeout or within MaxLoginLines messages.
var ErrNoWelcome = errors.New("no welcome from the server")

// MaxLoginLines bounds the messages Session.Login reads before the
// welcome: a FIBS server sends a banner of a few dozen lines, so a server
// that sends more is not one, and what Login keeps stays small.
const MaxLoginLines = 1000

// DefaultLoginTimeout is the login timeout when SessionOptions gives none.
const DefaultLoginTimeout = 30 * time.Second

// Session is a client's conversation with a FIBS-style server over a line
// connection (TCP or WebSocket: see Dial). A goroutine reads and parses
// every line; Next hands the messages out in order. Send writes a command,
// but never before the server has answered the previous one: FIBS drops
// commands that arrive while it is busy with the last, so a client that
// does not wait loses moves.
type Session struct {
	conn io.ReadWriteCloser
	SessionOptions

	msgs chan Msg
	done chan struct{}
	err  error // read error, set before done is closed

	mu       sync.Mutex
	waiting  bool          // a command was sent and not yet answered
	answered chan struct{} // closed when it is
	wmu      sync.Mutex
	closed   sync.Once
}

// SessionOptions are a session's settings, fixed when it starts.
type SessionOptions struct {
	// AnswerTimeout bounds the wait for an answer before the next command
	// is sent anyway (the command is never sent twice). Zero: 60 s.
	AnswerTimeout time.Duration
	// LoginTimeout bounds Login, from its start to the welcome. Zero:
	// DefaultLoginTimeout.
	LoginTimeout time.Duration
	// Log, when set, receives one line per skipped or unreadable line and
	// per late answer.
	Log func(format string, args ...any)
	// Transcript, when set, sees every line read and every command sent
	// (the login command with the password masked).
	Transcript func(sent bool, line string)
}

// NewSession starts reading conn. Close the session to stop.
func NewSession(conn io.ReadWriteCloser, o SessionOptions) *Session {
	s := &Session{conn: conn, SessionOptions: o, msgs: make(chan Msg, 4096), done: make(chan struct{})}
	go s.read()
	return s
}

func (s *Session) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
	}
}

func (s *Session) read() {
	lr := NewLineReader(s.conn, MaxLine)
	defer close(s.done)
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, ErrLineTooLong) {
			s.logf("fibs: skipped a line over %d bytes", MaxLine)
			continue
		}
		if err != nil {
			s.err = err
			return
		}
		if s.Transcript != nil {
			s.Transcript(false, line)
		}
		for _, part := range Split(line) {
			m := Parse(part)
			if m.Kind == Unknown && m.Raw != "" && m.Board == nil && m.Text != "" {
				s.logf("fibs: unreadable line %q: %s", clipText(m.Raw), m.Text)
			}
			if answers(m.Kind) {
				s.markAnswered()
			}
			select {
			case s.msgs <- m:
			case <-time.After(time.Minute):
				s.logf("fibs: nobody reads the session; dropped %q", clipText(m.Raw))
			}
		}
	}
}

// answers reports whether a message can be the server's answer to a
// command: chat and other players' comings and goings are not.
func answers(k Kind) bool {
	return k < Login || k > Alert
}

func (s *Session) markAnswered() {
	s.mu.Lock()
	if s.waiting {
		s.waiting = false
		close(s.answered)
	}
	s.mu.Unlock()
}

func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// Next returns the next message from the server. At the end of the
// connection it returns the read error (io.EOF for a clean close).
func (s *Session) Next(ctx context.Context) (Msg, error) {
	select {
	case m := <-s.msgs:
		return m, nil
	default:
	}
	select {
	case m := <-s.msgs:
		return m, nil
	case <-s.done:
		select {
		case m := <-s.msgs:
			return m, nil
		default:
		}
		return Msg{}, s.err
	case <-ctx.Done():
		return Msg{}, ctx.Err()
	}
}

// Send writes one command line once the previous command was answered.
func (s *Session) Send(ctx context.Context, command string) error {
	return s.send(ctx, command, command)
}

func (s *Session) send(ctx context.Context, command, shown string) error {
	if err := s.awaitAnswer(ctx); err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	s.waiting, s.answered = true, make(chan struct{})
	s.mu.Unlock()
	if s.Transcript != nil {
		s.Transcript(true, shown)
	}
	if _, err := io.WriteString(s.conn, command+"\r\n"); err != nil {
		return fmt.Errorf("send %q: %w", shown, err)
	}
	return nil
}

// awaitAnswer waits until the last command was answered, the answer
// timeout passed (then it logs and goes on) or ctx ends.
func (s *Session) awaitAnswer(ctx context.Context) error {
	s.mu.Lock()
	waiting, ch := s.waiting, s.answered
	s.mu.Unlock()
	if !waiting {
		return nil
	}
	d := s.AnswerTimeout
	if d <= 0 {
		d = time.Minute
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-t.C:
		s.logf("fibs: no answer to the last command after %v; sending the next one", d)
		s.mu.Lock()
		s.waiting = false
		s.mu.Unlock()
		return nil
	case <-s.done:
		return fmt.Errorf("connection closed: %w", s.errOrEOF())
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Session) errOrEOF() error {
	if s.err != nil {
		return s.err
	}
	return io.EOF
}

// Login waits for the login prompt (if the server sends one), sends the
// CLIP login command and waits for the welcome message (1) or a refusal.
// It returns the messages read on the way, welcome last. The password is
// never written to the transcript or the log. A welcome that does not
// come within the login timeout or MaxLoginLines messages is ErrNoWelcome.
func (s *Session) Login(ctx context.Context, client, user, password string) ([]Msg, error) {
	d := s.LoginTimeout
	if d <= 0 {
		d = DefaultLoginTimeout
	}
	lctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var seen []Msg
	fail := func(err error) ([]Msg, error) {
		switch {
		case ctx.Err() != nil:
			return seen, ctx.Err()
		case lctx.Err() != nil:
			return seen, fmt.Errorf("login as %s: %w after %v", user, ErrNoWelcome, d)
		}
		return seen, fmt.Errorf("login as %s: %w", user, err)
	}
	next := func(ctx context.Context) (Msg, error) {
		if len(seen) >= MaxLoginLines {
			return Msg{}, fmt.Errorf("%w in %d messages", ErrNoWelcome, MaxLoginLines)
		}
		m, err := s.Next(ctx)
		if err == nil {
			err = ctx.Err() // a flood never leaves Next waiting for the deadline
		}
		if err != nil {
			return Msg{}, err
		}
		seen = append(seen, m)
		return m, nil
	}
	// The prompt comes first; some clones send none, so wait briefly.
	pctx, pcancel := context.WithTimeout(lctx, 5*time.Second)
	for {
		m, err := next(pctx)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && lctx.Err() == nil {
				break
			}
			pcancel()
			return fail(err)
		}
		if m.Kind == LoginPrompt {
			break
		}
	}
	pcancel()
	if err := s.send(lctx, LoginCommand(client, user, password), LoginCommand(client, user, "********")); err != nil {
		return fail(err)
	}
	for {
		m, err := next(lctx)
		if err != nil {
			return fail(err)
		}
		switch m.Kind {
		case Welcome:
			return seen, nil
		case LoginPrompt:
			// A prompt glued to the welcome (the server's greeting
			// arriving late) is followed by it at once; a refusal is not.
			wctx, cancel := context.WithTimeout(lctx, 500*time.Millisecond)
			after, err := next(wctx)
			cancel()
			if err == nil && after.Kind == Welcome {
				return seen, nil
			}
			return seen, fmt.Errorf("login as %s: %w", user, ErrLoginRefused)
		case Error:
			return seen, fmt.Errorf("login as %s: %w: %s", user, ErrLoginRefused, m.Text)
		}
	}
}

// Close closes the connection; Next then returns the read error.
func (s *Session) Close() error {
	var err error
	s.closed.Do(func() { err = s.conn.Close() })
	return err
}

// Done is closed when the connection's reading ended.
func (s *Session) Done() <-chan struct{} { return s.done }
