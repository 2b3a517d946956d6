// Package bridge puts an engine that speaks Gamemill's backgammon command
// set on a FIBS-style server: it logs in, accepts or sends invitations by
// policy, plays every decision through the engine (each move checked
// against the rules before it is sent), offers and answers resignations,
// writes a .mat record of each match, and reconnects with backoff after a
// lost connection, resuming the saved match.
//
// The match state comes from the server's boards. A move line is a note
// for the record only: it is read with the direction of the board that
// follows it (FIBS swaps colours every game, and may send the opponent's
// first move of a game before any board of that game), and a move the
// messages lost is found from the board that shows its result. So the
// order in which FIBS and its clones send moves, rolls, doubles, boards
// and game ends cannot put the bridge out of step.
package bridge

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// Options are the bridge's settings.
type Options struct {
	Server    string // tcp://HOST:PORT or ws://HOST:PORT/PATH
	User      string
	Password  string // never logged
	Client    string // the client name sent at login
	Accept    []string
	MaxLength int  // longest match accepted (0: any)
	Unlimited bool // accept unlimited matches
	Invite    string
	InviteLen int // 0: unlimited
	Matches   int // stop after this many matches (0: run until stopped)
	Records   string
	// StateFile keeps the match in progress ("" keeps none); StatePath
	// names one per server and user in a state directory.
	StateFile  string
	MaxBackoff time.Duration
	// LoginTimeout bounds the wait for the welcome (0: the fibs default),
	// WhoTimeout the wait for the end of the who list that follows it (0:
	// DefaultWhoTimeout): a server silent past either is a lost connection.
	LoginTimeout time.Duration
	WhoTimeout   time.Duration
}

// DefaultWhoTimeout is how long the bridge waits for the who list's end.
const DefaultWhoTimeout = 30 * time.Second

// maxPending bounds the messages kept while the who list is read; a
// server that sends more before its end is given up on.
const maxPending = 1000

// maxOnline bounds the names kept as online, beyond which only the
// bridge's own opponents are added: a hostile who list may be endless.
const maxOnline = 5000

// Bridge connects one engine to a FIBS-style server.
type Bridge struct {
	opt    Options
	engine *engineSeat
	log    *log.Logger

	played  int         // matches finished
	cur     *matchState // the match in progress (or saved), nil when none
	sess    *fibs.Session
	online  map[string]bool
	active  bool      // a match is being played on this connection
	invited time.Time // when the last invitation was sent
}

// New returns a bridge that plays through engine and logs to logger.
func New(o Options, engine *bgcmd.Client, logger *log.Logger) *Bridge {
	return &Bridge{opt: o, engine: &engineSeat{c: engine}, log: logger}
}

// Played is the number of matches finished so far.
func (b *Bridge) Played() int { return b.played }

func (b *Bridge) logf(format string, args ...any) { b.log.Printf(format, args...) }

// done reports whether the requested number of matches is played.
func (b *Bridge) done() bool { return b.opt.Matches > 0 && b.played >= b.opt.Matches }

