package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
	"golang.org/x/crypto/bcrypt"

	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/server/servertest"
)

// startWS serves ts's server over WebSocket as well; it returns the
// listener's address.
func startWS(t *testing.T, ts *testServer) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ts.srv.serveWS(ts.ctx, l)
	t.Cleanup(func() { l.Close() })
	return l.Addr().String()
}

// wsPlayer is a browser-like client: one line per WebSocket text frame.
type wsPlayer struct {
	t  *testing.T
	ws *websocket.Conn
}

func dialWS(t *testing.T, addr string, d *websocket.Dialer, origin string) (*wsPlayer, error) {
	t.Helper()
	if d == nil {
		d = websocket.DefaultDialer
	}
	var h http.Header
	if origin != "" {
		h = http.Header{"Origin": {origin}}
	}
	ws, resp, err := d.Dial("ws://"+addr+"/fibs", h)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("%w (HTTP %d)", err, resp.StatusCode)
		}
		return nil, err
	}
	t.Cleanup(func() { ws.Close() })
	return &wsPlayer{t: t, ws: ws}, nil
}

func (p *wsPlayer) say(line string) {
	p.t.Helper()
	if err := p.ws.WriteMessage(websocket.TextMessage, []byte(line)); err != nil {
		p.t.Fatalf("send %q: %v", line, err)
	}
}

// read reads frames until one contains want (exact: equals it).
func (p *wsPlayer) read(want string, exact bool) string {
	p.t.Helper()
	p.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := p.ws.ReadMessage()
		if err != nil {
			p.t.Fatalf("waiting for %q: %v", want, err)
		}
		line := string(data)
		if line == want || !exact && strings.Contains(line, want) {
			return line
		}
	}
}

func (p *wsPlayer) Login(name string) {
	p.t.Helper()
	p.read("login: ", true)
	p.say(fibs.LoginCommand("web", name, "p"+name))
	p.read("1 "+name+" ", false)
	p.read("6", true)
}

// oneConnListener hands out one connection, then waits to be closed.
type oneConnListener struct {
	conn chan net.Conn
	done chan struct{}
	once sync.Once
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conn:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *oneConnListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *oneConnListener) Addr() net.Addr { return &net.UnixAddr{Name: "pipe", Net: "pipe"} }

