// Package server is a FIBS-style backgammon server: accounts in SQLite
// (bcrypt-hashed passwords), the who list, toggles, invitations, match play
// refereed by engine/backgammon with dice from crypto/rand, the cube, the
// Crawford rule, resignations, FIBS ratings, matches saved when a player
// leaves and resumed later, and every finished match kept as a .mat file.
// It speaks CLIP to client programs and FIBS's plain text (ASCII boards,
// help) to people at a telnet prompt, over telnet-style TCP and over
// WebSocket (one line per text frame), with one session code for both.
package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// Config holds the server's settings and limits.
type Config struct {
	Records       string        // directory for finished matches (.mat)
	Register      bool          // a login with an unknown name creates the account
	MaxLine       int           // longest command line read
	LoginAttempts int           // failed logins per connection before it is closed
	AddrAttempts  int           // failed logins per address per AddrWindow
	AddrWindow    time.Duration //
	AddrConns     int           // connections not yet logged in, per address
	AddrRegs      int           // accounts created by Register, per address per RegWindow
	RegWindow     time.Duration //
	MaxConns      int           // connections at once, logged in or not
	LoginIdle     time.Duration // an unauthenticated connection is closed after this
	WriteTimeout  time.Duration // a client that takes no output for this long is dropped
	HTTPIdle      time.Duration // an idle keep-alive connection on the WebSocket port is closed after this
	Origins       []string      // web origins allowed to open WebSockets besides the server's own
	MOTD          string
	// Dice rolls one die; nil rolls from crypto/rand. Tests seed it.
	Dice func() int
}

func (c *Config) defaults() {
	if c.MaxLine <= 0 {
		c.MaxLine = 512
	}
	if c.LoginAttempts <= 0 {
		c.LoginAttempts = 3
	}
	if c.AddrAttempts <= 0 {
		c.AddrAttempts = 20
	}
	if c.AddrWindow <= 0 {
		c.AddrWindow = time.Minute
	}
	if c.AddrConns <= 0 {
		c.AddrConns = 8
	}
	if c.AddrRegs <= 0 {
		c.AddrRegs = 3
	}
	if c.RegWindow <= 0 {
		c.RegWindow = time.Hour
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 1000
	}
	if c.LoginIdle <= 0 {
		c.LoginIdle = time.Minute
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 30 * time.Second
	}
	if c.HTTPIdle <= 0 {
		c.HTTPIdle = 30 * time.Second
	}
}

// Server is a FIBS-style backgammon server. One mutex guards all of its
// state: users, invitations, matches and the per-address counts. Nothing
// under it waits on the network: each connection's writes go through its
// own queue and writer, and closing a connection does not wait for that
// writer.
type Server struct {
	cfg   Config
	store *Store
	log   *log.Logger
	// noisy logs what strangers can cause at will (bad login lines,
	// refused connections), at a bounded rate.
	noisy *rateLog
	dice  func() int

	mu       sync.Mutex
	users    map[string]*client
	invites  map[[2]string]int // (from, to) -> length; -1 resumes the saved match
	failures map[string][]time.Time
	regs     map[string][]time.Time // accounts created, per address
	conns    int                    // connections admitted and not yet gone
	departed chan struct{}          // closed, and replaced, when a connection goes
	unauth   map[string]int         // connections not logged in, per address
	// While holding, lines sent to clients wait in their held lists for
	// flushLocked: a command's answers go out after its match is saved.
	holding bool
	heldBy  []*client
}

// New makes a server on the store st, logging to logger; Run serves it.
func New(cfg Config, st *Store, logger *log.Logger) *Server {
	cfg.defaults()
	dice := cfg.Dice
	if dice == nil {
		dice = secureDie
	}
	return &Server{cfg: cfg, store: st, log: logger, noisy: &rateLog{log: logger, burst: 20}, dice: dice,
		users: map[string]*client{}, invites: map[[2]string]int{}, failures: map[string][]time.Time{},
		regs: map[string][]time.Time{}, unauth: map[string]int{}, departed: make(chan struct{})}
}

