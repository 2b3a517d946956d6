package player

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gamemill/gamemill/protocol"
)

// Spec describes how to start an engine subprocess.
type Spec struct {
	// Argv is the program and its arguments; Argv[0] is looked up in PATH
	// when it contains no slash. Use SplitCommand to get it from a string.
	Argv []string
	// Dir is the working directory; "" means the caller's.
	Dir string
	// Env holds extra KEY=VALUE entries merged over os.Environ(): an entry
	// replaces the inherited variable of the same name.
	Env []string
	// Stderr receives the engine's standard error; nil discards it.
	Stderr io.Writer
	// Timeout bounds each Do; zero means no limit other than Do's context.
	Timeout time.Duration
	// GracePeriod is how long Close lets the engine exit by itself after
	// quit and the closing of its input before killing its process group;
	// zero means DefaultGracePeriod.
	GracePeriod time.Duration
	// Transcript, when set, sees every protocol line sent and received;
	// see protocol.ControllerOptions.Transcript.
	Transcript func(sent bool, line string)

	noCgroup bool // tests: contain the engine without a cgroup
}

// exitGrace is how long Do keeps waiting for the engine's last output after
// the process has exited, before reporting ErrEngineExited; it matters only
// when something else (a grandchild) keeps the engine's output open.
const exitGrace = 200 * time.Millisecond

// killWait bounds how long Close waits for the process after SIGKILL.
const killWait = 3 * time.Second

// Process is an engine running as a subprocess in its own process group.
// It implements Player.
type Process struct {
	spec   Spec
	name   string
	cmd    *exec.Cmd
	pid    int
	ctrl   *protocol.Controller
	stdin  *os.File // our end of the engine's standard input
	stdout *os.File // our end of the engine's standard output

	token      string  // GAMEMILL_ENGINE_TOKEN of the engine and its descendants
	cg         *cgroup // the engine's cgroup, nil when it runs without one
	startTicks uint64  // start time in clock ticks since boot, 0 if unknown
	boot       string  // the boot id startTicks counts from

	exited  chan struct{} // closed once the process has been reaped
	waitErr error         // cmd.Wait's result; read after exited
	cpu     time.Duration // user+system time; read after exited

	doMu    sync.Mutex // held by Do
	closing atomic.Bool

	closeOnce sync.Once
	closeErr  error
}

var _ Player = (*Process)(nil)

// Launch starts the engine described by spec in its own process group,
// with pipes to its standard input and output, and returns at once: it
// does not wait for the engine to be ready (the first Do does, within its
// timeout). ctx bounds the launch only; cancelling it later does not stop
// the engine, Close does.
func Launch(ctx context.Context, spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return nil, errors.New("player: launch: empty command")
	}
	name := filepath.Base(spec.Argv[0])
	for _, kv := range spec.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("player: launch %s: environment entry %q is not KEY=VALUE", name, kv)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("player: launch %s: %w", name, err)
	}
	if spec.GracePeriod <= 0 {
		spec.GracePeriod = DefaultGracePeriod
	}

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("player: launch %s: stdin pipe: %w", name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("player: launch %s: stdout pipe: %w", name, err)
	}

	token, err := newToken()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("player: launch %s: %w", name, err)
	}
	env := mergeEnv(os.Environ(), append(append([]string(nil), spec.Env...), tokenVar+"="+token))
	newCmd := func(cg *cgroup) *exec.Cmd {
		cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
		cmd.Dir = spec.Dir
		cmd.Env = env
		cmd.Stdin = inR
		cmd.Stdout = outW
		if spec.Stderr != nil {
			cmd.Stderr = spec.Stderr
		}
		cmd.SysProcAttr = sysProcAttr(cg)
		// If Stderr is not a file, a goroutine copies it; do not let a
		// grandchild holding the pipe open delay Wait for long.
		cmd.WaitDelay = time.Second
		return cmd
	}
	p := &Process{
		spec:   spec,
		name:   name,
		stdin:  inW,
		stdout: outR,
		token:  token,
		boot:   bootID(),
		exited: make(chan struct{}),
	}
	if !spec.noCgroup {
		p.cg, _ = newCgroup(cgroupPrefix + token) // none where cgroups cannot be made
	}
	// Made before the start: wait closes it once the process has gone.
	p.ctrl = protocol.NewController(outR, inW, protocol.ControllerOptions{Transcript: spec.Transcript})
	err = p.start(newCmd)
	// The child has its own copies of these ends now (or failed to start).
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("player: launch %s: %w", name, err)
	}
	p.pid = p.cmd.Process.Pid
	p.startTicks, _ = processStart(p.pid)
	return p, nil
}

