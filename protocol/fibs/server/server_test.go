package server

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/server/servertest"
)

type testServer struct {
	srv     *Server
	ctx     context.Context
	addr    string
	records string
	logs    *servertest.Log
}

// startServer runs a server on a loopback port with users a, b and c
// (passwords pa, pb, pc) and seeded dice, stopped when the test ends.
func startServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	dir := t.TempDir()
	st, err := OpenStore(filepath.Join(dir, "fibsd.db"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, u := range []string{"a", "b", "c"} {
		if err := st.AddUser(u, "p"+u); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.Records == "" {
		cfg.Records = filepath.Join(dir, "matches")
	}
	if cfg.Dice == nil {
		rng := rand.New(rand.NewPCG(7, 8))
		var dmu sync.Mutex
		cfg.Dice = func() int { dmu.Lock(); defer dmu.Unlock(); return rng.IntN(6) + 1 }
	}
	logs := &servertest.Log{}
	srv := New(cfg, st, log.New(logs, "", 0))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, l, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return &testServer{srv: srv, ctx: ctx, addr: l.Addr().String(), records: cfg.Records, logs: logs}
}

// Two people log in with a plain TCP client and play a whole 1-point
// match by typing FIBS commands; the server keeps it as a .mat that reads
// back.
func TestHumansPlayOnePointMatch(t *testing.T) {
	ts := startServer(t, Config{})
	a, b := servertest.Dial(t, ts.addr), servertest.Dial(t, ts.addr)
	a.Login("a")
	b.Login("b")
	servertest.Invite(a, b, 1)
	a.Until("Player b has joined you for a 1 point match.")
	ends := make(chan string, 2)
	go func() { ends <- a.Play() }()
	endB := b.Play()
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
	ts := startServer(t, Config{})
	a, b, c := servertest.Dial(t, ts.addr), servertest.Dial(t, ts.addr), servertest.Dial(t, ts.addr)
	a.Login("a")
	b.Login("b")
	c.Login("c")
	servertest.Invite(a, b, 3)
	a.Until("You rolled")
	first := a.Until("")
	// c is in no match: every game command is refused.
	for _, cmd := range []string{"move 8-4 6-4", "roll", "double", "accept", "reject", "resign n"} {
		c.Type(cmd)
		c.Until("** You're not playing.")
	}
	// The player not on turn cannot move, roll or double.
	mover, other := a, b
	if strings.HasPrefix(first, "b makes the first move") {
		mover, other = b, a
	}
	other.Type("move 24-18 13-11")
	other.Until("** It's not your turn to move.")
	other.Type("roll")
	other.Until("** It's not your turn to roll the dice.")
	// A spectator sees the boards and can do nothing in the match.
	c.Type("watch a")
	c.Until("You're now watching a.")
	c.Until("board:a:b:")
	for _, cmd := range []string{"move 8-4 6-4", "roll", "double", "accept", "reject"} {
		c.Type(cmd)
		c.Until("** You're not playing.")
	}
	// An illegal move is refused and the mover may try again.
	mover.Type("move 1-2")
	mover.Until("** You must give 2 moves.")
}

// Limits: login attempts per connection, idle unauthenticated
// connections, oversized lines.
func TestLoginLimits(t *testing.T) {
	ts := startServer(t, Config{LoginAttempts: 2, LoginIdle: 300 * time.Millisecond, AddrAttempts: 100})
	h := servertest.Dial(t, ts.addr)
	h.Until("login: ")
	h.Type(fibs.LoginCommand("x", "a", "wrong"))
	h.Until("login: ")
	h.Type(fibs.LoginCommand("x", "a", "wrong again"))
	h.Until("Too many failed logins")
	if _, err := h.R.ReadString('\n'); err == nil {
		t.Fatal("connection still open after too many failed logins")
	}
	if strings.Contains(ts.logs.String(), "wrong") {
		t.Fatalf("the log shows a password: %s", ts.logs.String())
	}
	// Idle before login: closed.
	idle := servertest.Dial(t, ts.addr)
	idle.Until("login: ")
	idle.Conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := idle.R.ReadString('\n'); err == nil || isTimeout(err) {
		t.Fatalf("idle connection not closed: %v", err)
	}
	// An oversized line is skipped; the connection goes on.
	u := servertest.Dial(t, ts.addr)
	u.Login("a")
	u.Type(strings.Repeat("x", 5000))
	u.Until("** Line too long")
	u.Type("show saved")
	u.Until("no saved games.")
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// Per address: after AddrAttempts failures within the window, even a right
// password is refused from that address.
func TestAddressLimit(t *testing.T) {
	ts := startServer(t, Config{LoginAttempts: 1, AddrAttempts: 3})
	for i := 0; i < 3; i++ {
		h := servertest.Dial(t, ts.addr)
		h.Until("login: ")
		h.Type(fibs.LoginCommand("x", "a", fmt.Sprintf("bad%d", i)))
		h.Until("Too many failed logins")
	}
	h := servertest.Dial(t, ts.addr)
	h.Until("login: ")
	h.Type(fibs.LoginCommand("x", "a", "pa"))
	h.Until("Too many failed logins")
}

// A match dropped mid-game is saved; the players resume it with invite
// and join, and the position goes on from where it stopped.
func TestSaveAndResume(t *testing.T) {
	ts := startServer(t, Config{})
	a, b := servertest.Dial(t, ts.addr), servertest.Dial(t, ts.addr)
	a.Login("a")
	b.Login("b")
	servertest.Invite(a, b, 5)
	boardA := a.Until("board:")
	a.Conn.Close()
	b.Until("a drops connection. The game was saved.")
	b.Type("show saved")
	b.Until("opponent")
	row := b.Until(" a ")
	if m := fibs.Parse(row); m.Kind != fibs.SavedMatch || m.N != 5 {
		t.Fatalf("saved row %q parses as %+v", row, m)
	}
	a2 := servertest.Dial(t, ts.addr)
	a2.Login("a")
	a2.Type("invite b")
	b.Until("a wants to resume a saved match with you.")
	b.Type("join a")
	b.Until("You are now playing with a. Your running match was loaded.")
	a2.Until("b has joined you. Your running match was loaded.")
	again := a2.Until("board:")
	pa, _ := fibsboard.Parse(boardA)
	pb, _ := fibsboard.Parse(again)
	if pa.Points != pb.Points {
		t.Fatalf("resumed at another position:\n%s\n%s", boardA, again)
	}
}