// client is one connection, logged in or not.
type client struct {
	srv   *Server
	conn  io.ReadWriteCloser
	addr  string
	host  string
	out   chan string
	quit  chan struct{} // closed by close
	drain chan struct{} // closed by finish: send what is queued and stop
	wrote chan struct{} // closed when the writer stops
	once  sync.Once
	fin   sync.Once
	name  string // "" until logged in
	own   fibs.Own
	login time.Time
	idle  time.Time
	match *match
	seat  int
	// watching is the player this client watches: it gets the boards of
	// that player's match and may do nothing in it.
	watching string
	held     []string // lines waiting for the server's flushLocked
	pending  bool     // counted in the server's unauth
	// clip says the client logged in with CLIP's login line: it gets the
	// numbered CLIP messages; a person who typed a name and a password
	// gets FIBS's plain text instead.
	clip bool
	// boardStyle is FIBS's boardstyle: 1 and 2 draw ASCII boards, 3 (the
	// default, as on FIBS) sends the CLIP board line.
	boardStyle int
	// loginName is the name typed at the login prompt, waiting for its
	// password.
	loginName string
	// telnet says the connection is TCP: telnet commands are dropped
	// from its input, and its echo is turned off for the password.
	telnet bool
}

// sendBoard sends a CLIP board line in the client's board style.
func (c *client) sendBoard(line string) {
	if c.boardStyle == 1 || c.boardStyle == 2 {
		if b, err := fibsboard.Parse(line); err == nil {
			c.send(asciiBoard(b, c.boardStyle)...)
			return
		}
	}
	c.send(line)
}

// sendClip sends the CLIP line to a CLIP client and the plain line to a
// person; an empty line is not sent.
func (c *client) sendClip(clipLine, plain string) {
	if c.clip {
		c.send(clipLine)
	} else if plain != "" {
		c.send(plain)
	}
}

// send queues lines for the client, to be called with the server's mutex
// held. While the server holds output they wait for its flush.
func (c *client) send(lines ...string) {
	if c.srv.holding {
		if len(c.held) == 0 {
			c.srv.heldBy = append(c.srv.heldBy, c)
		}
		c.held = append(c.held, lines...)
		return
	}
	c.enqueue(lines...)
}

func (c *client) sendf(format string, args ...any) { c.send(fmt.Sprintf(format, args...)) }

// enqueue hands lines to the writer at once; any goroutine may call it. A
// client too slow to take them is disconnected rather than allowed to hold
// the server up.
func (c *client) enqueue(lines ...string) {
	for _, l := range lines {
		select {
		case c.out <- l:
		case <-c.quit:
			return
		default:
			c.srv.noisy.Printf("%s: output queue full, disconnecting", c.addr)
			c.close()
			return
		}
	}
}

// finish has the writer send what is queued and stop; wait on c.wrote
// for it. The connection's end and the server's shutdown both call it.
func (c *client) finish() { c.fin.Do(func() { close(c.drain) }) }

// close ends the connection without waiting for anything: it may run
// under the server's mutex while the client's writer is blocked.
func (c *client) close() {
	c.once.Do(func() {
		close(c.quit)
		// Closing the socket is what unblocks a blocked writer; a WebSocket
		// close first tries a close frame, so it does not run here.
		go c.conn.Close()
	})
}

func (c *client) label() string {
	if c.name != "" {
		return c.name + "@" + c.addr
	}
	return c.addr
}

// writer sends the queued lines, each under a deadline: a peer that stops
// reading is dropped after cfg.WriteTimeout.
func (c *client) writer() {
	defer close(c.wrote)
	for {
		select {
		case l := <-c.out:
			if !c.write(l) {
				return
			}
		case <-c.drain:
			for {
				select {
				case l := <-c.out:
					if !c.write(l) {
						return
					}
				default:
					return
				}
			}
		case <-c.quit:
			return
		}
	}
}

func (c *client) write(l string) bool {
	if !strings.HasSuffix(l, ": ") { // prompts go without a line ending
		l += "\r\n"
	}
	if d, ok := c.conn.(interface{ SetWriteDeadline(time.Time) error }); ok {
		d.SetWriteDeadline(time.Now().Add(c.srv.cfg.WriteTimeout))
	}
	if _, err := io.WriteString(c.conn, l); err != nil {
		c.srv.noisy.Printf("%s: write: %v, disconnecting", c.addr, err)
		c.close()
		return false
	}
	return true
}