// dialPipeWS connects a WebSocket client to the server's HTTP handler over
// net.Pipe. A pipe holds nothing: once the client stops reading, the
// server's next write blocks for certain.
func dialPipeWS(t *testing.T, ts *testServer) *wsPlayer {
	t.Helper()
	local, remote := net.Pipe()
	l := &oneConnListener{conn: make(chan net.Conn, 1), done: make(chan struct{})}
	l.conn <- remote
	hs := ts.srv.httpServer(ts.ctx)
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	d := &websocket.Dialer{NetDialContext: func(context.Context, string, string) (net.Conn, error) { return local, nil }}
	p, err := dialWS(t, "pipe", d, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Finding 1: a logged-in WebSocket client floods lines answered to itself
// and never reads. The server drops it; a bystander's commands keep being
// answered during the attack, and shutdown completes. The attacker comes
// over a pipe, so its writer on the server is blocked for certain when its
// queue overflows (over a socket that depends on the kernel's buffers).
func TestStalledWebSocketReaderDoesNotFreezeServer(t *testing.T) {
	ts := startServer(t, Config{})
	stalledReaderAttack(t, ts, dialPipeWS(t, ts))
}

func stalledReaderAttack(t *testing.T, ts *testServer, attacker *wsPlayer) {
	attacker.Login("c")
	bystander := servertest.Dial(t, ts.addr)
	bystander.Login("a")

	const lines = 30000
	flood := []byte("toggle " + strings.Repeat("A", 400))
	sent := make(chan int, 1)
	go func() {
		n := 0
		for ; n < lines; n++ {
			attacker.ws.SetWriteDeadline(time.Now().Add(20 * time.Second))
			if attacker.ws.WriteMessage(websocket.TextMessage, flood) != nil {
				break
			}
		}
		sent <- n
	}()
	var worst, total time.Duration
	whos, n := 0, -1
	for n < 0 {
		start := time.Now()
		bystander.Type("who")
		bystander.UntilLine("6")
		took := time.Since(start)
		worst, total, whos = max(worst, took), total+took, whos+1
		select {
		case n = <-sent:
		default:
		}
	}
	if n == lines || !strings.Contains(ts.logs.String(), "output queue full, disconnecting") {
		t.Fatalf("the server took %d flood lines without dropping the client that reads none:\n%s", n, ts.logs.String())
	}
	t.Logf("attack: %d flood lines sent before the server dropped the attacker; bystander's who answered %d times during it, mean %v, slowest %v",
		n, whos, total/time.Duration(whos), worst)
	bystander.Type("who")
	bystander.UntilLine("6")
	done := make(chan struct{})
	go func() { ts.srv.shutdown(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("shutdown still waiting after 10 s")
	}
}

// Finding 4: connections from one address that send a wrong password at
// the same moment get no more password checks than the address limit.
func TestConcurrentLoginsCheckedWithinAddressLimit(t *testing.T) {
	const limit, conns = 5, 40
	ts := startServer(t, Config{LoginAttempts: 1, AddrAttempts: limit, AddrConns: conns})
	var checks atomic.Int64
	ts.srv.store.compare = func(hash, password []byte) error {
		checks.Add(1)
		// A costly hash: every connection's line arrives while the first
		// checks still run.
		time.Sleep(20 * time.Millisecond)
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	hs := make([]*servertest.Human, conns)
	for i := range hs {
		hs[i] = servertest.Dial(t, ts.addr)
		hs[i].Until("login: ")
	}
	var wg sync.WaitGroup
	for i, h := range hs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			io.WriteString(h.Conn, fibs.LoginCommand("x", "a", fmt.Sprintf("guess%d", i))+"\r\n")
		}()
	}
	wg.Wait()
	for _, h := range hs {
		h.Until("Too many failed logins")
	}
	got := checks.Load()
	t.Logf("%d connections from one address sent a wrong password at once: %d passwords checked (limit %d per window)", conns, got, limit)
	if got > limit {
		t.Fatalf("%d passwords checked, limit %d", got, limit)
	}
}

// Finding 4: one address may hold only so many connections that have not
// logged in; a connection that logs in frees its place.
func TestUnauthenticatedConnectionsCappedPerAddress(t *testing.T) {
	ts := startServer(t, Config{AddrConns: 3})
	var hs []*servertest.Human
	for range 3 {
		h := servertest.Dial(t, ts.addr)
		h.Until("login: ")
		hs = append(hs, h)
	}
	extra := servertest.Dial(t, ts.addr)
	extra.Until("** Too many connections from your address are not logged in.")
	hs[0].Type(fibs.LoginCommand("x", "a", "pa"))
	hs[0].Until("1 a ")
	again := servertest.Dial(t, ts.addr)
	again.Until("login: ")
}

// Finding 5: connections beyond --max-conns are told and closed.
func TestServerFullRefused(t *testing.T) {
	ts := startServer(t, Config{MaxConns: 2})
	for range 2 {
		servertest.Dial(t, ts.addr).Until("login: ")
	}
	servertest.Dial(t, ts.addr).Until("** The server is full. Please try again later.")
}

// flakyListener fails its first Accept as a process out of file
// descriptors does.
type flakyListener struct {
	net.Listener
	failed atomic.Bool
}

func (l *flakyListener) Accept() (net.Conn, error) {
	if !l.failed.Swap(true) {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: syscall.EMFILE}
	}
	return l.Listener.Accept()
}

// Finding 5: an accept error does not stop the listener for good.
func TestAcceptErrorIsRetried(t *testing.T) {
	ts := startServer(t, Config{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ts.srv.listenTCP(ts.ctx, &flakyListener{Listener: l})
	h := servertest.Dial(t, l.Addr().String())
	h.Until("login: ")
	if !strings.Contains(ts.logs.String(), "too many open files") {
		t.Fatalf("the accept error was not logged: %s", ts.logs.String())
	}
}

// Finding 5: an idle keep-alive connection on the WebSocket port (here
// after a 404) is closed.
func TestIdleHTTPConnectionClosed(t *testing.T) {
	ts := startServer(t, Config{HTTPIdle: 100 * time.Millisecond})
	addr := startWS(t, ts)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /nothing HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || resp.Close {
		t.Fatalf("status %d, close %v: want a 404 on a kept-alive connection", resp.StatusCode, resp.Close)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("idle keep-alive connection: %v, want it closed by the server", err)
	}
}

// startPlaying logs a and b in and starts a match of length between them;
// it returns the player who moves first and the other.
func startPlaying(t *testing.T, ts *testServer, length int) (a, b, mover, other *servertest.Human) {
	t.Helper()
	a, b = servertest.Dial(t, ts.addr), servertest.Dial(t, ts.addr)
	a.Login("a")
	b.Login("b")
	servertest.Invite(a, b, length)
	a.Until("You rolled")
	mover, other = a, b
	if strings.HasPrefix(a.Until(""), "b makes the first move") {
		mover, other = b, a
	}
	return a, b, mover, other
}

func savedRecord(t *testing.T, st *Store) string {
	t.Helper()
	var rec string
	if err := st.db.QueryRow(`SELECT record FROM saved WHERE a = 'a' AND b = 'b'`).Scan(&rec); err != nil {
		t.Fatalf("saved match a-b: %v", err)
	}
	return rec
}

// Finding 6: when a save fails the players are told so (during play and
// when one leaves), and the previous save stays as it was.
func TestFailedSaveIsReportedAndKeepsPreviousSave(t *testing.T) {
	ts := startServer(t, Config{})
	a, b, mover, other := startPlaying(t, ts, 5)
	other.Until("board:") // sent after the opening roll was saved
	before := savedRecord(t, ts.srv.store)
	// The disk is full from now on, as far as saved matches go.
	if _, err := ts.srv.store.db.Exec(`CREATE TRIGGER full BEFORE INSERT ON saved BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	mover.FirstMove()
	mover.Until("could not save this match")
	other.Until("could not save this match")
	a.Conn.Close()
	if line := b.Until("a drops connection."); line != "a drops connection. The game could not be saved." {
		t.Fatalf("after a failed save b was told %q", line)
	}
	if after := savedRecord(t, ts.srv.store); after != before {
		t.Fatalf("the failed save changed the saved match:\n%s\n%s", before, after)
	}
}

// Finding 7: an invitation to a new match warns the invitee of their
// saved match with the inviter, which stays until the invitee joins.
func TestNewInvitationWarnsInviteeOfSavedMatch(t *testing.T) {
	ts := startServer(t, Config{})
	a, b, _, _ := startPlaying(t, ts, 5)
	b.Until("board:")
	a.Conn.Close()
	b.Until("a drops connection. The game was saved.")
	a = servertest.Dial(t, ts.addr)
	a.Login("a")
	a.Type("invite b 3")
	b.Seen = nil
	b.Until("Type 'join a' to accept.")
	warned := false
	for _, l := range b.Seen {
		warned = warned || l == "** WARNING: Don't accept if you want to continue your saved match with a!"
	}
	if !warned {
		t.Fatalf("b was invited to a new match without a warning about the saved one: %q", b.Seen)
	}
	b.Type("show saved")
	b.Until("opponent")
	if row := fibs.Parse(b.Until("")); row.Kind != fibs.SavedMatch || row.N != 5 {
		t.Fatalf("saved match before joining: %+v", row)
	}
	b.Type("join a")
	b.Until("You are now playing a 3 point match with a")
	b.Until("board:")
	sv, err := ts.srv.store.loadSaved("a", "b")
	if err != nil || sv == nil || sv.rec.MatchLength != 3 {
		t.Fatalf("after joining, the saved match is %+v (%v), want the new 3-point match", sv, err)
	}
}

// Findings 13 and 17: names are unique ignoring case and look-alike
// letters; reserved words in any case and names that are not a letter
// then letters, digits or _ are refused.
func TestAccountNames(t *testing.T) {
	st, err := OpenStore(filepath.Join(t.TempDir(), "fibsd.db"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, name := range []string{"alice", "bob_2", "O0"} {
		if err := st.AddUser(name, "pw"); err != nil {
			t.Fatalf("add %s: %v", name, err)
		}
	}
	for _, name := range []string{"Alice", "ALICE", "aIice", "a1ice", "ALlCE", "Bob_2", "oo", "Oo"} {
		if err := st.AddUser(name, "pw"); !errors.Is(err, ErrUserExists) {
			t.Errorf("add %s beside alice, bob_2 and O0: %v, want it refused as taken", name, err)
		}
	}
	for _, name := range []string{"You", "you", "YOU", "yOu", "12", "7", "_x", "1abc", "", "a-b", "abcdefghijklmnopqrstu"} {
		if err := st.AddUser(name, "pw"); err == nil || errors.Is(err, ErrUserExists) {
			t.Errorf("add %q: %v, want the name refused", name, err)
		}
	}
}

// Finding 13: --register creates at most AddrRegs accounts per address
// and refuses a name like a taken one.
func TestRegistrationLimits(t *testing.T) {
	ts := startServer(t, Config{Register: true, AddrRegs: 2, AddrAttempts: 100})
	try := func(name string) *servertest.Human {
		h := servertest.Dial(t, ts.addr)
		h.Until("login: ")
		h.Type(fibs.LoginCommand("x", name, "secret"))
		return h
	}
	try("alice").Until("1 alice ")
	try("ALICE").Until("** The name ALICE is taken (or too like a taken one).")
	try("bob").Until("** Too many new accounts from your address. Please try again later.")
	try("12").Until("** 12: a name begins with a letter.")
	if _, known, _, _, _ := ts.srv.store.checkUser("12", "secret"); known {
		t.Fatal("an all-digit name was registered")
	}
}

// Finding 14: chat text reaches the peer without control characters and
// as valid UTF-8, even over WebSocket.
func TestChatTextCleaned(t *testing.T) {
	ts := startServer(t, Config{})
	addr := startWS(t, ts)
	a, err := dialWS(t, addr, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := dialWS(t, addr, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	a.Login("a")
	b.Login("b")
	a.say("tell b hi\xff\xfe there\x1b[2K\r12 server fake\x00\x9b end")
	got := b.read("12 a ", false)
	if !utf8.ValidString(got) {
		t.Fatalf("b got invalid UTF-8: %q", got)
	}
	for _, r := range got {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Fatalf("b got a control character %U: %q", r, got)
		}
	}
	if want := "12 a hi\uFFFD there[2K12 server fake\uFFFD end"; got != want {
		t.Fatalf("b got %q, want %q", got, want)
	}
}

func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"", "hello", "a\x1b[2Kb", "\xff\xfe", "x\x00y", "\u009b1m", "tab\there", "é ü 😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := cleanText(s)
		if !utf8.ValidString(got) {
			t.Fatalf("cleanText(%q) = %q: invalid UTF-8", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
				t.Fatalf("cleanText(%q) = %q: control %U", s, got, r)
			}
		}
		if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f }) && got != s {
			t.Fatalf("cleanText changed clean text %q to %q", s, got)
		}
	})
}

// Finding 15: a WebSocket from a foreign web page is refused; the
// server's own origin and a listed one are accepted.
func TestWebSocketOrigin(t *testing.T) {
	ts := startServer(t, Config{Origins: []string{"https://play.example.org"}})
	addr := startWS(t, ts)
	if _, err := dialWS(t, addr, nil, "https://evil.example.com"); err == nil || !strings.Contains(err.Error(), "HTTP 403") {
		t.Fatalf("foreign origin: %v, want HTTP 403", err)
	}
	for _, origin := range []string{"", "http://" + addr, "https://play.example.org"} {
		p, err := dialWS(t, addr, nil, origin)
		if err != nil {
			t.Fatalf("origin %q: %v", origin, err)
		}
		p.read("login: ", true)
	}
}

// Finding 16: an unknown name is checked against a hash of the stored
// hashes' cost, not of --bcrypt-cost.
func TestDummyHashUsesStoredCost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fibsd.db")
	st, err := OpenStore(path, bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if cost, _ := bcrypt.Cost(st.dummy); cost != bcrypt.MinCost {
		t.Fatalf("empty database: dummy cost %d, want the configured %d", cost, bcrypt.MinCost)
	}
	for _, u := range []string{"a", "b"} {
		if err := st.AddUser(u, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	st, err = OpenStore(path, bcrypt.MinCost+2)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if cost, _ := bcrypt.Cost(st.dummy); cost != bcrypt.MinCost {
		t.Fatalf("dummy hash cost %d, stored hashes' cost %d", cost, bcrypt.MinCost)
	}
}

// Finding 19: over-long lines before login count as failed attempts (the
// connection is dropped) and are not each logged.
func TestOverlongLinesBeforeLogin(t *testing.T) {
	ts := startServer(t, Config{MaxLine: 512})
	h := servertest.Dial(t, ts.addr)
	h.Until("login: ")
	long := strings.Repeat("x", 600) + "\r\n"
	go func() {
		for range 20000 {
			if _, err := io.WriteString(h.Conn, long); err != nil {
				return
			}
		}
	}()
	h.Until("** Too many failed logins.")
	h.Conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, h.R); err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("connection not dropped: %v", err)
	}
	logged := strings.Count(ts.logs.String(), "\n")
	t.Logf("20,000 over-long lines: %d log lines", logged)
	if logged > 10 {
		t.Fatalf("%d log lines:\n%s", logged, ts.logs.String())
	}
}

// Finding 1: a TCP-style connection whose peer stops reading is dropped
// once a write has waited cfg.WriteTimeout, even with its queue far from
// full. The peer is a pipe that never reads: the banner's write blocks.
func TestWriteTimeoutDropsStalledReader(t *testing.T) {
	ts := startServer(t, Config{WriteTimeout: 100 * time.Millisecond})
	peer, conn := net.Pipe()
	defer peer.Close()
	if err := ts.srv.admit("10.0.0.9"); err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() { ts.srv.serveConn(ts.ctx, conn, "10.0.0.9:4000"); close(served) }()
	waitFor(t, func() bool { return strings.Contains(ts.logs.String(), "10.0.0.9:4000: write:") })
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("the connection is still served 10 s after its write timed out")
	}
}
