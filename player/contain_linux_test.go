package player

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamemill/gamemill/internal/proctest"
)

// readPid waits for a pid file written by the fake engine; killAtEnd
// makes sure a test's stray process does not outlive it.
var (
	readPid      = proctest.ReadPid
	killAtEnd    = proctest.KillAtEnd
	killLauncher = proctest.KillLauncher
)

// session returns the session id of pid (field 6 of /proc/PID/stat).
func session(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	sid, err := strconv.Atoi(fields[3])
	if err != nil {
		t.Fatal(err)
	}
	return sid
}

// A grandchild that calls setsid leaves the engine's process group, so
// killing the group misses it; Close must stop it anyway, through the
// engine's cgroup or, without one, the token in its environment.
func TestCloseStopsSetsidChild(t *testing.T) {
	for _, noCgroup := range []bool{false, true} {
		name := map[bool]string{false: "cgroup", true: "token"}[noCgroup]
		t.Run(name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			p := launch(t, Spec{noCgroup: noCgroup}, "--spawn-child", "--child-setsid", "--child-pid-file", pidFile)
			if !noCgroup && p.cg == nil {
				t.Skip("no writable cgroup v2 here; the token path is tested beside")
			}
			if _, err := p.Do(t.Context(), "name"); err != nil {
				t.Fatal(err)
			}
			child := readPid(t, pidFile)
			killAtEnd(t, child)
			if sid := session(t, child); sid == p.Pid() || sid != child {
				t.Fatalf("grandchild %d in session %d: it did not leave the engine's session %d", child, sid, p.Pid())
			}
			if err := p.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			waitGone(t, child)
			if p.cg != nil {
				if _, err := os.Stat(p.cg.path); !os.IsNotExist(err) {
					t.Errorf("cgroup %s not removed: %v", p.cg.path, err)
				}
			}
		})
	}
}

// startLauncher runs the launcher (a stand-in ringmaster) on the fake
// engine with flags and returns it and the engine's Record.
func startLauncher(t *testing.T, flags ...string) (*exec.Cmd, Record) {
	t.Helper()
	cmd := exec.Command(launcher, append([]string{fakeEngine}, flags...)...)
	var r Record
	proctest.StartLauncher(t, cmd, &r)
	killAtEnd(t, r.PGID)
	return cmd, r
}

// An engine that ignores the end of its input used to outlive a ringmaster
// killed with SIGKILL; the parent-death signal now takes it along.
func TestParentDeathKillsEngine(t *testing.T) {
	cmd, r := startLauncher(t, "--ignore-quit")
	if r.PGID <= 0 || r.Token == "" || r.Start == 0 || r.Boot == "" {
		t.Fatalf("incomplete record %+v", r)
	}
	if gone(r.PGID) {
		t.Fatal("engine not running before the kill")
	}
	killLauncher(t, cmd)
	waitGone(t, r.PGID)
	if r.Cgroup != "" {
		if _, err := StopStale([]Record{r}); err != nil {
			t.Errorf("StopStale: %v", err)
		}
	}
}

// After a ringmaster died, StopStale finds what its engines left: a
// setsid grandchild survives the engine's parent-death signal, and the
// next run stops it from the record, through the cgroup or the token.
func TestStopStale(t *testing.T) {
	for _, viaToken := range []bool{false, true} {
		name := map[bool]string{false: "record as made", true: "token only"}[viaToken]
		t.Run(name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			cmd, r := startLauncher(t, "--ignore-quit", "--spawn-child", "--child-setsid", "--child-pid-file", pidFile)
			child := readPid(t, pidFile)
			killAtEnd(t, child)
			killLauncher(t, cmd)
			waitGone(t, r.PGID)
			time.Sleep(50 * time.Millisecond)
			if gone(child) {
				t.Fatal("the setsid grandchild died with the engine: nothing left to test")
			}
			rec := r
			if viaToken {
				rec.Cgroup = ""
				if r.Cgroup != "" {
					t.Cleanup(func() { _ = destroyCgroup(r.Cgroup, killWait) })
				}
			}
			n, err := StopStale([]Record{rec})
			if err != nil {
				t.Fatalf("StopStale: %v", err)
			}
			waitGone(t, child)
			if viaToken && n != 1 {
				t.Errorf("StopStale signalled %d processes, want 1 (the grandchild)", n)
			}
			if rec.Cgroup != "" {
				if _, err := os.Stat(rec.Cgroup); !os.IsNotExist(err) {
					t.Errorf("cgroup %s not removed: %v", rec.Cgroup, err)
				}
			}
			// A second call finds nothing left.
			if n, err := StopStale([]Record{rec}); n != 0 || err != nil {
				t.Errorf("second StopStale = %d, %v", n, err)
			}
		})
	}
}

