package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ControllerOptions configures a [Controller]. The zero value is ready to use.
type ControllerOptions struct {
	// Transcript, when set, is called with every line sent (sent == true,
	// without the line feed) and every line received (sent == false,
	// including the empty line that ends a response). Calls never overlap,
	// but received lines may be reported from the controller's reader
	// goroutine, so the hook must not assume it runs in the caller's.
	Transcript func(sent bool, line string)

	// MaxLineLength is the longest response line accepted, in bytes.
	// Zero means DefaultMaxLineLength (1 MiB).
	MaxLineLength int

	// MaxResponseLines and MaxResponseBytes bound one response as a whole
	// (lines, and bytes with line feeds). Zero means
	// DefaultMaxResponseLines and DefaultMaxResponseBytes.
	MaxResponseLines, MaxResponseBytes int

	// SendIDs makes the controller number its commands ("1 name", "2 name",
	// ...) and check that each response echoes the right id. Without it,
	// commands carry no id and a response carrying one is rejected.
	SendIDs bool
}

// Controller is the controller side of a GTP connection: it writes commands
// to the engine's input and reads responses from the engine's output.
//
// A Controller is meant to be used by one goroutine at a time; concurrent
// calls to Do are serialised, never interleaved. After a timeout, a context
// cancellation, a protocol error or a broken channel the controller no
// longer knows which response belongs to which command, so it becomes
// unusable and every later Do returns an error wrapping
// [ErrControllerBroken] and the original error. A failure response ("?")
// leaves it usable.
//
// When the engine's output supports read deadlines (an *os.File pipe), Do
// reads the response itself, in the caller's goroutine, under a deadline
// that the timeout sets and that a cancelled context or Close moves to
// now: a round trip then wakes no other goroutine. Over any other reader
// a background goroutine reads the engine's output so that a hanging
// engine never blocks Do beyond its timeout or context. That goroutine ends
// when the reader returns an error (close the engine's output to release
// it) or, after [Controller.Close] or a fatal error, when it next delivers
// a line.
type Controller struct {
	r    io.Reader
	w    io.Writer
	opts ControllerOptions

	// limits bounds each response and onLine logs its lines (nil without
	// a transcript), whichever goroutine reads them.
	limits responseLimits
	onLine func(string)

	// direct, when set, is r read in Do's goroutine through br (decided
	// at the first Do).
	direct        readDeadliner
	directChecked bool
	br            *bufio.Reader
	rawW          io.Writer      // w written without the file's system-call path; nil when not direct
	reading       atomic.Bool    // Do is reading from direct
	cancelled     sync.WaitGroup // a direct Do's context watcher

	closed atomic.Bool // set by Close

	mu      sync.Mutex // serialises Do
	nextID  uint64
	err     error // sticky fatal error; guarded by mu
	started bool  // reader goroutine running; guarded by mu

	results  chan readResult
	stop     chan struct{}
	stopOnce sync.Once

	logMu sync.Mutex // serialises transcript calls

	writing atomic.Pointer[writeDeadliner] // the writer while Do writes to it with a deadline
	line    []byte                         // the command lines being sent; guarded by mu
}

type readResult struct {
	resp Response
	err  error
}

// NewController returns a controller reading responses from r (the
// engine's standard output) and writing commands to w (its standard input).
func NewController(r io.Reader, w io.Writer, opts ControllerOptions) *Controller {
	if opts.MaxLineLength <= 0 {
		opts.MaxLineLength = DefaultMaxLineLength
	}
	c := &Controller{
		r:       r,
		w:       w,
		opts:    opts,
		nextID:  1,
		results: make(chan readResult, 1),
		stop:    make(chan struct{}),
		limits:  responseLimits{line: opts.MaxLineLength, lines: opts.MaxResponseLines, bytes: opts.MaxResponseBytes},
	}
	if opts.Transcript != nil {
		c.onLine = func(line string) { c.log(false, line) }
	}
	return c
}

// readDeadliner is a reader whose reads a deadline can end (an *os.File
// pipe).
type readDeadliner interface {
	io.Reader
	SetReadDeadline(t time.Time) error
}

