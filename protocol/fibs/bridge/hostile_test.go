package bridge

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/internal/syncbuf"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// scriptServer is a FIBS server played by the test: it listens on
// 127.0.0.1 and hands each connection to the test goroutine, which
// writes the server's lines and checks the bridge's commands.
type scriptServer struct {
	l     net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newScriptServer(t *testing.T) *scriptServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptServer{l: l}
	t.Cleanup(func() {
		l.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			c.Close()
		}
	})
	return s
}

func (s *scriptServer) url() string { return "tcp://" + s.l.Addr().String() }

// accept waits for the bridge's next connection.
func (s *scriptServer) accept(t *testing.T) *scriptConn {
	t.Helper()
	s.l.(*net.TCPListener).SetDeadline(time.Now().Add(20 * time.Second))
	c, err := s.l.Accept()
	if err != nil {
		t.Fatalf("no connection from the bridge: %v", err)
	}
	s.mu.Lock()
	s.conns = append(s.conns, c)
	s.mu.Unlock()
	return &scriptConn{t: t, c: c, r: bufio.NewReader(c)}
}

type scriptConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func (c *scriptConn) send(lines ...string) {
	c.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.c, l+"\r\n"); err != nil {
			c.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// next reads the bridge's next command.
func (c *scriptConn) next() string {
	c.t.Helper()
	c.c.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := c.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("reading the bridge's next command: %v", err)
	}
	return strings.TrimRight(line, "\r\n")
}

func (c *scriptConn) expect(want string) {
	c.t.Helper()
	if got := c.next(); got != want {
		c.t.Fatalf("the bridge sent %q, want %q", got, want)
	}
}

// welcome plays a server's side of the login, up to the answer to the
// bridge's boardstyle: the own info has every toggle the bridge wants on.
func (c *scriptConn) welcome() {
	c.t.Helper()
	io.WriteString(c.c, "login: ")
	c.expect("login test 1008 bot pw")
	c.send("1 bot 1041253132 host", "2 bot 1 1 0 0 0 0 1 1 10 0 0 0 1 1500.00 0 1 0 0 0 UTC", "3", "4")
	c.expect("set boardstyle 3")
	c.send("Value of 'boardstyle' set to 3.")
}

// login plays the whole login: welcome, then a who list of the names.
func (c *scriptConn) login(online ...string) {
	c.t.Helper()
	c.welcome()
	for _, name := range online {
		c.send(fibs.Who{Name: name, Ready: true, Rating: 1500, Login: 1041253132, Host: "host"}.String())
	}
	c.send("6")
}

// testBridge is a bridge user "bot" driving bgbot in-process, with its
// state file in a fresh directory and a log the test can read.
func testBridge(t *testing.T, server string, set func(o *Options)) (*Bridge, *syncbuf.Buffer) {
	t.Helper()
	return testBridgeEngine(t, server, []string{"--level", "heuristic"}, set)
}

// testBridgeEngine is testBridge with bgbot started with args.
func testBridgeEngine(t *testing.T, server string, args []string, set func(o *Options)) (*Bridge, *syncbuf.Buffer) {
	t.Helper()
	dir := t.TempDir()
	o := Options{Server: server, User: "bot", Password: "pw", Client: "test", Records: dir,
		StateFile: filepath.Join(dir, "state.json"), MaxBackoff: 100 * time.Millisecond}
	if set != nil {
		set(&o)
	}
	var factory gtpengine.Factory
	srv, err := factory.Server(args)
	if err != nil {
		t.Fatal(err)
	}
	pl := player.NewInProcess(srv)
	t.Cleanup(func() { pl.Close() })
	logs := &syncbuf.Buffer{}
	b := New(o, bgcmd.NewClient(pl), log.New(logs, "", 0))
	return b, logs
}

// start runs the bridge until the test ends.
func start(t *testing.T, b *Bridge, logs *syncbuf.Buffer) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("bridge: %v", err)
		}
		if t.Failed() {
			t.Logf("bridge log:\n%s", logs.String())
		}
	})
}

