// Package gnubg runs GNU Backgammon as a Gamemill player.
//
// Launch starts "gnubg -t -q -r" in its own process group, pipes in the
// evaluation settings and "external 127.0.0.1:PORT", and connects to gnubg's
// external interface on that loopback port. The returned Player speaks
// Gamemill's backgammon command set (package protocol) through an
// in-process protocol server whose engine translates every decision into one
// request to gnubg: it decodes the state from set_position's IDs, writes the
// FIBS board string of the player who must decide (package fibsboard), sends
// it with the jacobyrule, crawfordrule and beavers words that fit the rules,
// and translates gnubg's answer back. Every answer is checked against the
// rules (gnubg's moves with backgammon.State.ParseMove); an answer that is
// not legal becomes a failure response.
//
// Errors. A failure response ("? ...") means gnubg answered, but wrongly or
// with an error of its own; the connection stays usable. When gnubg does not
// answer in time (Options.Timeout, or the deadline of Do's context) Do
// returns an error wrapping protocol.ErrTimeout; when gnubg exits or its
// socket breaks, one wrapping protocol.ErrEngineExited. After either the
// player is unusable: every later Do fails at once with the same error.
//
// The external interface cannot offer or answer resignations (gnubg 1.07
// accepts every resignation), and it knows only the standard variant.
package gnubg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gamemill/gamemill/internal/progpath"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// MaxPlies is the deepest evaluation Options.Plies may ask for.
const MaxPlies = 7

// DefaultStartTimeout bounds Launch when Options.StartTimeout is zero.
const DefaultStartTimeout = 30 * time.Second

// killWait bounds how long Close waits for gnubg to be reaped after SIGKILL.
const killWait = 2 * time.Second

// portAttempts is how many loopback ports Launch tries before giving up.
const portAttempts = 5

// Options configure a gnubg player.
type Options struct {
	// Binary is the gnubg program; "" means "gnubg" on PATH or in
	// /usr/games (FindBinary).
	Binary string
	// Dir is gnubg's working directory; "" means the caller's.
	Dir string
	// Env holds extra KEY=VALUE entries for gnubg's environment, merged
	// over os.Environ() (an entry replaces the inherited variable).
	Env []string
	// Plies is the evaluation depth for chequer play and cube decisions,
	// 0..MaxPlies (gnubg's own default, 2, is not used: 0 means 0-ply).
	Plies int
	// Noise is the standard deviation of the noise gnubg adds to its
	// evaluations, in equity (0: none).
	Noise float64
	// DeterministicNoise makes the noise a function of the position
	// (gnubg's "deterministic" noise), so that gnubg plays the same
	// position the same way every time.
	DeterministicNoise bool
	// Seed seeds gnubg's random generator ("set seed"), which its
	// non-deterministic noise draws from.
	Seed int64
	// Stderr receives gnubg's standard error; nil discards it. Its
	// standard output (banner and progress messages) is discarded, but its
	// last lines appear in launch errors.
	Stderr io.Writer
	// Timeout bounds each decision (each Do); zero means no limit other
	// than Do's context.
	Timeout time.Duration
	// StartTimeout bounds the start: from launching gnubg to a working
	// connection; zero means DefaultStartTimeout. Launch's context bounds
	// it too.
	StartTimeout time.Duration
	// Transcript, when set, sees every line of our protocol (the GTP
	// commands and responses that Do exchanges); see
	// protocol.ControllerOptions.Transcript.
	Transcript func(sent bool, line string)
	// ExternalTranscript, when set, sees every line exchanged with gnubg's
	// external interface (sent == true for our requests). It is called
	// from the goroutine that serves the protocol.
	ExternalTranscript func(sent bool, line string)
}

func (o *Options) validate() error {
	if o.Plies < 0 || o.Plies > MaxPlies {
		return fmt.Errorf("gnubg: plies %d out of range 0..%d", o.Plies, MaxPlies)
	}
	if !(o.Noise >= 0) || o.Noise > 10 {
		return fmt.Errorf("gnubg: noise %v out of range 0..10", o.Noise)
	}
	if o.Timeout < 0 || o.StartTimeout < 0 {
		return errors.New("gnubg: negative timeout")
	}
	return nil
}