// flushLocked ends holding: every held line goes to its writer.
func (s *Server) flushLocked() {
	s.holding = false
	for _, c := range s.heldBy {
		lines := c.held
		c.held = nil
		c.enqueue(lines...)
	}
	s.heldBy = s.heldBy[:0]
}

// admit counts a new connection from host, or says why it is refused:
// the server is full, or host has too many connections not logged in.
func (s *Server) admit(host string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns >= s.cfg.MaxConns {
		return errors.New("** The server is full. Please try again later.")
	}
	if s.unauth[host] >= s.cfg.AddrConns {
		return errors.New("** Too many connections from your address are not logged in.")
	}
	s.conns++
	s.unauth[host]++
	return nil
}

// departLocked uncounts a connection admitted for host; pending says it
// was still not logged in.
func (s *Server) departLocked(host string, pending bool) {
	s.conns--
	close(s.departed)
	s.departed = make(chan struct{})
	if pending {
		s.loggedInLocked(host)
	}
}

// loggedInLocked uncounts a connection of host that was not logged in.
func (s *Server) loggedInLocked(host string) {
	if s.unauth[host]--; s.unauth[host] <= 0 {
		delete(s.unauth, host)
	}
}

// serveConn runs one admitted connection to its end: the same code for
// TCP and WebSocket connections.
func (s *Server) serveConn(ctx context.Context, conn io.ReadWriteCloser, addr string) {
	// A TCP connection may be a telnet program; a WebSocket is not, and
	// telnet commands would break its UTF-8 text frames.
	_, telnet := conn.(net.Conn)
	c := &client{srv: s, conn: conn, addr: addr, telnet: telnet, host: hostOf(addr), out: make(chan string, 1024), quit: make(chan struct{}),
		drain: make(chan struct{}), wrote: make(chan struct{}), seat: -1, pending: true, boardStyle: 3,
		own: fibs.Own{AllowPip: true, Autoboard: true, Crawford: true, Double: true, Moreboards: true, Notify: true, Rating: 1500, Timezone: "UTC"}}
	defer func() {
		s.mu.Lock()
		s.departLocked(c.host, c.pending)
		c.pending = false
		s.mu.Unlock()
	}()
	go c.writer()
	defer c.close()
	// When the server stops, shutdown says goodbye to logged-in users and
	// closes them itself; closing them here would race their goodbye.
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		loggedIn := c.name != "" && s.users[c.name] == c
		s.mu.Unlock()
		if !loggedIn {
			c.close()
		}
	})
	defer stop()
	// Close the connection if it does not log in in time.
	loginTimer := time.AfterFunc(s.cfg.LoginIdle, func() {
		s.noisy.Printf("%s: no login after %v, closing", addr, s.cfg.LoginIdle)
		c.close()
	})
	defer loginTimer.Stop()
	c.enqueue("FIBS-style backgammon server (gamemill fibsd)", "", "login: ")
	var in io.Reader = conn
	if c.telnet {
		in = &telnetInput{r: conn}
	}
	lr := fibs.NewLineReader(in, s.cfg.MaxLine)
	failed, tooLong := 0, 0
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, fibs.ErrLineTooLong) {
			// Logged once per connection: a client can send them by the
			// thousand.
			if tooLong++; tooLong == 1 {
				s.noisy.Printf("%s: line over %d bytes skipped", c.label(), s.cfg.MaxLine)
			}
			if c.name != "" {
				c.enqueue(fmt.Sprintf("** Line too long (at most %d characters).", s.cfg.MaxLine))
				continue
			}
			// Before login an over-long line is a failed attempt.
			failed++
			if !s.attemptFailed(c.host) || failed >= s.cfg.LoginAttempts {
				s.noisy.Printf("%s: %d failed logins, closing", addr, failed)
				c.enqueue("** Too many failed logins.")
				break
			}
			c.enqueue("", "login: ")
			continue
		}
		if err != nil {
			break
		}
		line = strings.TrimSpace(line)
		if c.name == "" {
			if line == "" && c.loginName == "" {
				continue
			}
			ok, bye, wait := s.tryLogin(c, line)
			if wait {
				continue
			}
			if ok {
				loginTimer.Stop()
				continue
			}
			failed++
			if bye || failed >= s.cfg.LoginAttempts {
				s.noisy.Printf("%s: %d failed logins, closing", addr, failed)
				c.enqueue("** Too many failed logins.")
				break
			}
			c.enqueue("", "login: ")
			continue
		}
		if s.command(c, cleanText(line)) {
			break
		}
	}
	if tooLong > 1 {
		s.log.Printf("%s: %d lines over %d bytes skipped", c.label(), tooLong, s.cfg.MaxLine)
	}
	s.logout(c)
	// Let the writer send what is queued (a goodbye) before closing, for
	// a second at most.
	c.finish()
	select {
	case <-c.wrote:
	case <-time.After(time.Second):
	}
}

