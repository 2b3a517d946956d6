package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gamemill/gamemill/protocol/fibs"
)

// config holds the server's settings and limits.
type config struct {
	Records       string        // directory for finished matches (.mat)
	Register      bool          // a login with an unknown name creates the account
	MaxLine       int           // longest command line read
	LoginAttempts int           // failed logins per connection before it is closed
	AddrAttempts  int           // failed logins per address per AddrWindow
	AddrWindow    time.Duration //
	LoginIdle     time.Duration // an unauthenticated connection is closed after this
	MOTD          string
}

func (c *config) defaults() {
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
	if c.LoginIdle <= 0 {
		c.LoginIdle = time.Minute
	}
}

// server is a FIBS-style backgammon server. One mutex guards all of its
// state: users, invitations and matches; each connection's writes go
// through its own queue, so no write blocks under the lock.
type server struct {
	cfg   config
	store *store
	log   *log.Logger
	dice  func() int

	mu       sync.Mutex
	users    map[string]*client
	invites  map[[2]string]int // (from, to) -> length; -1 resumes the saved match
	failures map[string][]time.Time
	wg       sync.WaitGroup
}

func newServer(cfg config, st *store, logger *log.Logger, dice func() int) *server {
	cfg.defaults()
	return &server{cfg: cfg, store: st, log: logger, dice: dice,
		users: map[string]*client{}, invites: map[[2]string]int{}, failures: map[string][]time.Time{}}
}

// client is one connection, logged in or not.
type client struct {
	srv   *server
	conn  io.ReadWriteCloser
	addr  string
	out   chan string
	quit  chan struct{}
	once  sync.Once
	name  string // "" until logged in
	own   fibs.Own
	login time.Time
	idle  time.Time
	match *match
	seat  int
	// watching is the player this client watches: it gets the boards of
	// that player's match and may do nothing in it.
	watching string
}

// send queues lines for the client; a client too slow to take them is
// disconnected rather than allowed to hold the server up.
func (c *client) send(lines ...string) {
	for _, l := range lines {
		select {
		case c.out <- l:
		default:
			c.srv.log.Printf("%s: output queue full, disconnecting", c.label())
			c.close()
			return
		}
	}
}

func (c *client) sendf(format string, args ...any) { c.send(fmt.Sprintf(format, args...)) }

func (c *client) close() {
	c.once.Do(func() {
		close(c.quit)
		c.conn.Close()
	})
}

func (c *client) label() string {
	if c.name != "" {
		return c.name + "@" + c.addr
	}
	return c.addr
}

func (c *client) writer() {
	for {
		select {
		case l := <-c.out:
			if !strings.HasSuffix(l, ": ") { // prompts go without a line ending
				l += "\r\n"
			}
			if _, err := io.WriteString(c.conn, l); err != nil {
				c.close()
				return
			}
		case <-c.quit:
			return
		}
	}
}

// serveConn runs one connection to its end: the same code for TCP and
// WebSocket connections.
func (s *server) serveConn(ctx context.Context, conn io.ReadWriteCloser, addr string) {
	c := &client{srv: s, conn: conn, addr: addr, out: make(chan string, 1024), quit: make(chan struct{}), seat: -1,
		own: fibs.Own{AllowPip: true, Autoboard: true, Crawford: true, Double: true, Moreboards: true, Notify: true, Rating: 1500, Timezone: "UTC"}}
	go c.writer()
	defer c.close()
	stop := context.AfterFunc(ctx, c.close)
	defer stop()
	// Close the connection if it does not log in in time.
	loginTimer := time.AfterFunc(s.cfg.LoginIdle, func() {
		s.log.Printf("%s: no login after %v, closing", addr, s.cfg.LoginIdle)
		c.close()
	})
	defer loginTimer.Stop()
	c.send("FIBS-style backgammon server (gamemill fibsd)", "", "login: ")
	lr := fibs.NewLineReader(conn, s.cfg.MaxLine)
	failed := 0
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, fibs.ErrLineTooLong) {
			s.log.Printf("%s: line over %d bytes skipped", c.label(), s.cfg.MaxLine)
			if c.name != "" {
				c.sendf("** Line too long (at most %d characters).", s.cfg.MaxLine)
			}
			continue
		}
		if err != nil {
			break
		}
		line = strings.TrimSpace(line)
		if c.name == "" {
			if line == "" {
				continue
			}
			ok, bye := s.tryLogin(c, line)
			if ok {
				loginTimer.Stop()
				continue
			}
			failed++
			if bye || failed >= s.cfg.LoginAttempts {
				s.log.Printf("%s: %d failed logins, closing", addr, failed)
				c.send("** Too many failed logins.")
				break
			}
			c.send("", "login: ")
			continue
		}
		if s.command(c, line) {
			break
		}
	}
	s.logout(c)
	// Let the writer drain what is queued (a goodbye) before closing.
	time.Sleep(20 * time.Millisecond)
}