// script is what Launch pipes into gnubg's standard input.
func (o *Options) script(port int) string {
	var b strings.Builder
	onOff := func(v bool) string {
		if v {
			return "on"
		}
		return "off"
	}
	fmt.Fprintf(&b, "set display off\n")
	fmt.Fprintf(&b, "set seed %d\n", o.Seed)
	for _, kind := range []string{"chequerplay", "cubedecision"} {
		fmt.Fprintf(&b, "set evaluation %s evaluation plies %d\n", kind, o.Plies)
		fmt.Fprintf(&b, "set evaluation %s evaluation cubeful on\n", kind)
		fmt.Fprintf(&b, "set evaluation %s evaluation noise %s\n", kind, strconv.FormatFloat(o.Noise, 'f', -1, 64))
		fmt.Fprintf(&b, "set evaluation %s evaluation deterministic %s\n", kind, onOff(o.DeterministicNoise))
	}
	fmt.Fprintf(&b, "external 127.0.0.1:%d\n", port)
	return b.String()
}

// Player is gnubg running as a Gamemill player. It implements
// player.Player.
type Player struct {
	opts   Options
	cmd    *exec.Cmd
	pid    int
	port   int
	eng    *engine
	inproc *player.InProcess
	tail   *tailBuffer

	exited  chan struct{} // closed once gnubg has been reaped
	waitErr error         // cmd.Wait's result; read after exited
	cpu     time.Duration // gnubg's user+system time; read after exited

	closing   atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ player.Player = (*Player)(nil)

// Launch starts gnubg, connects to its external interface and returns the
// player. It returns once gnubg answers on the socket, or fails within the
// start timeout or when ctx ends; ctx bounds the launch only, Close stops
// gnubg. If gnubg cannot bind the loopback port Launch picked (another
// program took it meanwhile), it tries another.
func Launch(ctx context.Context, o Options) (*Player, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	bin, err := FindBinary(o.Binary)
	if err != nil {
		return nil, err
	}
	st := o.StartTimeout
	if st == 0 {
		st = DefaultStartTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, st)
	defer cancel()
	var lastErr error
	for range portAttempts {
		p, retry, err := launchOnce(ctx, bin, o)
		if err == nil {
			return p, nil
		}
		lastErr = err
		if !retry || ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

// FindBinary returns the gnubg program to run: bin itself when it is a
// path, else bin (or "gnubg" when bin is "") on PATH or in /usr/games
// (package progpath).
func FindBinary(bin string) (string, error) {
	if bin == "" {
		bin = "gnubg"
	}
	p, err := progpath.Find(bin)
	if err != nil {
		return "", fmt.Errorf("gnubg: %w (install it: apt-get install gnubg)", err)
	}
	return p, nil
}

// freePort asks the kernel for a free loopback port. Another program may
// take it before gnubg binds it; Launch then tries again.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("gnubg: finding a free port: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return 0, fmt.Errorf("gnubg: finding a free port: %w", err)
	}
	return port, nil
}

// launchOnce starts gnubg on one port. retry reports a failure that another
// port may cure.
func launchOnce(ctx context.Context, bin string, o Options) (p *Player, retry bool, err error) {
	port, err := freePort()
	if err != nil {
		return nil, false, err
	}
	tail := &tailBuffer{max: 2048}
	cmd := exec.Command(bin, "-t", "-q", "-r")
	cmd.Stdin = strings.NewReader(o.script(port))
	cmd.Stdout = tail
	if o.Stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, o.Stderr)
	} else {
		cmd.Stderr = tail
	}
	cmd.Dir = o.Dir
	if len(o.Env) > 0 {
		cmd.Env = append(os.Environ(), o.Env...)
	}
	cmd.SysProcAttr = sysProcAttr()
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("gnubg: starting %s: %w", bin, err)
	}
	p = &Player{opts: o, cmd: cmd, pid: cmd.Process.Pid, port: port, tail: tail, exited: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		if ps := cmd.ProcessState; ps != nil {
			p.cpu = ps.UserTime() + ps.SystemTime()
		}
		p.waitErr = err
		close(p.exited)
	}()
	conn, err := p.dial(ctx)
	if err != nil {
		exited := false
		select {
		case <-p.exited:
			exited = true
		default:
		}
		p.kill()
		out := tail.String()
		retry = exited && strings.Contains(out, "in use")
		if exited {
			return nil, retry, fmt.Errorf("gnubg: exited before accepting a connection on 127.0.0.1:%d (%v): %w; its output ends: %q",
				port, p.waitErr, protocol.ErrEngineExited, lastLines(out, 3))
		}
		return nil, false, fmt.Errorf("gnubg: connecting to 127.0.0.1:%d: %w", port, err)
	}
	p.eng = newEngine(conn, o)
	srv := protocol.NewServer("gnubg", "external")
	bgcmd.Register(srv, p.eng)
	inOpts := []player.InProcessOption{player.WithGracePeriod(killWait)}
	if o.Transcript != nil {
		inOpts = append(inOpts, player.WithTranscript(o.Transcript))
	}
	p.inproc = player.NewInProcess(srv, inOpts...)
	return p, false, nil
}

