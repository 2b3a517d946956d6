package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/internal/buildtest"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/bridge"
)

var fibsdBin, bridgeBin string

func TestMain(m *testing.M) {
	buildtest.Main(m, map[string]*string{"../fibsd": &fibsdBin, ".": &bridgeBin})
}

type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fibsd is a real server process on loopback ports.
type fibsd struct {
	dir, tcp, ws string
	log          *lockedBuf
	pid          int
}

func startFibsd(t *testing.T, users ...string) *fibsd {
	t.Helper()
	return startFibsdArgs(t, nil, users...)
}

func startFibsdArgs(t *testing.T, extra []string, users ...string) *fibsd {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end matches between real processes: not in -short")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "fibsd.db")
	for _, u := range users {
		cmd := exec.Command(fibsdBin, "adduser", "--db", db, "--bcrypt-cost", "4", u)
		cmd.Stdin = strings.NewReader("pw-" + u + "\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("adduser %s: %v\n%s", u, err, out)
		}
		if err := os.WriteFile(filepath.Join(dir, u+".pw"), []byte("pw-"+u+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f := &fibsd{dir: dir, log: &lockedBuf{}}
	cmd := exec.Command(fibsdBin, "serve", "--db", db, "--tcp", "127.0.0.1:0", "--ws", "127.0.0.1:0",
		"--records", filepath.Join(dir, "server"))
	cmd.Args = append(cmd.Args, extra...)
	cmd.Stderr = f.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f.pid = cmd.Process.Pid
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if t.Failed() {
			t.Logf("fibsd log:\n%s", f.log.String())
		}
	})
	tcpRe, wsRe := regexp.MustCompile(`TCP on (\S+)`), regexp.MustCompile(`WebSocket on (\S+)`)
	waitUntil(t, 10*time.Second, func() bool {
		l := f.log.String()
		if m := tcpRe.FindStringSubmatch(l); m != nil {
			f.tcp = "tcp://" + m[1]
		}
		if m := wsRe.FindStringSubmatch(l); m != nil {
			f.ws = m[1]
		}
		return f.tcp != "" && f.ws != ""
	})
	return f
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

// bridgeProc is a running fibsbridge driving bgbot in-process.
type bridgeProc struct {
	cmd *exec.Cmd
	log *lockedBuf
	dir string
	cwd string // its working directory
	// state is its state file, in the default state directory.
	state string
	done  chan error
}

// cwdEmpty fails the test when the bridge wrote in its working directory.
func (b *bridgeProc) cwdEmpty(t *testing.T) {
	t.Helper()
	if ents, err := os.ReadDir(b.cwd); err != nil || len(ents) != 0 {
		t.Fatalf("the bridge's working directory holds %v (%v), want nothing", ents, err)
	}
}

func startBridge(t *testing.T, f *fibsd, server, user string, args ...string) *bridgeProc {
	t.Helper()
	dir := filepath.Join(f.dir, "bridge-"+user)
	all := []string{"--server", server, "--user", user, "--password-file", filepath.Join(f.dir, user+".pw"),
		"--records", dir, "--max-backoff", "1s"}
	if !slices.Contains(args, "--gnubg") {
		all = append(all, "--builtin", "--level heuristic")
	}
	all = append(all, args...)
	b := &bridgeProc{cmd: exec.Command(bridgeBin, all...), log: &lockedBuf{}, dir: dir, done: make(chan error, 1)}
	// The state goes to the default state directory, never to the
	// working directory, which the tests check stays empty.
	b.cwd = filepath.Join(f.dir, "cwd-"+user)
	if err := os.MkdirAll(b.cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	stateHome := filepath.Join(f.dir, "state-home")
	b.state = bridge.StatePath(filepath.Join(stateHome, "gamemill", "fibsbridge"), server, user)
	b.cmd.Dir = b.cwd
	b.cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+stateHome)
	b.cmd.Stderr = b.log
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { b.done <- b.cmd.Wait() }()
	t.Cleanup(func() {
		b.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("%s log:\n%s", user, b.log.String())
		}
	})
	return b
}

func (b *bridgeProc) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case err := <-b.done:
		if err != nil {
			t.Fatalf("bridge: %v", err)
		}
	case <-time.After(d):
		t.Fatalf("bridge still running after %v", d)
	}
}