// Run connects, plays, and reconnects with backoff until ctx ends or the
// requested number of matches is played. It returns nil then; an error
// only when the server refuses the login.
func (b *Bridge) Run(ctx context.Context) error {
	if err := b.loadState(); err != nil {
		b.logf("state file: %v (starting afresh)", err)
	}
	backoff := 500 * time.Millisecond
	maxBackoff := b.opt.MaxBackoff
	if maxBackoff <= 0 {
		maxBackoff = 30 * time.Second
	}
	for {
		start := time.Now()
		err := b.session(ctx)
		if b.done() || ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, fibs.ErrLoginRefused) {
			return err
		}
		if time.Since(start) > 30*time.Second {
			backoff = 500 * time.Millisecond
		}
		b.logf("connection lost: %v; reconnecting in %v", err, backoff)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

// session is one connection: login, setup, then the message loop.
func (b *Bridge) session(ctx context.Context) error {
	conn, err := fibs.Dial(ctx, b.opt.Server)
	if err != nil {
		return err
	}
	s := fibs.NewSession(conn, fibs.SessionOptions{Log: b.logf, LoginTimeout: b.opt.LoginTimeout})
	b.sess = s
	defer s.Close()
	b.online = map[string]bool{}
	b.active = false
	msgs, err := s.Login(ctx, b.opt.Client, b.opt.User, b.opt.Password)
	if err != nil {
		return err
	}
	b.logf("logged in to %s as %s", b.opt.Server, b.opt.User)
	if err := b.send(ctx, fibs.SetCommand("boardstyle", "3")); err != nil {
		return err
	}
	own := fibs.Own{}
	for _, m := range msgs {
		if m.Own != nil {
			own = *m.Own
		}
	}
	// Read up to the end of the who list, then fix the toggles. A server
	// that does not end it soon is given up on like a lost connection.
	whoTimeout := b.opt.WhoTimeout
	if whoTimeout <= 0 {
		whoTimeout = DefaultWhoTimeout
	}
	wctx, cancel := context.WithTimeout(ctx, whoTimeout)
	defer cancel()
	var pending []fibs.Msg
	for {
		m, err := s.Next(wctx)
		if err == nil {
			err = wctx.Err() // a flood never leaves Next waiting for the deadline
		}
		if err != nil && ctx.Err() == nil && wctx.Err() != nil {
			err = fmt.Errorf("no end of the who list after %v", whoTimeout)
		}
		if err != nil {
			return b.leave(err)
		}
		if m.Own != nil {
			own = *m.Own
		}
		if m.Kind == fibs.WhoInfo {
			b.markOnline(m.Name)
			continue
		}
		if len(pending) == maxPending {
			return b.leave(fmt.Errorf("more than %d messages before the end of the who list", maxPending))
		}
		pending = append(pending, m)
		if m.Kind == fibs.WhoEnd {
			break
		}
	}
	cancel()
	for _, t := range []struct {
		name string
		on   bool
	}{{"ready", own.Ready}, {"double", own.Double}, {"autoboard", own.Autoboard}, {"notify", own.Notify}} {
		if !t.on {
			if err := b.send(ctx, fibs.ToggleCommand(t.name)); err != nil {
				return err
			}
		}
	}
	for _, m := range pending {
		if err := b.handle(ctx, m); err != nil {
			return b.leave(err)
		}
		if b.done() {
			return b.logout()
		}
	}
	if err := b.startSomething(ctx); err != nil {
		return b.leave(err)
	}
	for {
		nctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		m, err := s.Next(nctx)
		cancel()
		if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			// Quiet: an invitation refused or unanswered is sent again;
			// a move an error may have refused is checked on the board.
			if !b.active && time.Since(b.invited) > 3*time.Second {
				if err := b.startSomething(ctx); err != nil {
					return b.leave(err)
				}
			}
			if mt := b.cur; b.active && mt != nil && mt.doubtful && mt.Pending != nil && !mt.askedBoard {
				mt.askedBoard = true
				if err := b.send(ctx, fibs.CmdBoard); err != nil {
					return b.leave(err)
				}
			}
			continue
		}
		if err != nil {
			return b.leave(err)
		}
		if err := b.handle(ctx, m); err != nil {
			return b.leave(err)
		}
		if b.done() {
			return b.logout()
		}
	}
}

// logout ends a session whose matches are all played.
func (b *Bridge) logout() error {
	b.logf("played %d match(es); logging out", b.played)
	b.saveState()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = b.send(sctx, fibs.CmdBye)
	time.Sleep(100 * time.Millisecond)
	return nil
}

// leave ends a session: on a cancelled context (SIGINT) it logs out
// politely, which makes the server save the match.
func (b *Bridge) leave(err error) error {
	b.saveState()
	if errors.Is(err, context.Canceled) && b.sess != nil {
		b.logf("stopping: logging out (the server keeps the match saved)")
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = b.sess.Send(sctx, fibs.CmdBye)
		cancel()
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

func (b *Bridge) send(ctx context.Context, cmd string) error {
	b.logf("> %s", cmd)
	return b.sess.Send(ctx, cmd)
}

// startSomething resumes the saved match or sends the configured
// invitation, when its player is online.
func (b *Bridge) startSomething(ctx context.Context) error {
	switch {
	case b.cur != nil && (b.cur.Partial || b.cur.b != nil && b.cur.b.State().GameState != bg.GameNone):
		if b.online[b.cur.Opponent] {
			b.invited = time.Now()
			return b.send(ctx, fibs.InviteCommand(b.cur.Opponent, -1))
		}
	case b.opt.Invite != "" && b.cur == nil && !b.done():
		if b.online[b.opt.Invite] {
			b.invited = time.Now()
			return b.send(ctx, fibs.InviteCommand(b.opt.Invite, b.opt.InviteLen))
		}
	}
	return nil
}

// markOnline notes that name is logged in.
func (b *Bridge) markOnline(name string) {
	if len(b.online) < maxOnline || name == b.opt.Invite || b.cur != nil && name == b.cur.Opponent {
		b.online[name] = true
	}
}

func (b *Bridge) accepts(name string, length int) bool {
	if b.done() {
		return false
	}
	if length == fibs.Unlimited && !b.opt.Unlimited || b.opt.MaxLength > 0 && length > b.opt.MaxLength {
		return false
	}
	for _, a := range b.opt.Accept {
		if a == "all" || a == name {
			return true
		}
	}
	return false
}

// player maps a name in a message to the record's player: 0 is us.
func (b *Bridge) player(name string) int {
	if name == fibs.You || name == b.opt.User {
		return 0
	}
	return 1
}