// dial connects to gnubg, retrying while it starts, until ctx ends or gnubg
// exits.
func (p *Player) dial(ctx context.Context) (net.Conn, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(p.port))
	wait := 5 * time.Millisecond
	var d net.Dialer
	for {
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		conn, err := d.DialContext(dctx, "tcp", addr)
		cancel()
		if err == nil {
			return conn, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		case <-p.exited:
			t.Stop()
			return nil, protocol.ErrEngineExited
		case <-t.C:
		}
		// Keep polling often: a refused dial on loopback costs microseconds,
		// and gnubg takes about 0.1 s to start listening.
		wait = min(2*wait, 10*time.Millisecond)
	}
}

// kill kills gnubg's process group and waits (briefly) until it is reaped.
func (p *Player) kill() error {
	if err := killGroup(p.pid); err != nil && !errors.Is(err, syscall.ESRCH) {
		_ = p.cmd.Process.Kill()
	}
	t := time.NewTimer(killWait)
	defer t.Stop()
	select {
	case <-p.exited:
		return nil
	case <-t.C:
		return fmt.Errorf("gnubg: process %d not reaped %v after SIGKILL", p.pid, killWait)
	}
}

// Do sends one command of our protocol and returns the success response
// text. Errors are wrapped with "gnubg": *protocol.FailureError for a
// failure response (including an illegal answer from gnubg), and errors
// wrapping protocol.ErrTimeout or protocol.ErrEngineExited when gnubg did
// not answer in time or went away, player.ErrClosed once Close has started.
func (p *Player) Do(ctx context.Context, command string, args ...string) (string, error) {
	return p.eng.Do(ctx, "gnubg", p.closing.Load, p.opts.Timeout, p.inproc, command, args...)
}

// Close stops gnubg: it closes the socket, kills gnubg's process group with
// SIGKILL, reaps it and stops the in-process server. It returns within a
// few seconds whatever state gnubg is in, and is safe to call more than
// once and while a Do is in progress (which then fails). Its error reports
// only a process that could not be reaped or a server that did not stop.
func (p *Player) Close() error {
	p.closeOnce.Do(func() {
		p.closing.Store(true)
		p.eng.shutdown()
		kerr := p.kill()
		ierr := p.inproc.Close()
		p.closeErr = errors.Join(kerr, ierr)
	})
	return p.closeErr
}

// CPUTime returns the user plus system CPU time of the gnubg process, read
// from its process state once it has been reaped. It is zero before Close
// (or before gnubg exits by itself); the adapter's own work in this
// process is not counted.
func (p *Player) CPUTime() time.Duration {
	select {
	case <-p.exited:
		return p.cpu
	default:
		return 0
	}
}

// Pid returns gnubg's process id, which is also its process group id.
func (p *Player) Pid() int { return p.pid }

// Port returns the loopback port of gnubg's external interface.
func (p *Player) Port() int { return p.port }

// Exited returns a channel closed once gnubg has exited and been reaped.
func (p *Player) Exited() <-chan struct{} { return p.exited }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// lastLines returns the last n non-blank lines of s, joined by " | ".
func lastLines(s string, n int) string {
	var out []string
	lines := bytes.Split([]byte(s), []byte("\n"))
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if l := strings.TrimSpace(string(lines[i])); l != "" {
			out = append([]string{l}, out...)
		}
	}
	return strings.Join(out, " | ")
}