// tryLogin handles a line before login: CLIP's "login CLIENT 1008 NAME
// PASSWORD", or a person's name typed at the login prompt (wait: the
// password prompt is sent) and then the password. It never logs the
// password. Each attempt takes one of the address's attempts before the
// password is checked, so connections that send their lines together get
// no more checks than one connection.
func (s *Server) tryLogin(c *client, line string) (ok, bye, wait bool) {
	var client, name, password string
	if c.loginName != "" {
		client, name, password = "-", c.loginName, line
		c.loginName, c.clip = "", false
		if c.telnet {
			c.enqueue(wontEcho) // and the line ending the client did not echo
		}
	} else {
		f := strings.Fields(line)
		switch {
		case len(f) == 5 && f[0] == "login":
			client, name, password = f[1], f[3], f[4]
			c.clip = true
		case len(f) == 1 && f[0] != "login":
			c.loginName = f[0]
			if c.telnet {
				c.enqueue(willEcho + "password: ")
			} else {
				c.enqueue("password: ")
			}
			return false, false, true
		default:
			s.noisy.Printf("%s: not a login line", c.addr)
			return false, !s.attemptFailed(c.host), false
		}
	}
	at, allowed := s.reserveAttempt(c.host)
	if !allowed {
		s.noisy.Printf("%s: too many failed logins from this address", c.addr)
		return false, true, false
	}
	good, known, last, host, err := s.store.checkUser(name, password)
	if err != nil {
		s.log.Printf("%s: login %s: %v", c.addr, name, err)
		return false, false, false
	}
	if !known && s.cfg.Register {
		if err := checkName(name); err != nil {
			c.enqueue(fmt.Sprintf("** %s: %v.", cleanText(name), err))
			return false, false, false
		}
		if !s.reserveRegistration(c.host) {
			s.noisy.Printf("%s: register %s: too many new accounts from this address", c.addr, name)
			c.enqueue("** Too many new accounts from your address. Please try again later.")
			return false, false, false
		}
		if err := s.store.AddUser(name, password); err != nil {
			s.noisy.Printf("%s: register %s: %v", c.addr, name, err)
			if errors.Is(err, ErrUserExists) {
				c.enqueue(fmt.Sprintf("** The name %s is taken (or too like a taken one).", name))
			}
			return false, false, false
		}
		s.log.Printf("%s: registered %s", c.addr, name)
		good = true
	}
	if !good {
		s.noisy.Printf("%s: failed login as %q", c.addr, name)
		if !c.clip {
			c.enqueue("** User not known or wrong password.")
		}
		return false, false, false
	}
	s.releaseAttempt(c.host, at)
	s.store.touchUser(name, c.addr)
	standing, err := s.store.Standing(name)
	if err != nil {
		s.log.Printf("%s: %v", c.addr, err)
	}
	rows, _ := s.store.savedFor(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.pending {
		s.loggedInLocked(c.host)
		c.pending = false
	}
	if old := s.users[name]; old != nil {
		// A second login replaces the first, as on FIBS.
		old.send("** You are logged in again from another connection. Goodbye.")
		s.detachLocked(old, "logs in again")
		delete(s.users, name)
		old.close()
	}
	c.name, c.login, c.idle = name, time.Now(), time.Now()
	c.own.Name = name
	c.own.Rating, c.own.Experience = standing.Rating, standing.Experience
	s.users[name] = c
	s.log.Printf("%s: logged in (client %q)", c.label(), client)
	if c.clip {
		if host == "" {
			host = "-"
		}
		c.sendf("1 %s %d %s", name, last, host)
		c.send(c.own.String(), "3")
		for _, l := range strings.Split(s.cfg.MOTD, "\n") {
			c.send(l)
		}
		c.send("4")
		s.whoLocked(c, false)
	} else {
		if last == 0 {
			c.sendf("Welcome %s. This is your first login.", name)
		} else {
			c.sendf("Welcome %s. Your last login was %s from %s.", name, time.Unix(last, 0).UTC().Format("Mon Jan 2 15:04 2006 UTC"), host)
		}
		c.send(strings.Split(s.cfg.MOTD, "\n")...)
		c.sendf("Your rating is %.2f, your experience %d. Type 'help' for a list of commands.", c.own.Rating, c.own.Experience)
	}
	for _, u := range s.users {
		if u != c && u.own.Notify {
			u.sendClip(fmt.Sprintf("7 %s %s logs in.", name, name), name+" logs in.")
		}
	}
	if len(rows) > 0 {
		c.sendf("** You have %d saved match(es): type 'show saved'.", len(rows))
	}
	return true, false, false
}

// recentLocked drops the times in m[key] older than window and returns
// the rest.
func recentLocked(m map[string][]time.Time, key string, window time.Duration) []time.Time {
	cut := time.Now().Add(-window)
	ts := m[key]
	for len(ts) > 0 && ts[0].Before(cut) {
		ts = ts[1:]
	}
	if len(ts) == 0 {
		delete(m, key)
	} else {
		m[key] = ts
	}
	return ts
}

// reserveAttempt counts a login attempt from host before its password is
// checked; false means host has used up its attempts for the window. A
// login that succeeds gives its attempt back (releaseAttempt).
func (s *Server) reserveAttempt(host string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := recentLocked(s.failures, host, s.cfg.AddrWindow)
	if len(ts) >= s.cfg.AddrAttempts {
		return time.Time{}, false
	}
	now := time.Now()
	s.failures[host] = append(ts, now)
	return now, true
}

// attemptFailed counts a failed attempt that needs no password check (a
// line that is no login); false means host has used up its attempts.
func (s *Server) attemptFailed(host string) bool {
	_, ok := s.reserveAttempt(host)
	return ok
}

func (s *Server) releaseAttempt(host string, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := s.failures[host]
	for i, t := range ts {
		if t.Equal(at) {
			s.failures[host] = append(ts[:i:i], ts[i+1:]...)
			return
		}
	}
}

// reserveRegistration counts an account about to be created from host;
// false means host has created its share for the window.
func (s *Server) reserveRegistration(host string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := recentLocked(s.regs, host, s.cfg.RegWindow)
	if len(ts) >= s.cfg.AddrRegs {
		return false
	}
	s.regs[host] = append(ts, time.Now())
	return true
}

// whoLocked sends c the who list: CLIP's who info lines and their end,
// or for a person a table sorted by name.
func (s *Server) whoLocked(c *client, raw bool) {
	if c.clip || raw {
		for _, u := range s.users {
			c.send(s.whoOf(u).String())
		}
		c.send("6")
		return
	}
	names := make([]string, 0, len(s.users))
	for n := range s.users {
		names = append(names, n)
	}
	slices.Sort(names)
	c.send(fmt.Sprintf("  %-20s %9s %5s %6s  %s", "name", "rating", "exp", "idle", "playing with"))
	for _, n := range names {
		u := s.users[n]
		flag := "-"
		switch {
		case u.match != nil:
			flag = "P"
		case u.own.Ready:
			flag = "R"
		}
		opp := ""
		if u.match != nil {
			opp = u.match.players[1-u.seat]
		}
		idle := time.Since(u.idle)
		c.send(strings.TrimRight(fmt.Sprintf("%s %-20s %9.2f %5d %3d:%02d  %s", flag, u.name, u.own.Rating, u.own.Experience,
			int(idle.Minutes()), int(idle.Seconds())%60, opp), " "))
	}
	c.sendf("%d user%s logged in (P playing, R ready to play).", len(names), plural(len(names)))
}

func (s *Server) whoOf(u *client) fibs.Who {
	w := fibs.Who{Name: u.name, Ready: u.own.Ready, Rating: u.own.Rating, Experience: u.own.Experience,
		Idle: int(time.Since(u.idle).Seconds()), Login: u.login.Unix(), Host: u.host, Client: "-", Email: "-"}
	if u.match != nil {
		w.Opponent = u.match.players[1-u.seat]
	}
	w.Watching = u.watching
	return w
}

func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// logout removes a client; a match in progress is saved.
func (s *Server) logout(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.name == "" || s.users[c.name] != c {
		return
	}
	s.detachLocked(c, "drops connection")
	delete(s.users, c.name)
	for k := range s.invites {
		if k[0] == c.name || k[1] == c.name {
			delete(s.invites, k)
		}
	}
	for _, u := range s.users {
		if u.own.Notify {
			u.sendClip(fmt.Sprintf("8 %s %s drops connection.", c.name, c.name), c.name+" drops connection.")
		}
	}
	s.log.Printf("%s: logged out", c.label())
}

// detachLocked takes c out of its match, saving the match; the error says
// the save failed.
func (s *Server) detachLocked(c *client, how string) error {
	m := c.match
	if m == nil {
		return nil
	}
	saved := "The game was saved."
	err := s.saveLocked(m)
	if err != nil {
		saved = "The game could not be saved."
	} else {
		s.log.Printf("match %s-%s saved (%s %s)", m.players[0], m.players[1], c.name, how)
	}
	if o := m.conns[1-c.seat]; o != nil {
		o.sendf("%s %s. %s", c.name, how, saved)
		o.match, o.seat = nil, -1
	}
	m.conns = [2]*client{}
	c.match, c.seat = nil, -1
	return err
}

// saveLocked saves m if it changed since its last save; the players hear
// when saving starts failing and when it works again.
func (s *Server) saveLocked(m *match) error {
	if m == nil || m.done {
		return nil
	}
	p := m.progress()
	if p == m.savedAt && !m.saveFailing {
		return nil
	}
	if err := s.store.saveMatch(m.saved()); err != nil {
		s.log.Printf("%v", err)
		if !m.saveFailing {
			m.tell(0, saveFailedLine, saveFailedLine)
		}
		m.saveFailing = true
		return err
	}
	if m.saveFailing {
		m.tell(0, "** The match is saved again.", "** The match is saved again.")
	}
	m.savedAt, m.saveFailing = p, false
	return nil
}

const saveFailedLine = "** Warning: the server could not save this match. Play goes on, but what is not saved is lost if the server stops."

// listenTCP serves the telnet-style protocol on l until ctx ends. An
// accept error other than a closed listener (out of file descriptors, a
// connection reset before it was accepted) is waited out with a growing
// delay, as net/http does: returning would leave the port open with
// nobody answering.
func (s *Server) listenTCP(ctx context.Context, l net.Listener) {
	context.AfterFunc(ctx, func() { l.Close() })
	var delay time.Duration
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.noisy.Printf("accept: %v; trying again in %v", err, delay)
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return
			}
			continue
		}
		delay = 0
		addr := conn.RemoteAddr().String()
		if err := s.admit(hostOf(addr)); err != nil {
			s.noisy.Printf("%s: refused: %s", addr, strings.TrimPrefix(err.Error(), "** "))
			go refuse(conn, err.Error())
			continue
		}
		go s.serveConn(ctx, conn, addr)
	}
}

