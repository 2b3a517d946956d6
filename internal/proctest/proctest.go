//go:build unix

// Package proctest watches and stops processes in tests of engines
// started as subprocesses: whether a process still runs, waiting for it
// to go, killing what a failed test leaves, and a stand-in ringmaster
// that reports what it launched on its first line and is then killed.
package proctest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Gone reports whether pid no longer runs (absent or a zombie).
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

// WaitGone fails the test unless pid is gone within 5 s.
func WaitGone(t testing.TB, pid int) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if Gone(pid) {
			return
		}
	}
	t.Errorf("process %d still running", pid)
}

// KillAtEnd kills pid when the test ends, should the test leave it
// running.
func KillAtEnd(t testing.TB, pid int) {
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
}

// ReadPid waits up to 10 s for a process id written to path.
func ReadPid(t testing.TB, path string) int {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		data, err := os.ReadFile(path)
		if err == nil && len(data) > 0 {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
	}
	t.Fatalf("no pid in %s", path)
	return 0
}

// StartLauncher starts cmd, a stand-in ringmaster that launches an
// engine and prints the engine's player.Record as a JSON line, reads
// that line into record, and kills the launcher when the test ends.
func StartLauncher(t testing.TB, cmd *exec.Cmd, record any) {
	t.Helper()
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
	if err := json.Unmarshal(line, record); err != nil {
		t.Fatalf("launcher record %q: %v", line, err)
	}
}

// KillLauncher SIGKILLs the stand-in ringmaster and reaps it.
func KillLauncher(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}
