package agent

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamemill/gamemill/player"
)

// startLauncher runs this test binary as a stand-in ringmaster that
// launches the agent argv, and returns it and the agent's Record.
func startLauncher(t *testing.T, argv ...string) (*exec.Cmd, player.Record) {
	t.Helper()
	arg, err := json.Marshal(argv)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), launcherVar+"="+string(arg))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadBytes('\n')
	if err != nil {
		t.Fatalf("launcher: %v", err)
	}
	var r player.Record
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatalf("launcher record %q: %v", line, err)
	}
	killAtEnd(t, r.PGID)
	return cmd, r
}

// killAtEnd kills pid's process group when the test ends, should the
// test fail with it still running.
func killAtEnd(t *testing.T, pid int) {
	t.Cleanup(func() {
		if pid > 1 {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// gone reports whether pid no longer runs (absent or a zombie).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if gone(pid) {
			return
		}
	}
	t.Errorf("process %d still running", pid)
}

func killLauncher(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

// An agent that never reads its input used to outlive a ringmaster killed
// with SIGKILL; started as an engine is, it dies with the ringmaster.
func TestKilledRingmasterTakesAgentAlong(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	cmd, r := startLauncher(t, sleep, "60")
	if r.PGID <= 0 || r.Token == "" {
		t.Fatalf("incomplete record %+v", r)
	}
	if gone(r.PGID) {
		t.Fatal("agent not running before the kill")
	}
	killLauncher(t, cmd)
	waitGone(t, r.PGID)
	if r.Cgroup != "" {
		if _, err := player.StopStale([]player.Record{r}); err != nil {
			t.Errorf("StopStale: %v", err)
		}
	}
}

// What an agent started and took out of its process group (setsid)
// survives the ringmaster's death; the next run stops it from the agent's
// Record.
func TestStopStaleStopsAgentLeftovers(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	cmd, r := startLauncher(t, sh, "-c", `"$0" sleep 60 & echo $! > "$1"; exec sleep 60`, setsid, pidFile)
	var child int
	for end := time.Now().Add(5 * time.Second); child == 0 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(pidFile)
		if s := strings.TrimSpace(string(b)); strings.HasSuffix(string(b), "\n") {
			child, _ = strconv.Atoi(s)
		}
	}
	if child <= 0 {
		t.Fatal("the agent wrote no child pid")
	}
	killAtEnd(t, child)
	killLauncher(t, cmd)
	waitGone(t, r.PGID)
	time.Sleep(50 * time.Millisecond)
	if gone(child) {
		t.Fatal("the setsid child died with the agent: nothing left to test")
	}
	if _, err := player.StopStale([]player.Record{r}); err != nil {
		t.Fatalf("StopStale: %v", err)
	}
	waitGone(t, child)
}