// refuse tells a connection why it is not served and closes it.
func refuse(conn net.Conn, why string) {
	conn.SetWriteDeadline(time.Now().Add(time.Second))
	io.WriteString(conn, why+"\r\n")
	conn.Close()
}

// serveWS serves WebSocket clients at /fibs on l until ctx ends.
func (s *Server) serveWS(ctx context.Context, l net.Listener) error {
	hs := s.httpServer(ctx)
	context.AfterFunc(ctx, func() { hs.Close() })
	if err := hs.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("WebSocket server: %w", err)
	}
	return nil
}

// httpServer serves /fibs with timeouts: a client that is slow to send
// its request, or keeps an idle connection open, is dropped.
func (s *Server) httpServer(ctx context.Context) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("/fibs", s.wsHandler(ctx))
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: s.cfg.HTTPIdle, MaxHeaderBytes: 16 << 10}
}

// wsHandler serves one line per WebSocket text frame, through the same
// session code as TCP. Only pages of the server's own origin, or of one
// in cfg.Origins, may open a WebSocket: otherwise any page could use its
// visitors' browsers to guess passwords or create accounts.
func (s *Server) wsHandler(ctx context.Context) http.Handler {
	up := websocket.Upgrader{CheckOrigin: s.originAllowed}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.originAllowed(r) {
			s.noisy.Printf("%s: WebSocket from origin %q refused", r.RemoteAddr, r.Header.Get("Origin"))
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		host := hostOf(r.RemoteAddr)
		if err := s.admit(host); err != nil {
			http.Error(w, strings.TrimPrefix(err.Error(), "** "), http.StatusServiceUnavailable)
			return
		}
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			s.mu.Lock()
			s.departLocked(host, true)
			s.mu.Unlock()
			return
		}
		ws.SetReadLimit(int64(s.cfg.MaxLine) * 4)
		s.serveConn(ctx, fibs.NewWSConn(ws), r.RemoteAddr)
	})
}

