package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/server"
	"github.com/gamemill/gamemill/protocol/fibs/server/servertest"
)

// binDir holds the fibsd binary the process tests run, built once.
var binDir = struct {
	sync.Once
	dir string
	err error
}{}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir.dir != "" {
		os.RemoveAll(binDir.dir)
	}
	os.Exit(code)
}

// buildFibsd builds this command, once, into a directory any user may
// read.
func buildFibsd(t *testing.T) string {
	t.Helper()
	binDir.Do(func() {
		binDir.dir, binDir.err = os.MkdirTemp("", "fibsd-bin")
		if binDir.err != nil {
			return
		}
		if out, err := exec.Command("go", "build", "-o", filepath.Join(binDir.dir, "fibsd"), ".").CombinedOutput(); err != nil {
			binDir.err = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		binDir.err = os.Chmod(binDir.dir, 0o755)
	})
	if binDir.err != nil {
		t.Fatal(binDir.err)
	}
	return filepath.Join(binDir.dir, "fibsd")
}

// openUp lets every user into dir and its parent (a test's temporary
// directories are private to their owner).
func openUp(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
}

// fibsdProcess is fibsd serving on a loopback port in a process of its own.
type fibsdProcess struct {
	cmd  *exec.Cmd
	addr string
	logs *servertest.Log
	done chan struct{} // closed when the process has exited
}

func startFibsd(t *testing.T, bin string, args ...string) *fibsdProcess {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--tcp", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &fibsdProcess{cmd: cmd, logs: &servertest.Log{}, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.logs.Write([]byte(sc.Text() + "\n"))
			if _, a, ok := strings.Cut(sc.Text(), "TCP on "); ok {
				addr <- a
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.kill(t) })
	select {
	case p.addr = <-addr:
	case <-p.done:
		t.Fatalf("fibsd exited at start:\n%s", p.logs.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("fibsd not listening after 10 s:\n%s", p.logs.String())
	}
	return p
}

// kill ends the process with SIGKILL: no shutdown code runs.
func (p *fibsdProcess) kill(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("fibsd still running 10 s after SIGKILL")
	}
}

func addUsers(t *testing.T, bin, db string, names ...string) {
	t.Helper()
	for _, name := range names {
		cmd := exec.Command(bin, "adduser", "--db", db, "--bcrypt-cost", "4", name)
		cmd.Stdin = strings.NewReader("p" + name + "\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("adduser %s: %v\n%s", name, err, out)
		}
	}
}

// Finding 2: fibsd killed with SIGKILL in the middle of a match loses
// nothing: restarted on the same database it resumes the match at its
// last action, and a crash during the resumed match still leaves it
// saved.
func TestMatchSurvivesSIGKILL(t *testing.T) {
	bin := buildFibsd(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "fibsd.db")
	records := filepath.Join(dir, "matches")
	addUsers(t, bin, db, "a", "b")

	p := startFibsd(t, bin, "--db", db, "--records", records)
	a, b := servertest.Dial(t, p.addr), servertest.Dial(t, p.addr)
	a.Login("a")
	b.Login("b")
	servertest.Invite(a, b, 5)
	// The first game, played to its end.
	ended := make(chan string, 1)
	go func() { ended <- a.PlayUntil(fibs.JoinNextGame) }()
	b.PlayUntil(fibs.JoinNextGame)
	<-ended
	// The second game: the opening roll and one move.
	a.Type("join")
	b.Type("join")
	a.Until("You rolled")
	mover, other := a, b
	if strings.HasPrefix(a.Until(""), "b makes the first move") {
		mover, other = b, a
	}
	mover.FirstMove()
	moverBoard := mover.Until("board:")
	var otherBoard string
	for {
		line := other.Until("")
		if fibs.Parse(line).Kind == fibs.Board {
			otherBoard = line
		}
		if fibs.Parse(line).Kind == fibs.RollOrDouble {
			break
		}
	}
	lastA := moverBoard
	if mover != a {
		lastA = otherBoard
	}
	p.kill(t)

	p = startFibsd(t, bin, "--db", db, "--records", records)
	a, b = servertest.Dial(t, p.addr), servertest.Dial(t, p.addr)
	a.Login("a")
	a.Until("** You have 1 saved match(es)")
	b.Login("b")
	a.Type("invite b")
	b.Until("a wants to resume a saved match with you.")
	b.Type("join a")
	a.Until("b has joined you. Your running match was loaded.")
	if resumed := a.Until("board:"); resumed != lastA {
		t.Fatalf("the match resumed elsewhere:\nbefore the kill %s\nafter           %s", lastA, resumed)
	}
	// A crash right after resuming: the saved match is still there.
	p.kill(t)
	p = startFibsd(t, bin, "--db", db, "--records", records)
	b = servertest.Dial(t, p.addr)
	b.Login("b")
	b.Type("show saved")
	b.Until("opponent")
	if row := fibs.Parse(b.Until("")); row.Kind != fibs.SavedMatch || row.N != 5 {
		t.Fatalf("saved match after a crash during the resumed match: %+v", row)
	}
}

// Finding 6: fibsd refuses to start on a database it cannot write, and
// says which file.
func TestReadOnlyDatabaseRefused(t *testing.T) {
	bin := buildFibsd(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "fibsd.db")
	st, err := server.OpenStore(db, bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddUser("a", "pa"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--db", db, "--tcp", "127.0.0.1:0")
	if os.Geteuid() == 0 {
		// Root writes any file: run as nobody, who may create files in
		// the directory but not write the database.
		openUp(t, dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("fibsd served a read-only database:\n%s", out)
	}
	if err == nil || !strings.Contains(string(out), db) || !strings.Contains(string(out), "cannot be written") {
		t.Fatalf("fibsd on a read-only database: %v\n%s", err, out)
	}
	t.Logf("fibsd on a read-only database: %s", out)
}
