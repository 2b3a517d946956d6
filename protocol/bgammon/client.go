package bgammon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Liveness defaults. The server pings every 30 s and drops a client that
// has written nothing for 40 s.
const (
	DefaultKeepAlive    = 20 * time.Second
	DefaultReadTimeout  = 95 * time.Second
	DefaultLoginTimeout = 30 * time.Second
)

// Login is what a client logs in with.
type Login struct {
	Client   string // the client's name, such as "gamemill-fibsbridge"
	User     string
	Password string
}

// ClientOptions tune a Client; zero values take the defaults.
type ClientOptions struct {
	KeepAlive    time.Duration // write something at least this often
	ReadTimeout  time.Duration // a silent server for this long is a lost connection
	LoginTimeout time.Duration // longest wait for the welcome
	Logf         func(format string, args ...any)
}

// Client is a logged-in connection. A goroutine reads and parses events,
// answering pings itself so that a slow engine never lets the connection
// lapse; another writes a pong when nothing else has been written for
// KeepAlive.
type Client struct {
	conn    Conn
	opt     ClientOptions
	events  chan Event
	welcome Welcome

	mu        sync.Mutex
	lastWrite time.Time
	err       error

	done      chan struct{}
	closeOnce sync.Once
}

// ErrLoginRefused is a connection the server closed or answered with a
// failure before its welcome.
var ErrLoginRefused = errors.New("login refused")

// Connect dials addr, logs in with loginjson and waits for the welcome.
func Connect(ctx context.Context, addr string, login Login, opt ClientOptions) (*Client, error) {
	if opt.KeepAlive <= 0 {
		opt.KeepAlive = DefaultKeepAlive
	}
	if opt.ReadTimeout <= 0 {
		opt.ReadTimeout = DefaultReadTimeout
	}
	if opt.LoginTimeout <= 0 {
		opt.LoginTimeout = DefaultLoginTimeout
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	conn, err := Dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	c := &Client{conn: conn, opt: opt, events: make(chan Event, 1024), done: make(chan struct{})}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := c.Send(LoginCommand(login.Client, login.User, login.Password)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("login: %w", err)
	}
	deadline := time.Now().Add(opt.LoginTimeout)
	_ = conn.SetReadDeadline(deadline)
	var last string
	for {
		line, err := conn.ReadLine()
		if err != nil {
			conn.Close()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if last != "" {
				return nil, fmt.Errorf("%w: %s (then %v)", ErrLoginRefused, last, err)
			}
			return nil, fmt.Errorf("login: waiting for the welcome: %w", err)
		}
		ev, err := ParseEvent(line)
		if err != nil {
			opt.Logf("unreadable line before the welcome: %v", err)
			continue
		}
		switch e := ev.(type) {
		case Welcome:
			c.welcome = e
			go c.readLoop()
			go c.keepAlive()
			return c, nil
		case Ping:
			_ = c.Send(PongCommand(e.Message))
		case Notice:
			last = e.Message
		case Failed:
			conn.Close()
			return nil, fmt.Errorf("%w: %s", ErrLoginRefused, e.Reason)
		case Text:
			if strings.TrimSpace(e.Line) != "" && !strings.HasPrefix(e.Line, "hello") {
				last = e.Line
			}
		}
	}
}

// Welcome is the server's welcome; its Player is the name logged in.
func (c *Client) Welcome() Welcome { return c.welcome }

// Events delivers the server's events; it is closed when the connection
// ends (Err says why).
func (c *Client) Events() <-chan Event { return c.events }

// Err is why the connection ended, once Events is closed.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Send writes one command.
func (c *Client) Send(cmd string) error {
	if strings.ContainsAny(cmd, "\r\n") {
		return fmt.Errorf("command %q: holds a line break", cmd)
	}
	c.mu.Lock()
	c.lastWrite = time.Now()
	c.mu.Unlock()
	if err := c.conn.WriteLine(cmd); err != nil {
		c.Close()
		return fmt.Errorf("send %q: %w", firstWord(cmd), err)
	}
	return nil
}

// firstWord keeps passwords out of errors.
func firstWord(cmd string) string {
	w, _, _ := strings.Cut(cmd, " ")
	return w
}

// Close ends the connection.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.done)
		err = c.conn.Close()
	})
	return err
}

func (c *Client) setErr(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
}

func (c *Client) readLoop() {
	defer close(c.events)
	for {
		_ = c.conn.SetReadDeadline(time.Now().Add(c.opt.ReadTimeout))
		line, err := c.conn.ReadLine()
		if err != nil {
			c.setErr(fmt.Errorf("connection lost: %w", err))
			c.Close()
			return
		}
		ev, err := ParseEvent(line)
		if err != nil {
			c.opt.Logf("unreadable event skipped: %v", err)
			continue
		}
		if p, ok := ev.(Ping); ok {
			_ = c.Send(PongCommand(p.Message))
		}
		select {
		case c.events <- ev:
		case <-c.done:
			return
		}
	}
}

func (c *Client) keepAlive() {
	t := time.NewTicker(c.opt.KeepAlive / 4)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			c.mu.Lock()
			idle := time.Since(c.lastWrite)
			c.mu.Unlock()
			if idle >= c.opt.KeepAlive {
				_ = c.Send(PongCommand("keepalive"))
			}
		}
	}
}