// useDirect decides, at the first Do, whether responses are read in Do's
// goroutine: r must take a read deadline (a pipe does; a regular file or
// a terminal may not). c.mu must be held.
func (c *Controller) useDirect() bool {
	if !c.directChecked {
		c.directChecked = true
		if rd, ok := c.r.(readDeadliner); ok && rd.SetReadDeadline(time.Time{}) == nil {
			c.direct = rd
			c.br = bufio.NewReaderSize(rawPipeOf(rd).(io.Reader), 64<<10)
			if _, ok := c.w.(writeDeadliner); ok {
				c.rawW = rawPipeOf(c.w).(io.Writer)
			}
		}
	}
	return c.direct != nil
}

// Err returns the error that made the controller unusable, or nil.
func (c *Controller) Err() error {
	if c.closed.Load() {
		return fmt.Errorf("controller closed: %w", ErrEngineExited)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close marks the controller unusable and lets its reader goroutine end as
// soon as it is not blocked reading. A Do in progress on another goroutine
// returns at once with an error wrapping [ErrEngineExited]; later calls
// return one wrapping [ErrControllerBroken] too. Close does not close the
// reader or the writer, which belong to the caller. It may be called more
// than once and from any goroutine.
func (c *Controller) Close() {
	c.closed.Store(true)
	if w := c.writing.Load(); w != nil {
		(*w).SetWriteDeadline(time.Unix(1, 0)) // ends a blocked write
	}
	if c.reading.Load() {
		c.direct.SetReadDeadline(time.Unix(1, 0)) // ends a blocked read
	}
	c.stopOnce.Do(func() { close(c.stop) })
}

// checkClosed records a Close as the sticky error; c.mu must be held.
func (c *Controller) checkClosed() {
	if c.err == nil && c.closed.Load() {
		c.err = fmt.Errorf("controller closed: %w", ErrEngineExited)
	}
}

func (c *Controller) log(sent bool, line string) {
	if c.opts.Transcript == nil {
		return
	}
	c.logMu.Lock()
	defer c.logMu.Unlock()
	c.opts.Transcript(sent, line)
}

func (c *Controller) readLoop() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	for {
		resp, err := readResponse(br, c.limits, c.onLine)
		select {
		case c.results <- readResult{resp, err}:
		case <-c.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// fail records a fatal error and releases the reader goroutine.
func (c *Controller) fail(err error) error {
	c.err = err
	c.stopOnce.Do(func() { close(c.stop) })
	return err
}

// Do sends one command with its arguments and returns the text of the
// success response: lines joined with "\n", without the "=" indicator, the
// id and the space after them.
//
// timeout bounds the whole exchange (writing and reading); zero means no
// limit other than ctx. The errors are a [*FailureError] for a "?" response,
// a [*ProtocolError] for a malformed one, an error wrapping [ErrTimeout] when
// the timeout or ctx's deadline passes, one wrapping ctx.Err() when ctx is
// cancelled, and one wrapping [ErrEngineExited] when the channel breaks.
// A command name or argument that could not be sent as one GTP line (empty,
// containing control characters or '#', or a name containing white space)
// is rejected without sending anything.
func (c *Controller) Do(ctx context.Context, timeout time.Duration, command string, args ...string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.ready(ctx, command, args); err != nil {
		return "", err
	}
	if c.useDirect() {
		cmds := [1]Command{{Name: command, Args: args}}
		var replies [1]Reply
		if _, err := c.doDirect(ctx, timeout, cmds[:], replies[:]); err != nil {
			return "", err
		}
		return replies[0].Text, replies[0].Err
	}
	return c.doThreaded(ctx, timeout, command, args)
}

// Reply is one command's answer in [Controller.DoAll]: the success text, or
// the *FailureError of a "?" response.
type Reply struct {
	Text string
	Err  error
}

// DoAll sends cmds (their Name and Args; ids are the controller's) in one
// write and returns their replies in order. GTP engines read and answer
// commands in order, so a controller need not wait for one response before
// sending the next command: a batch costs one write and, when the engine
// answers the batch at once, one wait, where Do costs one of each per
// command. Each response gets timeout from the one before it (the first
// from the write), as if the commands were sent one by one. A failure
// response is that command's Reply.Err and the rest of the batch is still
// read; any other error (those of Do) is returned with the replies read
// before it, and leaves the controller unusable. Every command is checked
// before anything is sent.
func (c *Controller) DoAll(ctx context.Context, timeout time.Duration, cmds []Command) ([]Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cmd := range cmds {
		if err := c.ready(ctx, cmd.Name, cmd.Args); err != nil {
			return nil, err
		}
	}
	replies := make([]Reply, len(cmds))
	if len(cmds) == 0 {
		return replies, nil
	}
	if c.useDirect() {
		n, err := c.doDirect(ctx, timeout, cmds, replies)
		return replies[:n], err
	}
	for i, cmd := range cmds {
		text, err := c.doThreaded(ctx, timeout, cmd.Name, cmd.Args)
		var fe *FailureError
		if err != nil && !errors.As(err, &fe) {
			return replies[:i], err
		}
		replies[i] = Reply{Text: text, Err: err}
	}
	return replies, nil
}

// ready checks that command can be sent now; c.mu must be held.
func (c *Controller) ready(ctx context.Context, command string, args []string) error {
	c.checkClosed()
	if c.err != nil {
		return fmt.Errorf("gtp command %q: %w: %w", command, ErrControllerBroken, c.err)
	}
	if err := checkCommand(command, args); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("gtp command %q not sent: %w", command, err)
	}
	return nil
}

// doThreaded is Do through the reader goroutine, for a reader without
// deadlines. c.mu must be held.
func (c *Controller) doThreaded(ctx context.Context, timeout time.Duration, command string, args []string) (string, error) {
	if !c.started {
		c.started = true
		go c.readLoop()
	}

	// Anything already read was not asked for.
	select {
	case res := <-c.results:
		if res.err != nil {
			return "", c.fail(c.contextualise(command, res.err))
		}
		return "", c.fail(&ProtocolError{Command: command, Reason: "unsolicited response before command was sent"})
	default:
	}

	c.line = c.line[:0]
	id := c.appendCommand(command, args)
	line := string(c.line[:len(c.line)-1])

	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}

	c.log(true, line)
	if dw, ok := c.w.(writeDeadliner); ok {
		if err := c.writeWithDeadline(ctx, ctx, dw, timeout, command); err != nil {
			return "", err
		}
	} else if err := c.writeAsync(ctx, expired, timeout, command, line); err != nil {
		return "", err
	}

	var res readResult
	select {

	case res = <-c.results:
	case <-expired:
		return "", c.fail(fmt.Errorf("gtp command %q: no response within %v: %w", command, timeout, ErrTimeout))
	case <-ctx.Done():
		return "", c.fail(ctxError(ctx, command))
	case <-c.stop:
		return "", c.fail(fmt.Errorf("gtp command %q: controller closed: %w", command, ErrEngineExited))
	}
	if res.err != nil {
		return "", c.fail(c.contextualise(command, res.err))
	}
	return c.answer(command, id, res.resp)
}

// appendCommand appends command and args to c.line as one line with its
// line feed, numbered when the controller sends ids, and returns the id.
func (c *Controller) appendCommand(command string, args []string) uint64 {
	id := uint64(0)
	if c.opts.SendIDs {
		id = c.nextID
		c.nextID++
		c.line = strconv.AppendUint(c.line, id, 10)
		c.line = append(c.line, ' ')
	}
	c.line = append(c.line, command...)
	for _, a := range args {
		c.line = append(c.line, ' ')
		c.line = append(c.line, a...)
	}
	c.line = append(c.line, '\n')
	return id
}

// answer checks resp's id against the command's and returns its text,
// or the failure it reports.
func (c *Controller) answer(command string, id uint64, resp Response) (string, error) {
	switch {
	case c.opts.SendIDs && resp.HasID && resp.ID != id:
		return "", c.fail(&ProtocolError{Command: command, Reason: fmt.Sprintf("response id %d does not match command id %d", resp.ID, id)})
	case !c.opts.SendIDs && resp.HasID:
		return "", c.fail(&ProtocolError{Command: command, Reason: fmt.Sprintf("response carries id %d but the command had none", resp.ID)})
	}
	if !resp.Success {
		return "", &FailureError{Command: command, Message: resp.Text}
	}
	return resp.Text, nil
}

// doDirect sends cmds in one write and reads their responses into
// replies, in the calling goroutine, over a reader with deadlines, and
// returns how many it read. c.mu must be held.
func (c *Controller) doDirect(ctx context.Context, timeout time.Duration, cmds []Command, replies []Reply) (int, error) {
	command := cmds[0].Name // names the batch in a write's error
	// Anything already read was not asked for.
	if c.br.Buffered() > 0 {
		return 0, c.fail(&ProtocolError{Command: command, Reason: "unsolicited response before command was sent"})
	}
	var idBuf [4]uint64
	ids := idBuf[:0]
	c.line = c.line[:0]
	for _, cmd := range cmds {
		start := len(c.line)
		ids = append(ids, c.appendCommand(cmd.Name, cmd.Args))
		if c.opts.Transcript != nil {
			c.log(true, string(c.line[start:len(c.line)-1]))
		}
	}
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	if err := c.direct.SetReadDeadline(deadline); err != nil {
		return 0, c.fail(fmt.Errorf("gtp command %q: reading: %w (%w)", command, ErrEngineExited, err))
	}
	c.reading.Store(true)
	defer c.reading.Store(false)
	if ctx.Done() != nil {
		// A cancelled ctx ends the write or the read; its function is
		// waited for, so that it never moves the next command's deadline.
		c.cancelled.Add(1)
		stop := context.AfterFunc(ctx, func() {
			defer c.cancelled.Done()
			if w := c.writing.Load(); w != nil {
				(*w).SetWriteDeadline(time.Unix(1, 0))
			}
			c.direct.SetReadDeadline(time.Unix(1, 0))
		})
		defer func() {
			if stop() {
				c.cancelled.Done()
			}
			c.cancelled.Wait()
		}()
	}

	if dw, ok := c.w.(writeDeadliner); ok {
		if err := c.writeWithDeadline(context.Background(), ctx, dw, timeout, command); err != nil {
			return 0, err
		}
	} else if err := c.writeAsync(ctx, nil, timeout, command, string(c.line[:len(c.line)-1])); err != nil {
		return 0, err
	}
	for i, cmd := range cmds {
		// An engine may answer a batch at once, so a missing answer may be
		// any of those still awaited: errors name them all.
		if c.closed.Load() {
			return i, c.fail(fmt.Errorf("%s: controller closed: %w", awaited(cmds[i:]), ErrEngineExited))
		}
		if i > 0 && timeout > 0 {
			// The engine starts on a command when it has answered the one
			// before: the timeout runs from there.
			if err := c.direct.SetReadDeadline(time.Now().Add(timeout)); err != nil {
				return i, c.fail(fmt.Errorf("%s: reading: %w (%w)", awaited(cmds[i:]), ErrEngineExited, err))
			}
			if ctx.Err() != nil {
				return i, c.fail(ctxErr(ctx, awaited(cmds[i:])))
			}
		}
		resp, err := readResponse(c.br, c.limits, c.onLine)
		if err != nil {
			switch {
			case c.closed.Load():
				return i, c.fail(fmt.Errorf("%s: controller closed: %w", awaited(cmds[i:]), ErrEngineExited))
			case ctx.Err() != nil:
				return i, c.fail(ctxErr(ctx, awaited(cmds[i:])))
			case errors.Is(err, os.ErrDeadlineExceeded):
				return i, c.fail(fmt.Errorf("%s: no response within %v: %w", awaited(cmds[i:]), timeout, ErrTimeout))
			}
			var pe *ProtocolError
			if errors.As(err, &pe) {
				return i, c.fail(c.contextualise(cmd.Name, err))
			}
			return i, c.fail(fmt.Errorf("%s: %w", awaited(cmds[i:]), err))
		}
		text, err := c.answer(cmd.Name, ids[i], resp)
		var fe *FailureError
		if err != nil && !errors.As(err, &fe) {
			return i, err
		}
		replies[i] = Reply{Text: text, Err: err}
	}
	return len(cmds), nil
}

// writeDeadliner is a writer whose writes a deadline can end (an
// *os.File pipe).
type writeDeadliner interface {
	io.Writer
	SetWriteDeadline(t time.Time) error
}

// writeWithDeadline writes c.line (the command lines, each with its line
// feed) in the calling goroutine, the deadline bounding a write that
// blocks (an engine that stopped reading its input).
// A Close moves the deadline to now, and so does a cancelled watch (ctx,
// or context.Background() where the caller watches ctx itself).
func (c *Controller) writeWithDeadline(watch, ctx context.Context, w writeDeadliner, timeout time.Duration, command string) error {
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	if err := w.SetWriteDeadline(deadline); err != nil {
		return c.writeAsync(ctx, nil, timeout, command, string(c.line[:len(c.line)-1]))
	}
	if watch.Done() != nil {
		stop := context.AfterFunc(watch, func() { w.SetWriteDeadline(time.Unix(1, 0)) })
		defer stop()
	}
	c.writing.Store(&w)
	defer c.writing.Store(nil)
	if c.closed.Load() {
		return c.fail(fmt.Errorf("gtp command %q: controller closed: %w", command, ErrEngineExited))
	}
	var err error
	if c.rawW != nil {
		_, err = c.rawW.Write(c.line)
	} else {
		_, err = w.Write(c.line)
	}
	switch {
	case err == nil:
		return nil
	case c.closed.Load():
		return c.fail(fmt.Errorf("gtp command %q: controller closed: %w", command, ErrEngineExited))
	case ctx.Err() != nil:
		return c.fail(ctxError(ctx, command))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return c.fail(fmt.Errorf("gtp command %q: could not send within %v: %w", command, timeout, ErrTimeout))
	}
	return c.fail(fmt.Errorf("gtp command %q: writing: %w (%w)", command, ErrEngineExited, err))
}

// writeAsync writes line from another goroutine, for a writer without
// deadlines, and waits for the write, the timeout, ctx or a Close.
func (c *Controller) writeAsync(ctx context.Context, expired <-chan time.Time, timeout time.Duration, command, line string) error {
	if expired == nil && timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	written := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.w, line+"\n")
		written <- err
	}()
	select {
	case err := <-written:
		if err != nil {
			return c.fail(fmt.Errorf("gtp command %q: writing: %w (%w)", command, ErrEngineExited, err))
		}
	case <-expired:
		return c.fail(fmt.Errorf("gtp command %q: could not send within %v: %w", command, timeout, ErrTimeout))
	case <-ctx.Done():
		return c.fail(ctxError(ctx, command))
	case <-c.stop:
		return c.fail(fmt.Errorf("gtp command %q: controller closed: %w", command, ErrEngineExited))
	}
	return nil
}