// start starts the engine from a goroutine locked to its OS thread, which
// stays locked until the engine is reaped: the parent-death signal fires
// when the thread that forked the engine exits, and only the death of the
// whole process may end that thread. When starting into the cgroup fails
// (no clone3, no permission to move into it), the engine starts without
// one.
func (p *Process) start(newCmd func(*cgroup) *exec.Cmd) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cmd := newCmd(p.cg)
		err := cmd.Start()
		if err != nil && p.cg != nil {
			p.cg.destroy(0)
			p.cg = nil
			cmd = newCmd(nil)
			err = cmd.Start()
		}
		if err != nil {
			started <- err
			return
		}
		p.cmd = cmd
		started <- nil
		p.wait()
	}()
	return <-started
}

func (p *Process) wait() {
	awaitExit(p.cmd.Process.Pid)
	err := p.cmd.Wait()
	p.waitErr = err
	if ps := p.cmd.ProcessState; ps != nil {
		p.cpu = ps.UserTime() + ps.SystemTime()
	}
	close(p.exited)
	// A Do still waiting for the engine's output (which a grandchild may
	// hold open) ends exitGrace after the exit, with ErrEngineExited.
	time.AfterFunc(exitGrace, p.ctrl.Close)
}

// mergeEnv returns base with extra's KEY=VALUE entries replacing or adding
// to it.
func mergeEnv(base, extra []string) []string {
	if len(extra) == 0 {
		return base
	}
	override := make(map[string]string, len(extra))
	var order []string
	for _, kv := range extra {
		k, _, _ := strings.Cut(kv, "=")
		if _, dup := override[k]; !dup {
			order = append(order, k)
		}
		override[k] = kv
	}
	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := override[k]; !ok {
			env = append(env, kv)
		}
	}
	for _, k := range order {
		env = append(env, override[k])
	}
	return env
}

// Pid returns the engine's process id, which is also its process group id.
func (p *Process) Pid() int { return p.pid }

// Name returns the base name of the engine's program, used in errors.
func (p *Process) Name() string { return p.name }

// Exited returns a channel that is closed once the engine process has
// exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Do sends one command to the engine with the Spec's Timeout and returns
// the success response text. Besides the controller's errors it returns
// ErrEngineExited (wrapped) shortly after the process exits even if a
// grandchild keeps its output open, and ErrClosed once Close has started.
// After any error other than a failure response, the player is unusable
// and should be closed.
func (p *Process) Do(ctx context.Context, command string, args ...string) (string, error) {
	p.doMu.Lock()
	defer p.doMu.Unlock()
	if p.closing.Load() {
		return "", fmt.Errorf("engine %s: %q: %w", p.name, command, ErrClosed)
	}
	text, err := p.ctrl.Do(ctx, p.spec.Timeout, command, args...)
	if err != nil {
		return "", p.commandError(ctx, command, err)
	}
	return text, nil
}

// commandError names the engine in an error from its controller; once the
// process has exited (and was not being closed), it is that exit.
func (p *Process) commandError(ctx context.Context, command string, err error) error {
	if errors.Is(err, protocol.ErrEngineExited) && !p.closing.Load() && isClosed(p.exited) && ctx.Err() == nil {
		return fmt.Errorf("engine %s (pid %d): %q: %w", p.name, p.pid, command, protocol.ErrEngineExited)
	}
	return fmt.Errorf("engine %s (pid %d): %w", p.name, p.pid, err)
}

// DoAll sends cmds in one write and reads their responses in order, each
// with the Spec's Timeout ([protocol.Controller.DoAll]); errors are as for
// Do, a failure response being its command's Reply.Err.
func (p *Process) DoAll(ctx context.Context, cmds []protocol.Command) ([]protocol.Reply, error) {
	p.doMu.Lock()
	defer p.doMu.Unlock()
	if len(cmds) == 0 {
		return nil, nil
	}
	if p.closing.Load() {
		return nil, fmt.Errorf("engine %s: %q: %w", p.name, cmds[0].Name, ErrClosed)
	}
	replies, err := p.ctrl.DoAll(ctx, p.spec.Timeout, cmds)
	for i := range replies {
		if replies[i].Err != nil {
			replies[i].Err = fmt.Errorf("engine %s (pid %d): %w", p.name, p.pid, replies[i].Err)
		}
	}
	if err != nil {
		return replies, p.commandError(ctx, cmds[min(len(replies), len(cmds)-1)].Name, err)
	}
	return replies, nil
}