func readMat(t *testing.T, pattern string) *record.Match {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	if len(files) != 1 {
		t.Fatalf("%s: %d files", pattern, len(files))
	}
	fh, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	m, err := mat.Read(fh)
	if err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	if err := record.Replay(m); err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	return m
}

// swapped is the record with the players' seats exchanged.
func swapped(m *record.Match) *record.Match {
	c := m.Clone()
	c.Players = [2]string{m.Players[1], m.Players[0]}
	for i := range c.Games {
		g := &c.Games[i]
		g.ScoreBefore = [2]int{g.ScoreBefore[1], g.ScoreBefore[0]}
		g.Winner = 1 - g.Winner
		for j := range g.Actions {
			g.Actions[j].Player = 1 - g.Actions[j].Player
		}
	}
	return c
}

// sameMatch checks that the server's record and each bridge's agree move
// for move (the server seats the inviter first).
func sameMatch(t *testing.T, f *fibsd, inviter, joiner string, length int) {
	t.Helper()
	srv := readMat(t, filepath.Join(f.dir, "server", "*.mat"))
	inv := readMat(t, filepath.Join(f.dir, "bridge-"+inviter, "*.mat"))
	joi := readMat(t, filepath.Join(f.dir, "bridge-"+joiner, "*.mat"))
	if srv.MatchLength != length || srv.Players != [2]string{inviter, joiner} {
		t.Fatalf("server record: %q length %d", srv.Players, srv.MatchLength)
	}
	if sc := srv.FinalScore(); sc[0] < length && sc[1] < length {
		t.Fatalf("the match did not finish: %v", sc)
	}
	if d := record.DiffGames(srv, inv); d != "" {
		t.Errorf("server and %s differ: %s", inviter, d)
	}
	if d := record.DiffGames(srv, swapped(joi)); d != "" {
		t.Errorf("server and %s differ: %s", joiner, d)
	}
	t.Run("gnubg", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(f.dir, "*", "*.mat"))
		for _, file := range files {
			out := peertest.RunGnubg(t, "set display off\nimport mat "+file+"\nshow score\n")
			if strings.Contains(strings.ToLower(out), "error") || !strings.Contains(out, inviter) {
				t.Errorf("gnubg import %s:\n%s", file, out)
			}
		}
	})
}

// Two bridges, each driving bgbot, play a 5-point match to its end over
// WebSocket and over TCP; the three records agree and import into gnubg.
func TestTwoBridgesPlayAFivePointMatch(t *testing.T) {
	for _, via := range []string{"ws", "tcp"} {
		t.Run(via, func(t *testing.T) {
			f := startFibsd(t, "bot1", "bot2")
			server := f.tcp
			if via == "ws" {
				server = f.ws
			}
			b1 := startBridge(t, f, server, "bot1", "--accept", "all", "--matches", "1")
			b2 := startBridge(t, f, server, "bot2", "--invite", "bot1:5", "--matches", "1")
			b2.wait(t, 2*time.Minute)
			b1.wait(t, 30*time.Second)
			sameMatch(t, f, "bot2", "bot1", 5)
			for _, b := range []*bridgeProc{b1, b2} {
				if strings.Contains(b.log.String(), "pw-bot") {
					t.Errorf("a bridge logged its password")
				}
				b.cwdEmpty(t)
			}
		})
	}
}

// gnubg plays on the bridge (--gnubg PLIES) against a bgbot bridge: a
// whole match, recorded alike by the server and both bridges.
func TestGnubgOnTheBridge(t *testing.T) {
	peertest.Gnubg(t) // skips without gnubg; the bridge finds it on PATH or in /usr/games
	f := startFibsd(t, "gnubg", "bot")
	g := startBridge(t, f, f.tcp, "gnubg", "--accept", "all", "--matches", "1", "--gnubg", "0")
	b := startBridge(t, f, f.tcp, "bot", "--invite", "gnubg:3", "--matches", "1")
	b.wait(t, 2*time.Minute)
	g.wait(t, 30*time.Second)
	sameMatch(t, f, "bot", "gnubg", 3)
	g.cwdEmpty(t)
}

