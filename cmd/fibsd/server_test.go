package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/protocol/fibs"
)

type testServer struct {
	srv     *server
	ctx     context.Context
	addr    string
	records string
	logs    *syncBuf
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// startServer runs a server on a loopback port with users a, b and c
// (passwords pa, pb, pc) and seeded dice.
func startServer(t *testing.T, cfg config) *testServer {
	t.Helper()
	dir := t.TempDir()
	st, err := openStore(filepath.Join(dir, "fibsd.db"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, u := range []string{"a", "b", "c"} {
		if err := st.addUser(u, "p"+u); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.Records == "" {
		cfg.Records = filepath.Join(dir, "matches")
	}
	logs := &syncBuf{}
	rng := rand.New(rand.NewPCG(7, 8))
	var dmu sync.Mutex
	dice := func() int { dmu.Lock(); defer dmu.Unlock(); return rng.IntN(6) + 1 }
	srv := newServer(cfg, st, log.New(logs, "", 0), dice)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go srv.listenTCP(ctx, l)
	t.Cleanup(func() { cancel(); srv.shutdown() })
	return &testServer{srv: srv, ctx: ctx, addr: l.Addr().String(), records: cfg.Records, logs: logs}
}

// human is a person at a telnet prompt: plain lines over TCP.
type human struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	name string
	seen []string
}

func dialHuman(t *testing.T, addr string) *human {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &human{t: t, conn: c, r: bufio.NewReader(c)}
}

func (h *human) type_(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.conn, line+"\r\n"); err != nil {
		h.t.Fatalf("%s types %q: %v", h.name, line, err)
	}
}

// until reads lines until one contains want; it returns that line.
func (h *human) until(want string) string {
	h.t.Helper()
	h.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var buf []byte
	for {
		b, err := h.r.ReadByte()
		if err != nil {
			h.t.Fatalf("%s waiting for %q: %v (last lines %q)", h.name, want, err, tail(h.seen))
		}
		buf = append(buf, b)
		line := string(buf)
		if b == '\n' || line == "login: " {
			line = strings.TrimRight(line, "\r\n")
			buf = buf[:0]
			h.seen = append(h.seen, line)
			if strings.Contains(line, want) {
				return line
			}
		}
	}
}

func tail(s []string) []string {
	if len(s) > 8 {
		return s[len(s)-8:]
	}
	return s
}

func (h *human) login(name string) {
	h.t.Helper()
	h.name = name
	h.until("login: ")
	h.type_(fibs.LoginCommand("telnet", name, "p"+name))
	h.until("1 " + name + " ")
	h.until("6") // end of the who list
}

// play answers prompts as a person would, choosing the first legal move
// from the last board, until the match ends; it returns the match-end line.
func (h *human) play() string {
	h.t.Helper()
	return h.playUntil(fibs.WinsMatch)
}

// playUntil plays as play does until a line of one of the kinds comes;
// it returns that line unanswered.
func (h *human) playUntil(stop ...fibs.Kind) string {
	h.t.Helper()
	var board string
	for {
		line := h.until("")
		m := fibs.Parse(line)
		if slices.Contains(stop, m.Kind) {
			return line
		}
		switch m.Kind {
		case fibs.Board:
			board = line
		case fibs.PleaseMove:
			b, err := fibsboard.Parse(board)
			if err != nil {
				h.t.Fatal(err)
			}
			st, _, err := b.ToState(bg.Rules{Cube: true})
			if err != nil {
				h.t.Fatalf("%s: board %q: %v", h.name, board, err)
			}
			legal := st.LegalMoves()
			h.type_(fibs.MoveCommand(fibs.FromMove(legal[0], b.Direction)))
		case fibs.RollOrDouble:
			h.type_("roll")
		case fibs.JoinNextGame:
			h.type_("join")
		case fibs.Doubles:
			if m.Name != fibs.You {
				h.type_("accept")
			}
		case fibs.Error:
			h.t.Fatalf("%s got an error: %q", h.name, line)
		}
	}
}

// Two people log in with a plain TCP client and play a whole 1-point
// match by typing FIBS commands; the server keeps it as a .mat that reads
// back.
func TestHumansPlayOnePointMatch(t *testing.T) {
	ts := startServer(t, config{})
	a, b := dialHuman(t, ts.addr), dialHuman(t, ts.addr)
	a.login("a")
	b.login("b")
	b.type_("toggle ready")
	b.until("ready to invite")
	a.type_("toggle ready")
	a.until("ready to invite")
	a.type_("invite b 1")
	a.until("You invited b to a 1 point match.")
	b.until("a wants to play a 1 point match with you.")
	b.type_("join a")
	b.until("You are now playing a 1 point match with a")
	a.until("Player b has joined you for a 1 point match.")
	ends := make(chan string, 2)
	go func() { ends <- a.play() }()
	endB := b.play()
	endA := <-ends
	if !strings.Contains(endA, "1 point match 1-0") || !strings.Contains(endB, "1 point match 1-0") {
		t.Fatalf("match ends: %q / %q", endA, endB)
	}
	waitFor(t, func() bool { files, _ := filepath.Glob(filepath.Join(ts.records, "*.mat")); return len(files) == 1 })
	files, _ := filepath.Glob(filepath.Join(ts.records, "*.mat"))
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := mat.Read(f)
	if err != nil {
		t.Fatalf("read %s: %v", files[0], err)
	}
	if rec.MatchLength != 1 || len(rec.Games) != 1 || !rec.Games[0].Finished() {
		t.Fatalf("record: length %d, %d games", rec.MatchLength, len(rec.Games))
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if ok() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("condition not reached in 4 s")
}

// Security: a player acts only in their own match, and only when the
// decision is theirs; someone outside it cannot move at all.
func TestNobodyMovesInAnothersMatch(t *testing.T) {
	ts := startServer(t, config{})
	a, b, c := dialHuman(t, ts.addr), dialHuman(t, ts.addr), dialHuman(t, ts.addr)
	a.login("a")
	b.login("b")
	c.login("c")
	b.type_("toggle ready")
	b.until("ready")
	a.type_("invite b 3")
	b.until("Type 'join a' to accept.")
	b.type_("join a")
	a.until("You rolled")
	first := a.until("")
	// c is in no match: every game command is refused.
	for _, cmd := range []string{"move 8-4 6-4", "roll", "double", "accept", "reject", "resign n"} {
		c.type_(cmd)
		c.until("** You're not playing.")
	}
	// The player not on turn cannot move, roll or double.
	mover, other := a, b
	if strings.HasPrefix(first, "b makes the first move") {
		mover, other = b, a
	}
	other.type_("move 24-18 13-11")
	other.until("** It's not your turn to move.")
	other.type_("roll")
	other.until("** It's not your turn to roll the dice.")
	// A spectator sees the boards and can do nothing in the match.
	c.type_("watch a")
	c.until("You're now watching a.")
	c.until("board:a:b:")
	for _, cmd := range []string{"move 8-4 6-4", "roll", "double", "accept", "reject"} {
		c.type_(cmd)
		c.until("** You're not playing.")
	}
	// An illegal move is refused and the mover may try again.
	mover.type_("move 1-2")
	mover.until("** You can't move 1-2")
}

// Limits: login attempts per connection, idle unauthenticated
// connections, oversized lines.
func TestLoginLimits(t *testing.T) {
	ts := startServer(t, config{LoginAttempts: 2, LoginIdle: 300 * time.Millisecond, AddrAttempts: 100})
	h := dialHuman(t, ts.addr)
	h.until("login: ")
	h.type_(fibs.LoginCommand("x", "a", "wrong"))
	h.until("login: ")
	h.type_(fibs.LoginCommand("x", "a", "wrong again"))
	h.until("Too many failed logins")
	if _, err := h.r.ReadString('\n'); err == nil {
		t.Fatal("connection still open after too many failed logins")
	}
	if strings.Contains(ts.logs.String(), "wrong") {
		t.Fatalf("the log shows a password: %s", ts.logs.String())
	}
	// Idle before login: closed.
	idle := dialHuman(t, ts.addr)
	idle.until("login: ")
	idle.conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := idle.r.ReadString('\n'); err == nil || isTimeout(err) {
		t.Fatalf("idle connection not closed: %v", err)
	}
	// An oversized line is skipped; the connection goes on.
	u := dialHuman(t, ts.addr)
	u.login("a")
	u.type_(strings.Repeat("x", 5000))
	u.until("** Line too long")
	u.type_("show saved")
	u.until("no saved games.")
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// Per address: after AddrAttempts failures within the window, even a right
// password is refused from that address.
func TestAddressLimit(t *testing.T) {
	ts := startServer(t, config{LoginAttempts: 1, AddrAttempts: 3})
	for i := 0; i < 3; i++ {
		h := dialHuman(t, ts.addr)
		h.until("login: ")
		h.type_(fibs.LoginCommand("x", "a", fmt.Sprintf("bad%d", i)))
		h.until("Too many failed logins")
	}
	h := dialHuman(t, ts.addr)
	h.until("login: ")
	h.type_(fibs.LoginCommand("x", "a", "pa"))
	h.until("Too many failed logins")
}

// A match dropped mid-game is saved; the players resume it with invite
// and join, and the position goes on from where it stopped.
func TestSaveAndResume(t *testing.T) {
	ts := startServer(t, config{})
	a, b := dialHuman(t, ts.addr), dialHuman(t, ts.addr)
	a.login("a")
	b.login("b")
	b.type_("toggle ready")
	b.until("ready")
	a.type_("invite b 5")
	b.until("Type 'join a' to accept.")
	b.type_("join a")
	boardA := a.until("board:")
	a.conn.Close()
	b.until("a drops connection. The game was saved.")
	b.type_("show saved")
	b.until("opponent")
	row := b.until(" a ")
	if m := fibs.Parse(row); m.Kind != fibs.SavedMatch || m.N != 5 {
		t.Fatalf("saved row %q parses as %+v", row, m)
	}
	a2 := dialHuman(t, ts.addr)
	a2.login("a")
	a2.type_("invite b")
	b.until("a wants to resume a saved match with you.")
	b.type_("join a")
	b.until("You are now playing with a. Your running match was loaded.")
	a2.until("b has joined you. Your running match was loaded.")
	again := a2.until("board:")
	pa, _ := fibsboard.Parse(boardA)
	pb, _ := fibsboard.Parse(again)
	if pa.Points != pb.Points {
		t.Fatalf("resumed at another position:\n%s\n%s", boardA, again)
	}
}
