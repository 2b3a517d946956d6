//go:build linux

package main

import (
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	_ "modernc.org/sqlite"
)

// openPTY opens a pseudo-terminal pair with plain ioctls (Linux).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlock pty: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("pty number: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pty slave: %v", err)
	}
	return m, s
}

// TestCtrlXStopsGracefully runs the ringmaster on a terminal: it draws the
// live display, and a Ctrl-X typed there lets running games finish and ends
// the run with exit status 0, the rest left for a later run.
func TestCtrlXStopsGracefully(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "ringmaster")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctl := filepath.Join(dir, "x.toml")
	os.WriteFile(ctl, []byte(`competition_type = "playoff"
game = "backgammon"
seed = 3
cube = false
number_of_games = 100000

[players.a]
kind = "builtin"
args = ["--level", "heuristic"]

[players.b]
kind = "builtin"
args = ["--level", "random"]

[[matchups]]
players = ["a", "b"]
`), 0o644)
	master, slave := openPTY(t)
	defer master.Close()
	cmd := exec.Command(bin, "run", ctl)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	screen := make(chan string, 1)
	go func() {
		data, _ := io.ReadAll(master) // ends with EIO once the child exits
		screen <- string(data)
	}()
	db := filepath.Join(dir, "x.db")
	deadline := time.Now().Add(30 * time.Second)
	for countGames(db) < 20 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no games recorded within 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	master.Write([]byte{0x18})
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run stopped by Ctrl-X: %v", err)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("Ctrl-X did not stop the run")
	}
	if n := countGames(db); n >= 100000 {
		t.Errorf("%d games: the run was not stopped", n)
	}
	text := <-screen
	// "game in progress: ID" or "N games in progress: ...": a frame drawn
	// between two games may show one.
	for _, want := range []string{" in progress: ", "(Ctrl-X or 'ringmaster stop'", "= Results ="} {
		if !strings.Contains(text, want) {
			t.Errorf("the terminal never showed %q", want)
		}
	}
	log, _ := os.ReadFile(filepath.Join(dir, "x.log"))
	if !strings.Contains(string(log), "stop instruction received from terminal") {
		t.Errorf("the log does not record the Ctrl-X stop:\n%s", log)
	}
}

func countGames(db string) int {
	if _, err := os.Stat(db); err != nil {
		return 0
	}
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		return 0
	}
	defer conn.Close()
	var n int
	conn.QueryRow("SELECT COUNT(*) FROM game_results").Scan(&n)
	return n
}
