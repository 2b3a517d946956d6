package gobot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/gamemill/gamemill/protocol"
)

// Serve speaks GTP for e on r and w until quit, the end of r or the end
// of ctx. Every command goes to one loop of NewServer's server, except
// lz-analyze and kata-analyze, which stream as Leela Zero and KataGo do:
// "=" (with the id), then a line of info records every interval until
// the next line arrives (an empty line too, as Sabaki sends to stop),
// then an empty line that ends the response; the next line is then
// served as usual.
func Serve(ctx context.Context, e *Engine, r io.Reader, w io.Writer) error {
	lines := make(chan lineOrErr)
	done := make(chan struct{})
	defer close(done)
	go readLines(r, lines, done)

	// The server reads the lines passed on through a pipe; out counts its
	// responses, so that an analysis starts only once every command
	// before it has been answered.
	srv := NewServer(e)
	pr, pw := io.Pipe()
	defer pw.Close()
	out := newResponseCounter(w)
	served := make(chan struct{})
	var serveErr error
	go func() {
		serveErr = srv.Serve(ctx, pr, out)
		pr.CloseWithError(errServerDone) // a line passed on after the end fails at once
		close(served)
	}()
	finish := func() error {
		pw.Close()
		<-served
		return serveErr
	}

	next := func() (lineOrErr, error) {
		select {
		case l := <-lines:
			return l, nil
		case <-ctx.Done():
			return lineOrErr{}, ctx.Err()
		}
	}
	sent := 0 // lines passed on that the server answers
	l, err := next()
	for err == nil {
		if l.line != "" {
			cmd, perr := protocol.ParseCommand(l.line)
			if perr == nil && (cmd.Name == "lz-analyze" || cmd.Name == "kata-analyze") && l.err == nil {
				if err := out.wait(ctx, sent, served); err != nil {
					if errors.Is(err, errServerDone) {
						return finish()
					}
					return err
				}
				var have bool
				l, have, err = streamAnalysis(ctx, e, cmd, w, lines)
				if err == nil && !have {
					l, err = next()
				}
				continue
			}
			if !errors.Is(perr, protocol.ErrEmptyLine) {
				sent++
			}
			if _, werr := io.WriteString(pw, l.line+"\n"); werr != nil {
				return finish()
			}
			if perr == nil && cmd.Name == "quit" {
				return finish()
			}
		}
		if l.err != nil {
			serr := finish()
			if errors.Is(l.err, io.EOF) {
				return serr
			}
			return fmt.Errorf("gobot: reading command: %w", l.err)
		}
		l, err = next()
	}
	return err
}

// errServerDone ends the pipe to a server loop that has returned.
var errServerDone = errors.New("gobot: server loop ended")

// responseCounter passes a server's output on to w and counts the
// responses in it: each ends with an empty line, and none holds one.
type responseCounter struct {
	w io.Writer

	mu      sync.Mutex
	n       int
	lastNL  bool          // the last byte written was a newline
	counted chan struct{} // closed, and replaced, at each response
}

func newResponseCounter(w io.Writer) *responseCounter {
	return &responseCounter{w: w, counted: make(chan struct{})}
}

func (c *responseCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range p[:n] {
		switch {
		case b != '\n':
			c.lastNL = false
		case c.lastNL:
			c.lastNL = false
			c.n++
			close(c.counted)
			c.counted = make(chan struct{})
		default:
			c.lastNL = true
		}
	}
	return n, err
}

// wait waits until want responses have been written, the server loop has
// ended (served closed: errServerDone) or ctx ends.
func (c *responseCounter) wait(ctx context.Context, want int, served <-chan struct{}) error {
	for {
		c.mu.Lock()
		n, counted := c.n, c.counted
		c.mu.Unlock()
		if n >= want {
			return nil
		}
		select {
		case <-counted:
		case <-served:
			return errServerDone
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

type lineOrErr struct {
	line string
	err  error // after line: the end of input or a read error
}

func readLines(r io.Reader, out chan<- lineOrErr, done <-chan struct{}) {
	br := bufio.NewReader(r)
	for {
		s, err := br.ReadString('\n')
		l := lineOrErr{line: strings.TrimRight(s, "\r\n"), err: err}
		select {
		case out <- l:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

// streamAnalysis answers an analysis command and streams its reports
// until the next line, which it returns (have is false when it answered
// a failure at once and read nothing).
func streamAnalysis(ctx context.Context, e *Engine, cmd protocol.Command, w io.Writer, lines <-chan lineOrErr) (l lineOrErr, have bool, err error) {
	id := ""
	if cmd.HasID {
		id = strconv.FormatUint(cmd.ID, 10)
	}
	bw := bufio.NewWriter(w)
	req, err := parseAnalyze(cmd.Name, cmd.Args, e.Game().ToPlay())
	if err != nil {
		fmt.Fprintf(bw, "?%s %v\n\n", id, err)
		return lineOrErr{}, false, bw.Flush()
	}
	fmt.Fprintf(bw, "=%s\n", id)
	if err := bw.Flush(); err != nil {
		return lineOrErr{}, false, err
	}
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	finished := make(chan error, 1)
	go func() {
		finished <- e.Analyze(actx, req.color, req.interval, func(a Analysis) error {
			bw.WriteString(req.format(a, e.Size()))
			bw.WriteByte('\n')
			return bw.Flush()
		})
	}()
	select {
	case l = <-lines:
	case err = <-finished:
		// A write failed: the controller is gone.
		return lineOrErr{}, false, err
	case <-ctx.Done():
	}
	cancel()
	if err := <-finished; err != nil {
		return lineOrErr{}, false, err
	}
	bw.WriteByte('\n')
	if err := bw.Flush(); err != nil {
		return lineOrErr{}, false, err
	}
	return l, true, ctx.Err()
}