// originAllowed accepts a request without an Origin (not a browser), one
// from the server's own origin, and one from an origin in cfg.Origins.
func (s *Server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, o := range s.cfg.Origins {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	return false
}

// Run serves telnet-style clients on tcp and WebSocket clients at /fibs
// on ws (either may be nil) until ctx ends; then it saves every match in
// progress, tells the players, closes every connection and returns. The
// listeners are closed when it returns.
func (s *Server) Run(ctx context.Context, tcp, ws net.Listener) error {
	if tcp == nil && ws == nil {
		return errors.New("fibs server: no listener")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, 1)
	if tcp != nil {
		go s.listenTCP(ctx, tcp)
	}
	if ws != nil {
		go func() {
			if err := s.serveWS(ctx, ws); err != nil {
				errs <- err
				cancel()
			}
		}()
	}
	<-ctx.Done()
	s.shutdown()
	s.waitConns(5 * time.Second)
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// waitConns waits, at most for limit, until every connection has ended
// (after shutdown closed them): the caller may then close the store.
func (s *Server) waitConns(limit time.Duration) {
	timeout := time.NewTimer(limit)
	defer timeout.Stop()
	for {
		s.mu.Lock()
		n, departed := s.conns, s.departed
		s.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-departed:
		case <-timeout.C:
			s.log.Printf("stopping with connections still open after %v", limit)
			return
		}
	}
}

// shutdown saves every match in progress and closes every connection.
func (s *Server) shutdown() {
	s.mu.Lock()
	lost := map[*client]bool{} // players whose match could not be saved
	for _, c := range s.users {
		if m := c.match; m != nil {
			players := m.conns
			if s.detachLocked(c, "is disconnected by the server shutdown") != nil {
				lost[players[0]], lost[players[1]] = true, true
			}
		}
	}
	for _, c := range s.users {
		if lost[c] {
			c.send("** The server is shutting down. Your game could not be saved.")
		} else {
			c.send("** The server is shutting down. All running games are saved.")
		}
	}
	clients := make([]*client, 0, len(s.users))
	for _, c := range s.users {
		clients = append(clients, c)
	}
	s.mu.Unlock()
	// Let the writers send the goodbye, and what was queued before it, for
	// 2 s at most: closing first would let a writer see quit before its
	// queued lines.
	wait, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, c := range clients {
		c.finish()
	}
	for _, c := range clients {
		select {
		case <-c.wrote:
		case <-wait.Done():
		}
	}
	for _, c := range clients {
		c.close()
	}
}

// secureDie rolls one die from crypto/rand.
func secureDie() int {
	var b [1]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			panic(fmt.Sprintf("crypto/rand: %v", err))
		}
		if b[0] < 252 { // 252 = 6*42: no modulo bias
			return int(b[0]%6) + 1
		}
	}
}

// rateLog logs at most burst lines a second and says how many it left out.
type rateLog struct {
	log   *log.Logger
	burst int

	mu      sync.Mutex
	start   time.Time
	n, left int
}

func (r *rateLog) Printf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := time.Now(); now.Sub(r.start) >= time.Second {
		if r.left > 0 {
			r.log.Printf("(%d lines like these left out)", r.left)
		}
		r.start, r.n, r.left = now, 0, 0
	}
	if r.n >= r.burst {
		r.left++
		return
	}
	r.n++
	r.log.Printf(format, args...)
}