// tryLogin handles a line before login: "login CLIENT 1008 NAME PASSWORD"
// (a bare "NAME PASSWORD" pair is not accepted: clients use CLIP). It
// never logs the password.
func (s *server) tryLogin(c *client, line string) (ok, bye bool) {
	if s.addressBlocked(hostOf(c.addr)) {
		s.log.Printf("%s: too many failed logins from this address", c.addr)
		return false, true
	}
	f := strings.Fields(line)
	if len(f) != 5 || f[0] != "login" {
		s.log.Printf("%s: not a CLIP login line", c.addr)
		s.failure(hostOf(c.addr))
		return false, false
	}
	client, name, password := f[1], f[3], f[4]
	good, known, last, host, err := s.store.checkUser(name, password)
	if err != nil {
		s.log.Printf("%s: login %s: %v", c.addr, name, err)
		return false, false
	}
	if !known && s.cfg.Register && validName(name) {
		if err := s.store.addUser(name, password); err != nil {
			s.log.Printf("%s: register %s: %v", c.addr, name, err)
			return false, false
		}
		s.log.Printf("%s: registered %s", c.addr, name)
		good = true
	}
	if !good {
		s.log.Printf("%s: failed login as %q", c.addr, name)
		s.failure(hostOf(c.addr))
		return false, false
	}
	s.store.touchUser(name, c.addr)
	s.mu.Lock()
	if old := s.users[name]; old != nil {
		// A second login replaces the first, as on FIBS.
		old.send("** You are logged in again from another connection. Goodbye.")
		s.detachLocked(old, "logs in again")
		delete(s.users, name)
		go old.close()
	}
	c.name, c.login, c.idle = name, time.Now(), time.Now()
	c.own.Name = name
	s.users[name] = c
	s.log.Printf("%s: logged in (client %s)", c.label(), client)
	if host == "" {
		host = "-"
	}
	c.sendf("1 %s %d %s", name, last, host)
	c.send(c.own.String(), "3")
	for _, l := range strings.Split(s.cfg.MOTD, "\n") {
		c.send(l)
	}
	c.send("4")
	s.whoLocked(c)
	for _, u := range s.users {
		if u != c && u.own.Notify {
			u.sendf("7 %s %s logs in.", name, name)
		}
	}
	rows, _ := s.store.savedFor(name)
	s.mu.Unlock()
	if len(rows) > 0 {
		c.sendf("** You have %d saved match(es): type 'show saved'.", len(rows))
	}
	return true, false
}

func (s *server) failure(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[addr] = append(s.failures[addr], time.Now())
}

// addressBlocked reports whether addr failed too many logins recently.
func (s *server) addressBlocked(addr string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	cut := time.Now().Add(-s.cfg.AddrWindow)
	fs := s.failures[addr]
	for len(fs) > 0 && fs[0].Before(cut) {
		fs = fs[1:]
	}
	if len(fs) == 0 {
		delete(s.failures, addr)
	} else {
		s.failures[addr] = fs
	}
	return len(fs) >= s.cfg.AddrAttempts
}

func (s *server) whoLocked(c *client) {
	for _, u := range s.users {
		c.send(s.whoOf(u).String())
	}
	c.send("6")
}

func (s *server) whoOf(u *client) fibs.Who {
	w := fibs.Who{Name: u.name, Ready: u.own.Ready, Rating: u.own.Rating, Experience: u.own.Experience,
		Idle: int(time.Since(u.idle).Seconds()), Login: u.login.Unix(), Host: hostOf(u.addr), Client: "-", Email: "-"}
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
func (s *server) logout(c *client) {
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
			u.sendf("8 %s %s drops connection.", c.name, c.name)
		}
	}
	s.log.Printf("%s: logged out", c.label())
}

// detachLocked takes c out of its match, saving the match.
func (s *server) detachLocked(c *client, how string) {
	m := c.match
	if m == nil {
		return
	}
	if err := s.store.saveMatch(m.saved()); err != nil {
		s.log.Printf("save match %s-%s: %v", m.players[0], m.players[1], err)
	} else {
		s.log.Printf("match %s-%s saved (%s %s)", m.players[0], m.players[1], c.name, how)
	}
	if o := m.conns[1-c.seat]; o != nil {
		o.sendf("%s %s. The game was saved.", c.name, how)
		o.match, o.seat = nil, -1
	}
	c.match, c.seat = nil, -1
}

// listenTCP serves the telnet-style protocol on l until ctx ends.
func (s *server) listenTCP(ctx context.Context, l net.Listener) {
	context.AfterFunc(ctx, func() { l.Close() })
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() == nil {
				s.log.Printf("accept: %v", err)
			}
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(ctx, conn, conn.RemoteAddr().String())
		}()
	}
}

// wsHandler serves one line per WebSocket text frame, through the same
// session code as TCP.
func (s *server) wsHandler(ctx context.Context) http.Handler {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		ws.SetReadLimit(int64(s.cfg.MaxLine) * 4)
		s.wg.Add(1)
		defer s.wg.Done()
		s.serveConn(ctx, fibs.NewWSConn(ws), r.RemoteAddr)
	})
}

// shutdown saves every match in progress and closes every connection.
func (s *server) shutdown() {
	s.mu.Lock()
	for _, c := range s.users {
		if c.match != nil {
			s.detachLocked(c, "is disconnected by the server shutdown")
		}
		c.send("** The server is shutting down. All running games are saved.")
	}
	s.mu.Unlock()
	time.Sleep(50 * time.Millisecond)
	s.mu.Lock()
	for _, c := range s.users {
		c.close()
	}
	s.mu.Unlock()
}