// writeState leaves a state file as a bridge does mid-match: a match with
// opponent under rules, its first game begun (bot rolled 31 and moved)
// where the length is one FIBS plays.
func writeState(t *testing.T, o Options, opponent string, rules bg.Rules) {
	t.Helper()
	rb := record.NewBuilder([2]string{o.User, opponent}, rules)
	if rules.MatchLength <= fibs.MaxMatchLength {
		if err := rb.Roll(0, 3, 1); err != nil {
			t.Fatal(err)
		}
		if err := rb.Play(0, rb.State().LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	b := &Bridge{opt: o, log: log.New(io.Discard, "", 0), cur: &matchState{Server: o.Server, Opponent: opponent, b: rb}}
	b.saveState()
	if _, err := os.Stat(o.StateFile); err != nil {
		t.Fatal(err)
	}
}

func waitUntil(t *testing.T, d time.Duration, ok func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !ok() {
		if time.Now().After(end) {
			t.Fatalf("not done after %v", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitLog(t *testing.T, logs *syncbuf.Buffer, text string) {
	t.Helper()
	waitUntil(t, 20*time.Second, func() bool { return strings.Contains(logs.String(), text) })
}

// A server that reads the login and says nothing more, or that sends the
// welcome and never ends the who list: the bridge gives up after the
// timeout, logs it and reconnects rather than waiting forever.
func TestBridgeReconnectsFromSilentServer(t *testing.T) {
	t.Run("login", func(t *testing.T) {
		srv := newScriptServer(t)
		b, logs := testBridge(t, srv.url(), func(o *Options) { o.LoginTimeout = 300 * time.Millisecond })
		start(t, b, logs)
		c := srv.accept(t)
		io.WriteString(c.c, "login: ")
		c.expect("login test 1008 bot pw")
		srv.accept(t)
		waitLog(t, logs, "no welcome from the server after 300ms; reconnecting")
	})
	t.Run("who list", func(t *testing.T) {
		srv := newScriptServer(t)
		b, logs := testBridge(t, srv.url(), func(o *Options) { o.WhoTimeout = 300 * time.Millisecond })
		start(t, b, logs)
		c := srv.accept(t)
		c.welcome()
		c.send(fibs.Who{Name: "alice"}.String())
		srv.accept(t)
		waitLog(t, logs, "no end of the who list after 300ms; reconnecting")
	})
}

// A server that follows the welcome with an endless stream (junk, or who
// lines of ever new names) and never ends the who list: the bridge keeps
// at most maxPending messages and gives up at the cap or the who-list
// timeout, so its heap stays small, and reconnects.
func TestBridgeWhoListFloodIsBounded(t *testing.T) {
	for _, c := range []struct {
		name    string
		line    func(i int) string
		timeout time.Duration
		log     string
	}{
		// Junk is kept until the end of the who list: the cap ends it.
		{"junk", func(i int) string { return fmt.Sprintf("flooding you with line %d", i) }, time.Minute,
			"more than 1000 messages before the end of the who list"},
		// Who lines are not kept: the timeout ends them.
		{"who", func(i int) string {
			return fibs.Who{Name: fmt.Sprintf("user%d", i), Rating: 1500, Login: 1041253132, Host: "host"}.String()
		}, 2 * time.Second, "no end of the who list after 2s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := newScriptServer(t)
			b, logs := testBridge(t, srv.url(), func(o *Options) { o.WhoTimeout = c.timeout })
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			base, peak := ms.HeapAlloc, uint64(0)
			start(t, b, logs)
			conn := srv.accept(t)
			conn.welcome()
			flooded := make(chan int)
			go func() {
				var chunk strings.Builder
				i := 0
				defer func() { flooded <- i }()
				for {
					chunk.Reset()
					for range 256 {
						chunk.WriteString(c.line(i) + "\r\n")
						i++
					}
					if _, err := io.WriteString(conn.c, chunk.String()); err != nil {
						return
					}
				}
			}()
			// The flood ends when the bridge hangs up; sample the heap till then.
			lines := 0
			for sampling := true; sampling; {
				select {
				case lines = <-flooded:
					sampling = false
				case <-time.After(5 * time.Millisecond):
				}
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > base {
					peak = max(peak, ms.HeapAlloc-base)
				}
				if peak > 256<<20 {
					t.Fatalf("the bridge's heap grew past %d MB under the flood", peak>>20)
				}
			}
			srv.accept(t)
			waitLog(t, logs, c.log)
			if peak > 64<<20 {
				t.Errorf("the bridge's heap grew %d MB under the flood", peak>>20)
			}
			t.Logf("%s flood: %d lines sent before the bridge hung up; heap peak +%.1f MB", c.name, lines, float64(peak)/(1<<20))
		})
	}
}

// The online list keeps at most maxOnline names, and always the bridge's
// opponents'.
func TestOnlineListIsBounded(t *testing.T) {
	b, _ := testBridge(t, "tcp://127.0.0.1:1", func(o *Options) { o.Invite = "alice" })
	b.online = map[string]bool{}
	ctx := context.Background()
	for i := range 2*maxOnline + 1 {
		name := fmt.Sprintf("user%d", i)
		if i == 2*maxOnline {
			name = "alice"
		}
		if err := b.handle(ctx, fibs.Parse(fibs.Who{Name: name, Login: 1, Host: "h"}.String())); err != nil {
			t.Fatal(err)
		}
	}
	if len(b.online) > maxOnline+1 || !b.online["alice"] {
		t.Fatalf("online list of %d names, alice in it: %v", len(b.online), b.online["alice"])
	}
}

// A board with dice 0:0 followed by "Please move": the bridge has no move
// to play, so it asks for a fresh board and plays on that one rather than
// taking the first of no legal moves.
func TestBridgeAskedToMoveWithoutDice(t *testing.T) {
	const start0 = "board:You:alice:1:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:%d:%d:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
	srv := newScriptServer(t)
	b, logs := testBridge(t, srv.url(), nil)
	start(t, b, logs)
	c := srv.accept(t)
	c.login("alice")
	c.send("** You are now playing a 1 point match with alice", fmt.Sprintf(start0, 0, 0), "Please move 2 pieces.")
	c.expect(fibs.CmdBoard)
	board := fmt.Sprintf(start0, 6, 2)
	c.send(board)
	move := c.next()
	steps, err := fibs.ParseSteps(strings.TrimPrefix(move, "move "))
	if err != nil || !strings.HasPrefix(move, "move ") {
		t.Fatalf("the bridge sent %q, want a move: %v", move, err)
	}
	bd := fibs.Parse(board).Board
	st, _, err := bd.ToState(record.DefaultRules(1))
	if err != nil {
		t.Fatal(err)
	}
	mv, err := fibs.ToMove(steps, bd.Direction)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Play(mv); err != nil {
		t.Fatalf("the bridge's move %q: %v", move, err)
	}
}

// A state file holding a match length no engine accepts (written from a
// hostile server's line by an earlier bridge): the bridge drops it, says
// so, and plays on rather than failing every session at set_game.
func TestBridgeDropsStateTheEngineRefuses(t *testing.T) {
	srv := newScriptServer(t)
	b, logs := testBridge(t, srv.url(), func(o *Options) { o.Accept = []string{"all"} })
	writeState(t, b.opt, "alice", record.DefaultRules(math.MaxInt64))
	start(t, b, logs)
	c := srv.accept(t)
	c.login()
	c.send("bob wants to play a 1 point match with you.", "Type 'join bob' to accept.")
	c.expect("join bob")
	if _, err := os.Stat(b.opt.StateFile); !os.IsNotExist(err) {
		t.Fatalf("the refused state is still there: %v", err)
	}
	waitLog(t, logs, "dropping the saved match with alice")
}

// The server has no saved match with the opponent of the bridge's: the
// match is gone, so the bridge forgets it and sends the invitation it is
// configured for rather than asking to resume forever.
func TestBridgeForgetsMatchTheServerHasNot(t *testing.T) {
	srv := newScriptServer(t)
	b, logs := testBridge(t, srv.url(), func(o *Options) { o.Invite, o.InviteLen = "alice", 3 })
	writeState(t, b.opt, "alice", record.DefaultRules(5))
	start(t, b, logs)
	c := srv.accept(t)
	c.login("alice")
	c.expect("invite alice")
	c.send("** There's no saved match with alice. Please give a match length.")
	c.expect("invite alice 3")
	if _, err := os.Stat(b.opt.StateFile); !os.IsNotExist(err) {
		t.Fatalf("the lost match's state is still there: %v", err)
	}
}

// The opponent leaves the resumed match (fibsd: "alice leaves. The game
// was saved.") but stays online: the bridge asks to resume again when
// idle rather than reading the line as unknown and waiting for alice's
// next login.
func TestBridgeReinvitesOpponentWhoLeaves(t *testing.T) {
	srv := newScriptServer(t)
	b, logs := testBridge(t, srv.url(), nil)
	writeState(t, b.opt, "alice", record.DefaultRules(5))
	start(t, b, logs)
	c := srv.accept(t)
	c.login("alice")
	c.expect("invite alice")
	c.send("** You invited alice to resume a saved match.", "alice has joined you. Your running match was loaded.",
		"alice leaves. The game was saved.")
	c.expect("invite alice")
}

// A bridge killed after sending its move resumes with the move pending;
// the server's "** You have 1 saved match(es)" at login is no refusal of
// that move: the resumed board shows the move taken, and the record goes
// on: the error does not drop the move nor lose the record.
func TestBridgeKeepsPendingMoveThroughLoginErrors(t *testing.T) {
	srv := newScriptServer(t)
	b, logs := testBridge(t, srv.url(), nil)
	rb := record.NewBuilder([2]string{"bot", "alice"}, record.DefaultRules(5))
	if err := rb.Roll(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	mv := rb.State().LegalMoves()[0]
	saved := &Bridge{opt: b.opt, log: log.New(io.Discard, "", 0), cur: &matchState{Server: b.opt.Server, Opponent: "alice", b: rb, Pending: &mv}}
	saved.saveState()
	// The server's board: the move taken, alice on roll.
	after := *rb.State()
	if err := after.Play(mv); err != nil {
		t.Fatal(err)
	}
	board := fibsboard.FromState(&after, 0, "bot", "alice").String()
	start(t, b, logs)
	c := srv.accept(t)
	c.login("alice")
	c.expect("invite alice")
	c.send("** You have 1 saved match(es): type 'show saved'.", "** You invited alice to resume a saved match.",
		"alice has joined you. Your running match was loaded.", board)
	// The record takes the move: one game, its first action the roll and
	// move.
	moved := func() bool {
		data, err := os.ReadFile(b.opt.StateFile)
		var ms matchState
		if err != nil || json.Unmarshal(data, &ms) != nil || ms.Partial || ms.Record == nil || len(ms.Record.Games) != 1 {
			return false
		}
		a := ms.Record.Games[0].Actions
		return ms.Pending == nil && len(a) == 1 && a[0].Kind == record.Move
	}
	waitUntil(t, 20*time.Second, func() bool { return moved() || strings.Contains(logs.String(), "without writing") })
	if !moved() {
		t.Fatal("the bridge lost the record at the resumed board")
	}
}

// The server answers the bridge's move with an error and falls quiet: the
// bridge asks for the board, sees its move was not taken (the position
// before it, its dice still up) and moves again. An error that answers
// something else (the server taking the move) leaves the move recorded.
func TestBridgeMovesAgainWhenAMoveIsRefused(t *testing.T) {
	srv := newScriptServer(t)
	b, logs := testBridge(t, srv.url(), func(o *Options) { o.Accept = []string{"all"} })
	st := bg.NewMatch(record.DefaultRules(1))
	if err := st.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	board := fibsboard.FromState(st, 0, "bot", "alice").String()
	start(t, b, logs)
	c := srv.accept(t)
	c.login("alice")
	c.send("alice wants to play a 1 point match with you.")
	c.expect("join alice")
	c.send("** You are now playing a 1 point match with alice.", "Starting a new game with alice.",
		"You rolled 3, alice rolled 1.", board, "Please move 2 pieces.")
	if m := c.next(); !strings.HasPrefix(m, "move ") {
		t.Fatalf("the bridge sent %q, want a move", m)
	}
	c.send("** You can't move that way.")
	c.expect(fibs.CmdBoard)
	c.send(board)
	m := c.next()
	steps, err := fibs.ParseSteps(strings.TrimPrefix(m, "move "))
	if err != nil || !strings.HasPrefix(m, "move ") {
		t.Fatalf("the bridge sent %q after its move was refused, want another move", m)
	}
	mv, err := fibs.ToMove(steps, -1)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Play(mv); err != nil {
		t.Fatalf("the bridge's second move %q: %v", m, err)
	}
	waitLog(t, logs, "the server did not take our move: moving again")
}
