package player

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamemill/gamemill/internal/buildtest"
	"github.com/gamemill/gamemill/internal/proctest"
	"github.com/gamemill/gamemill/internal/syncbuf"
	"github.com/gamemill/gamemill/protocol"
)

// fakeEngine is the path of the fake engine built by TestMain.
var fakeEngine string

// launcher is the path of the launcher built by TestMain: a stand-in for
// a ringmaster that dies without closing its engine.
var launcher string

func TestMain(m *testing.M) {
	buildtest.Main(m, map[string]*string{"./testdata/fakeengine": &fakeEngine, "./testdata/launcher": &launcher})
}

// launch starts the fake engine with the given flags and closes it when
// the test ends.
func launch(t *testing.T, spec Spec, flags ...string) *Process {
	t.Helper()
	spec.Argv = append([]string{fakeEngine}, flags...)
	if spec.Timeout == 0 {
		spec.Timeout = 30 * time.Second
	}
	p, err := Launch(context.Background(), spec)
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// gone reports whether pid no longer runs; waitGone waits for that.
var (
	gone     = proctest.Gone
	waitGone = proctest.WaitGone
)

func TestProcessBasics(t *testing.T) {
	var stderr syncbuf.Buffer
	var mu sync.Mutex
	var transcript []string
	dir := t.TempDir()
	p := launch(t, Spec{
		Dir:    dir,
		Env:    []string{"GAMEMILL_TEST_VAR=hello world", "HOME=/nowhere"},
		Stderr: &stderr,
		Transcript: func(sent bool, line string) {
			mu.Lock()
			defer mu.Unlock()
			transcript = append(transcript, fmt.Sprint(sent, " ", line))
		},
	}, "--stderr", "starting up")
	ctx := context.Background()
	if p.Pid() <= 0 {
		t.Fatalf("Pid() = %d", p.Pid())
	}
	if got, err := p.Do(ctx, "name"); err != nil || got != "fakeengine" {
		t.Fatalf("name = %q, %v", got, err)
	}
	if got, err := p.Do(ctx, "env", "GAMEMILL_TEST_VAR"); err != nil || got != "hello world" {
		t.Errorf("env = %q, %v", got, err)
	}
	if got, err := p.Do(ctx, "env", "HOME"); err != nil || got != "/nowhere" {
		t.Errorf("env HOME = %q, %v", got, err)
	}
	if got, err := p.Do(ctx, "env", "PATH"); err != nil || got != os.Getenv("PATH") {
		t.Errorf("env PATH = %q, %v (not inherited)", got, err)
	}
	if got, err := p.Do(ctx, "pwd"); err != nil || got != dir {
		t.Errorf("pwd = %q, %v, want %q", got, err, dir)
	}
	_, err := p.Do(ctx, "frobnicate")
	var fe *protocol.FailureError
	if !errors.As(err, &fe) || fe.Message != "unknown command" {
		t.Errorf("frobnicate: error = %v", err)
	}
	if _, err := p.Do(ctx, "warn", "careful"); err != nil {
		t.Error(err)
	}
	if _, err := p.Do(ctx, "burn", "200ms"); err != nil {
		t.Fatal(err)
	}
	if p.CPUTime() != 0 {
		t.Errorf("CPUTime before Close = %v", p.CPUTime())
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if cpu := p.CPUTime(); cpu < 200*time.Millisecond || cpu > 10*time.Second {
		t.Errorf("CPUTime = %v, want about 200ms", cpu)
	}
	if _, err := p.Do(ctx, "name"); !errors.Is(err, ErrClosed) {
		t.Errorf("Do after Close: %v", err)
	}
	waitGone(t, p.Pid())
	if got := stderr.String(); got != "starting up\ncareful\n" {
		t.Errorf("stderr = %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(transcript) < 3 || transcript[0] != "true name" || transcript[1] != "false = fakeengine" || transcript[2] != "false " {
		t.Errorf("transcript = %q", transcript)
	}
	if last := transcript[len(transcript)-3]; last != "true quit" {
		t.Errorf("transcript ends %q, want quit", transcript[len(transcript)-3:])
	}
}

func TestLaunchErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := Launch(ctx, Spec{}); err == nil {
		t.Error("empty argv launched")
	}
	if _, err := Launch(ctx, Spec{Argv: []string{"/nonexistent/engine"}}); err == nil || !strings.Contains(err.Error(), "/nonexistent/engine") {
		t.Errorf("missing program: %v", err)
	}
	if _, err := Launch(ctx, Spec{Argv: []string{fakeEngine}, Env: []string{"NOEQUALS"}}); err == nil {
		t.Error("bad env entry accepted")
	}
	if _, err := Launch(ctx, Spec{Argv: []string{fakeEngine}, Dir: "/nonexistent/dir"}); err == nil {
		t.Error("bad dir accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Launch(cctx, Spec{Argv: []string{fakeEngine}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled launch: %v", err)
	}
}

func TestProcessCrash(t *testing.T) {
	p := launch(t, Spec{}, "--crash-after", "2")
	ctx := context.Background()
	for i := range 2 {
		if _, err := p.Do(ctx, "name"); err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	start := time.Now()
	_, err := p.Do(ctx, "name")
	if !errors.Is(err, protocol.ErrEngineExited) {
		t.Fatalf("error = %v, want ErrEngineExited", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	err = p.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("Close = %v, want exit status 3", err)
	}
}

func TestProcessHang(t *testing.T) {
	p := launch(t, Spec{Timeout: 200 * time.Millisecond, GracePeriod: 300 * time.Millisecond}, "--hang-on", "genmove")
	ctx := context.Background()
	start := time.Now()
	_, err := p.Do(ctx, "genmove")
	if !errors.Is(err, protocol.ErrTimeout) {
		t.Fatalf("error = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if _, err := p.Do(ctx, "name"); !errors.Is(err, protocol.ErrTimeout) {
		t.Errorf("after timeout: %v", err)
	}
	start = time.Now()
	err = p.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close = %v, want killed", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	waitGone(t, p.Pid())
}

func TestProcessContextCancel(t *testing.T) {
	p := launch(t, Spec{Timeout: time.Minute, GracePeriod: 200 * time.Millisecond}, "--hang-on", "genmove")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	if _, err := p.Do(ctx, "genmove"); !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestProcessGarbage(t *testing.T) {
	for _, flag := range []string{"--garbage", "--huge-line"} {
		t.Run(flag, func(t *testing.T) {
			p := launch(t, Spec{GracePeriod: 500 * time.Millisecond}, flag)
			start := time.Now()
			_, err := p.Do(context.Background(), "name")
			var pe *protocol.ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("error = %v, want ProtocolError", err)
			}
			if d := time.Since(start); d > 6*time.Second {
				t.Errorf("took %v", d)
			}
			start = time.Now()
			_ = p.Close() // may or may not need a kill; must not hang
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Close took %v", d)
			}
			waitGone(t, p.Pid())
		})
	}
}

func TestProcessSlowStart(t *testing.T) {
	p := launch(t, Spec{Timeout: 100 * time.Millisecond, GracePeriod: 200 * time.Millisecond}, "--slow-start", "2s")
	if _, err := p.Do(context.Background(), "name"); !errors.Is(err, protocol.ErrTimeout) {
		t.Fatalf("error = %v, want ErrTimeout", err)
	}
	p2 := launch(t, Spec{Timeout: 5 * time.Second}, "--slow-start", "300ms")
	if got, err := p2.Do(context.Background(), "name"); err != nil || got != "fakeengine" {
		t.Fatalf("name = %q, %v", got, err)
	}
	if err := p2.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestProcessIgnoreQuit(t *testing.T) {
	p := launch(t, Spec{GracePeriod: 300 * time.Millisecond}, "--ignore-quit")
	if _, err := p.Do(context.Background(), "name"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := p.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close = %v, want killed", err)
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > 5*time.Second {
		t.Errorf("Close took %v, want about the grace period", d)
	}
	waitGone(t, p.Pid())
	if p.CPUTime() <= 0 {
		t.Errorf("CPUTime = %v after kill", p.CPUTime())
	}
}

func TestProcessGroupKill(t *testing.T) {
	for _, hang := range []bool{false, true} {
		t.Run(fmt.Sprintf("hang=%v", hang), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			flags := []string{"--spawn-child", "--child-pid-file", pidFile}
			if hang {
				flags = append(flags, "--hang-on", "genmove")
			}
			// A non-file Stderr makes os/exec copy it through a pipe the
			// grandchild also holds.
			var stderr syncbuf.Buffer
			p := launch(t, Spec{GracePeriod: 300 * time.Millisecond, Stderr: &stderr}, flags...)
			if _, err := p.Do(context.Background(), "name"); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			child, err := strconv.Atoi(string(data))
			if err != nil {
				t.Fatal(err)
			}
			if gone(child) {
				t.Fatalf("grandchild %d not running", child)
			}
			if hang {
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				defer cancel()
				if _, err := p.Do(ctx, "genmove"); !errors.Is(err, protocol.ErrTimeout) {
					t.Fatalf("genmove: %v", err)
				}
			}
			start := time.Now()
			_ = p.Close()
			if d := time.Since(start); d > 6*time.Second {
				t.Errorf("Close took %v", d)
			}
			waitGone(t, p.Pid())
			waitGone(t, child)
		})
	}
}

// An engine that crashes while a grandchild keeps its output open still
// yields ErrEngineExited rather than a timeout.
func TestProcessCrashWithGrandchild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	p := launch(t, Spec{Timeout: 10 * time.Second, GracePeriod: 300 * time.Millisecond},
		"--spawn-child", "--child-pid-file", pidFile, "--crash-after", "1")
	if _, err := p.Do(context.Background(), "name"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := p.Do(context.Background(), "name"); !errors.Is(err, protocol.ErrEngineExited) {
		t.Fatalf("error = %v, want ErrEngineExited", err)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("took %v", d)
	}
	_ = p.Close()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(data))
	waitGone(t, child)
}

func TestProcessCloseDuringDo(t *testing.T) {
	p := launch(t, Spec{Timeout: time.Minute, GracePeriod: 200 * time.Millisecond}, "--hang-on", "genmove")
	errc := make(chan error, 1)
	go func() {
		_, err := p.Do(context.Background(), "genmove")
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	_ = p.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, protocol.ErrEngineExited) {
			t.Errorf("Do during Close: %v, want ErrEngineExited", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Do did not return after Close")
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("Close took %v", d)
	}
}

func TestProcessWithSplitCommand(t *testing.T) {
	argv, err := SplitCommand(JoinCommand([]string{fakeEngine}) + ` --stderr 'two words'`)
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncbuf.Buffer
	p, err := Launch(context.Background(), Spec{Argv: argv, Stderr: &stderr, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Do(context.Background(), "protocol_version"); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if got := stderr.String(); got != "two words\n" {
		t.Errorf("stderr = %q", got)
	}
}

func TestMergeEnv(t *testing.T) {
	got := mergeEnv([]string{"A=1", "B=2", "C=3"}, []string{"B=20", "D=4", "B=21"})
	want := []string{"A=1", "C=3", "B=21", "D=4"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("mergeEnv = %q, want %q", got, want)
	}
}
