package gobot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/protocol"
)

// Serve speaks GTP for e on r and w until quit, the end of r or the end
// of ctx. Every command goes to NewServer's handlers, except lz-analyze
// and kata-analyze, which stream as Leela Zero and KataGo do: "=" (with
// the id), then a line of info records every interval until the next
// line arrives (an empty line too, as Sabaki sends to stop), then an
// empty line that ends the response; the next line is then served as
// usual.
func Serve(ctx context.Context, e *Engine, r io.Reader, w io.Writer) error {
	srv := NewServer(e)
	lines := make(chan lineOrErr)
	done := make(chan struct{})
	defer close(done)
	go readLines(r, lines, done)

	next := func() (lineOrErr, error) {
		select {
		case l := <-lines:
			return l, nil
		case <-ctx.Done():
			return lineOrErr{}, ctx.Err()
		}
	}
	l, err := next()
	for err == nil {
		if l.line != "" {
			cmd, perr := protocol.ParseCommand(l.line)
			if perr == nil && (cmd.Name == "lz-analyze" || cmd.Name == "kata-analyze") {
				if l.err == nil {
					var have bool
					l, have, err = streamAnalysis(ctx, e, cmd, w, lines)
					if err == nil && !have {
						l, err = next()
					}
					continue
				}
			}
			if err := srv.Serve(ctx, strings.NewReader(l.line+"\n"), w); err != nil {
				return err
			}
			if perr == nil && cmd.Name == "quit" {
				return nil
			}
		}
		if l.err != nil {
			if errors.Is(l.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("gobot: reading command: %w", l.err)
		}
		l, err = next()
	}
	return err
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