// cutProxy forwards TCP to the server and cuts the first connection after
// the server has sent it cutAfter lines; later connections pass.
func cutProxy(t *testing.T, target string, cutAfter int) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		first := true
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", strings.TrimPrefix(target, "tcp://"))
			if err != nil {
				c.Close()
				continue
			}
			cut := first
			first = false
			go func() { io.Copy(s, c); s.Close() }()
			go func() {
				defer c.Close()
				defer s.Close()
				if !cut {
					io.Copy(c, s)
					return
				}
				buf := make([]byte, 4096)
				for n := 0; n < cutAfter; {
					k, err := s.Read(buf)
					chunk := buf[:k]
					for i, ch := range chunk {
						if ch == '\n' {
							if n++; n == cutAfter {
								chunk = chunk[:i+1]
								break
							}
						}
					}
					if _, werr := c.Write(chunk); err != nil || werr != nil {
						return
					}
				}
			}()
		}
	}()
	return "tcp://" + l.Addr().String()
}

// The connection drops mid-match: the bridge reconnects, the match
// resumes and finishes, and the records still agree.
func TestBridgeReconnectsAfterDrop(t *testing.T) {
	f := startFibsd(t, "bot1", "bot2")
	proxy := cutProxy(t, f.tcp, 150)
	b1 := startBridge(t, f, f.tcp, "bot1", "--accept", "all", "--matches", "1")
	b2 := startBridge(t, f, proxy, "bot2", "--invite", "bot1:5", "--matches", "1")
	b2.wait(t, 2*time.Minute)
	b1.wait(t, 30*time.Second)
	if !strings.Contains(f.log.String(), "saved (bot2 drops connection)") || !strings.Contains(f.log.String(), "resumed") {
		t.Fatalf("no drop and resume in the server log:\n%s", f.log.String())
	}
	if !strings.Contains(b2.log.String(), "reconnecting") {
		t.Fatalf("bot2 did not reconnect")
	}
	sameMatch(t, f, "bot2", "bot1", 5)
}

// A bridge killed with SIGKILL mid-match and started again resumes the
// saved match from its state file; SIGINT logs out leaving it saved.
func TestBridgeKilledAndRestarted(t *testing.T) {
	f := startFibsd(t, "bot1", "bot2")
	b1 := startBridge(t, f, f.tcp, "bot1", "--accept", "all", "--matches", "1")
	b2 := startBridge(t, f, f.tcp, "bot2", "--invite", "bot1:7", "--matches", "1")
	state := b2.state
	waitUntil(t, time.Minute, func() bool {
		data, err := os.ReadFile(state)
		return err == nil && bytes.Count(data, []byte(`"Kind"`)) > 20
	})
	b2.cmd.Process.Signal(syscall.SIGKILL)
	<-b2.done
	waitUntil(t, 10*time.Second, func() bool { return strings.Contains(f.log.String(), "saved (bot2 drops connection)") })
	b2 = startBridge(t, f, f.tcp, "bot2", "--invite", "bot1:7", "--matches", "1")
	// Stop it politely mid-match: it logs out, the server saves the match.
	waitUntil(t, time.Minute, func() bool { return strings.Contains(f.log.String(), "resumed") })
	time.Sleep(50 * time.Millisecond)
	b2.cmd.Process.Signal(os.Interrupt)
	b2.wait(t, 10*time.Second)
	if !strings.Contains(b2.log.String(), "logging out") {
		t.Fatalf("SIGINT: no logout in the log")
	}
	if n := strings.Count(f.log.String(), "saved (bot2"); n < 2 {
		t.Fatalf("the match was saved %d times, want 2", n)
	}
	b2 = startBridge(t, f, f.tcp, "bot2", "--invite", "bot1:7", "--matches", "1")
	b2.wait(t, 2*time.Minute)
	b1.wait(t, 30*time.Second)
	// A bridge killed with server messages unread cannot always rebuild
	// its record (an opponent's roll and move it never saw); it then plays
	// the match out from the boards and writes no record, and says so.
	if files, _ := filepath.Glob(filepath.Join(b2.dir, "*.mat")); len(files) == 0 {
		if !strings.Contains(b2.log.String(), "without writing") {
			t.Fatalf("bot2 wrote no record and did not say why")
		}
		t.Logf("bot2 lost its record with the kill (messages unread): checking the server against bot1 only")
		srv := readMat(t, filepath.Join(f.dir, "server", "*.mat"))
		joi := readMat(t, filepath.Join(f.dir, "bridge-bot1", "*.mat"))
		if sc := srv.FinalScore(); sc[0] < 7 && sc[1] < 7 {
			t.Fatalf("the match did not finish: %v", sc)
		}
		if d := record.DiffGames(srv, swapped(joi)); d != "" {
			t.Fatalf("server and bot1 differ: %s", d)
		}
		return
	}
	sameMatch(t, f, "bot2", "bot1", 7)
}