// contextualise names the command in an error from the reader.
func (c *Controller) contextualise(command string, err error) error {
	var pe *ProtocolError
	if errors.As(err, &pe) {
		cp := *pe
		cp.Command = command
		return &cp
	}
	return fmt.Errorf("gtp command %q: %w", command, err)
}

func ctxError(ctx context.Context, command string) error {
	return ctxErr(ctx, fmt.Sprintf("gtp command %q", command))
}

// ctxErr is ctx's error for the commands named by what.
func ctxErr(ctx context.Context, what string) error {
	err := ctx.Err()
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w: %w", what, ErrTimeout, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// awaited names, for an error, the commands whose answers are awaited.
func awaited(cmds []Command) string {
	if len(cmds) == 1 {
		return fmt.Sprintf("gtp command %q", cmds[0].Name)
	}
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = strconv.Quote(c.Name)
	}
	return "gtp commands " + strings.Join(names, ", ")
}

// checkCommand rejects a command that cannot be sent as one GTP line.
func checkCommand(command string, args []string) error {
	if command == "" {
		return errors.New("gtp: empty command name")
	}
	if strings.ContainsAny(command, " \t") || isDigits(command) {
		return fmt.Errorf("gtp: invalid command name %q", command)
	}
	if err := checkWord(command); err != nil {
		return fmt.Errorf("gtp: command name %q: %w", command, err)
	}
	for _, a := range args {
		if err := checkWord(a); err != nil {
			return fmt.Errorf("gtp command %q: argument %q: %w", command, a, err)
		}
	}
	return nil
}

func checkWord(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' || c == 0x7f {
			return fmt.Errorf("control character 0x%02x", c)
		}
		if c == '#' {
			return errors.New("'#' would start a comment")
		}
	}
	return nil
}