// StopStale signals a recorded process group only while its leader is the
// process recorded: a pid reused after a reboot or by a later process is
// left alone.
func TestStopStaleChecksIdentity(t *testing.T) {
	sleeper := exec.Command(fakeEngine, "--sleep-forever")
	sleeper.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	pid := sleeper.Process.Pid
	done := make(chan struct{})
	go func() { _ = sleeper.Wait(); close(done) }()
	t.Cleanup(func() { _ = sleeper.Process.Kill(); <-done })
	start, err := processStart(pid)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Record{
		{PGID: pid, Start: start + 1, Boot: bootID()},
		{PGID: pid, Start: start, Boot: "another-boot"},
		{PGID: pid, Start: 0, Boot: bootID()},
	} {
		n, _ := StopStale([]Record{r})
		select {
		case <-done:
			t.Fatalf("StopStale(%+v) killed a process it could not identify", r)
		case <-time.After(20 * time.Millisecond):
		}
		if n != 0 {
			t.Errorf("StopStale(%+v) = %d, want 0", r, n)
		}
	}
	if _, err := StopStale([]Record{{PGID: pid, Start: start, Boot: "x", Cgroup: "/tmp/x"}}); err == nil {
		t.Error("a cgroup path that is no engine's was accepted")
	}
	if n, err := StopStale([]Record{{PGID: pid, Start: start, Boot: bootID()}}); n != 1 || err != nil {
		t.Errorf("StopStale of the recorded process = %d, %v; want 1", n, err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("the recorded process still runs")
	}
}

// BenchmarkLaunchClose measures starting and stopping an engine with each
// way of containing its descendants, and reports this process's own CPU
// for each engine (the engine's is its own).
func BenchmarkLaunchClose(b *testing.B) {
	for _, noCgroup := range []bool{false, true} {
		b.Run(map[bool]string{false: "cgroup", true: "token"}[noCgroup], func(b *testing.B) {
			cpu0 := ownCPU()
			defer func() {
				b.ReportMetric(float64(ownCPU()-cpu0)/float64(time.Microsecond)/float64(b.N), "own-µs/engine")
			}()
			for b.Loop() {
				p, err := Launch(b.Context(), Spec{Argv: []string{fakeEngine}, Timeout: time.Minute, noCgroup: noCgroup})
				if err != nil {
					b.Fatal(err)
				}
				if !noCgroup && p.cg == nil {
					b.Skip("no writable cgroup v2")
				}
				if _, err := p.Do(b.Context(), "name"); err != nil {
					b.Fatal(err)
				}
				if err := p.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Runs that died leave their engines' cgroups behind, empty once the
// engines are gone; StopStale removes them, and only them.
func TestStopStaleRemovesEmptyCgroups(t *testing.T) {
	empty, err := newCgroup(cgroupPrefix + "test-empty-" + strconv.Itoa(os.Getpid()))
	if err != nil {
		t.Skipf("no writable cgroup v2: %v", err)
	}
	empty.closeDir()
	t.Cleanup(func() { _ = destroyCgroup(empty.path, killWait) })
	p := launch(t, Spec{}, "--ignore-quit")
	if p.cg == nil {
		t.Fatal("the engine got no cgroup beside an empty one")
	}
	if _, err := StopStale(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(empty.path); !os.IsNotExist(err) {
		t.Errorf("empty cgroup %s kept: %v", empty.path, err)
	}
	if _, err := os.Stat(p.cg.path); err != nil {
		t.Errorf("a live engine's cgroup went: %v", err)
	}
	if _, err := p.Do(t.Context(), "name"); err != nil {
		t.Errorf("the live engine stopped: %v", err)
	}
}

// ownCPU is the CPU time this process has used.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readProcFile reads what os.ReadFile reads, past its first 4 KiB too.
func TestReadProcFile(t *testing.T) {
	for _, path := range []string{"/proc/self/cmdline", "/proc/self/mountinfo", "/proc/self/cgroup"} {
		got, err := readProcFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: read %d bytes, os.ReadFile %d", path, len(got), len(want))
		}
	}
	big := filepath.Join(t.TempDir(), "big")
	data := []byte(strings.Repeat("0123456789abcdef", 1000))
	if err := os.WriteFile(big, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := readProcFile(big); err != nil || string(got) != string(data) {
		t.Errorf("16000-byte file: %d bytes, %v", len(got), err)
	}
	if _, err := readProcFile("/proc/0/stat"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