// A person logs in with a plain TCP client, invites a bridge, and plays a
// whole 1-point match against it by typing FIBS commands.
func TestHumanPlaysBridge(t *testing.T) {
	f := startFibsd(t, "bot1", "human")
	startBridge(t, f, f.tcp, "bot1", "--accept", "all", "--max-length", "3", "--matches", "1")
	c, err := net.Dial("tcp", strings.TrimPrefix(f.tcp, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	var seen []string
	read := func() string {
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		var buf []byte
		for {
			b, err := r.ReadByte()
			if err != nil {
				t.Fatalf("read: %v (last %q)", err, seen[max(0, len(seen)-6):])
			}
			buf = append(buf, b)
			if b == '\n' || string(buf) == "login: " {
				l := strings.TrimRight(string(buf), "\r\n")
				seen = append(seen, l)
				return l
			}
		}
	}
	typeLine := func(s string) { fmt.Fprintf(c, "%s\r\n", s) }
	for read() != "login: " {
	}
	typeLine("login telnet 1008 human pw-human")
	for !strings.HasPrefix(read(), "6") {
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The bridge may not be logged in yet.
	for {
		typeLine("invite bot1 1")
		l := read()
		for strings.HasPrefix(l, "7 ") || strings.HasPrefix(l, "5 ") || l == "6" {
			l = read()
		}
		if strings.Contains(l, "You invited bot1") {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("cannot invite: %q", l)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var board string
	for {
		l := read()
		m := fibs.Parse(l)
		switch m.Kind {
		case fibs.Board:
			board = l
		case fibs.PleaseMove:
			b, _ := fibsboard.Parse(board)
			st, _, err := b.ToState(bg.Rules{Cube: true})
			if err != nil {
				t.Fatalf("board %q: %v", board, err)
			}
			typeLine(fibs.MoveCommand(fibs.FromMove(st.LegalMoves()[0], b.Direction)))
		case fibs.RollOrDouble:
			typeLine("roll")
		case fibs.Doubles:
			if m.Name != fibs.You {
				typeLine("accept")
			}
		case fibs.Error:
			t.Fatalf("error: %q", l)
		case fibs.WinsMatch:
			if m.N != 1 {
				t.Fatalf("match end %q", l)
			}
			waitUntil(t, 10*time.Second, func() bool {
				files, _ := filepath.Glob(filepath.Join(f.dir, "bridge-bot1", "*.mat"))
				return len(files) == 1
			})
			srv := readMat(t, filepath.Join(f.dir, "server", "*.mat"))
			bot := readMat(t, filepath.Join(f.dir, "bridge-bot1", "*.mat"))
			if d := record.DiffGames(srv, swapped(bot)); d != "" {
				t.Fatalf("server and bridge differ: %s", d)
			}
			return
		}
	}
}