// Close stops the engine: unless a Do is in progress or the channel is
// broken, it sends quit (waiting at most a second for the answer), then
// closes the engine's input, waits up to the grace period for it to exit,
// and finally kills its whole process group with SIGKILL, which also
// removes any children the engine left behind. It then reaps the process
// and records its CPU time.
//
// Close returns within the grace period plus a few seconds at worst. Its
// error reports an engine that had to be killed or that exited with a
// non-zero status; the engine is stopped either way. Later calls return the
// same error.
func (p *Process) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.close() })
	return p.closeErr
}

func (p *Process) close() error {
	p.closing.Store(true)
	deadline := time.Now().Add(p.spec.GracePeriod)

	// A polite quit, only when nobody else is talking to the engine.
	if p.doMu.TryLock() {
		select {
		case <-p.exited:
		default:
			if p.ctrl.Err() == nil {
				qt := min(p.spec.GracePeriod, maxQuitTimeout)
				ctx, cancel := context.WithTimeout(context.Background(), qt)
				_, _ = p.ctrl.Do(ctx, qt, "quit")
				cancel()
			}
		}
		p.doMu.Unlock()
	}
	// A Do in progress on another goroutine returns ErrEngineExited now.
	p.ctrl.Close()
	p.stdin.Close()

	var killed bool
	t := time.NewTimer(time.Until(deadline))
	select {
	case <-p.exited:
	case <-t.C:
		killed = true
	}
	t.Stop()
	// Kill the group even when the leader has exited: its children may
	// still be running.
	if err := killGroup(p.pid); err != nil && !errors.Is(err, syscall.ESRCH) && killed {
		return fmt.Errorf("engine %s (pid %d): kill process group: %w", p.name, p.pid, err)
	}
	// Then whatever left the group (setsid): the cgroup holds it, or the
	// token it inherited names it.
	var leftErr error
	if p.cg != nil {
		leftErr = p.cg.destroy(killWait)
	} else {
		killTokenHolders(p.token)
	}
	t = time.NewTimer(killWait)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		p.stdout.Close()
		return fmt.Errorf("engine %s (pid %d): still not reaped %v after SIGKILL", p.name, p.pid, killWait)
	}
	p.stdout.Close()
	if leftErr != nil {
		return fmt.Errorf("engine %s (pid %d): %w", p.name, p.pid, leftErr)
	}

	if killed {
		return fmt.Errorf("engine %s (pid %d): did not exit within %v of quit; killed", p.name, p.pid, p.spec.GracePeriod)
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return fmt.Errorf("engine %s (pid %d): %w", p.name, p.pid, p.waitErr)
	}
	return nil
}

// CPUTime returns the user plus system CPU time of the engine process (not
// of any children it did not wait for). It is zero until the process has
// exited and been reaped, which Close guarantees.
func (p *Process) CPUTime() time.Duration {
	select {
	case <-p.exited:
		return p.cpu
	default:
		return 0
	}
}

// CPUSoFar returns the CPU time the engine process has used up to now,
// counted as CPUTime counts it, while it runs too: the difference of two
// readings is what it used in between (a game, for an engine kept between
// games). While the process runs the figure comes from /proc, to 10 ms;
// after it has been reaped it is CPUTime's. Elsewhere than Linux a running
// process gives an error.
func (p *Process) CPUSoFar() (time.Duration, error) {
	select {
	case <-p.exited:
		return p.cpu, nil
	default:
	}
	cpu, err := processCPU(p.pid)
	if err != nil {
		select {
		case <-p.exited: // reaped while we read
			return p.cpu, nil
		default:
		}
		return 0, fmt.Errorf("engine %s (pid %d): cpu time: %w", p.name, p.pid, err)
	}
	return cpu, nil
}

// Usable says whether the engine can take another command: it has not
// exited, Close has not started, and no error has broken the channel (a
// timeout, a malformed response, a closed pipe; a failure response leaves
// it usable).
func (p *Process) Usable() bool {
	select {
	case <-p.exited:
		return false
	default:
	}
	return !p.closing.Load() && p.ctrl.Err() == nil
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// newToken returns a random token naming one engine's descendants.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
