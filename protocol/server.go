package protocol

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A Handler answers one GTP command. ServeGTP receives the command's
// arguments (without the id and the name) and returns the response text, or
// an error whose text becomes a failure response ("? error text"). The text
// may span several lines; blank lines after the first are dropped and
// control characters removed so that it cannot end the response early.
type Handler interface {
	ServeGTP(ctx context.Context, args []string) (string, error)
}

// HandlerFunc adapts an ordinary function to the [Handler] interface.
type HandlerFunc func(ctx context.Context, args []string) (string, error)

// ServeGTP calls f(ctx, args).
func (f HandlerFunc) ServeGTP(ctx context.Context, args []string) (string, error) {
	return f(ctx, args)
}

// ErrArgs is a convenience error for handlers given the wrong arguments.
var ErrArgs = errors.New("invalid arguments")

// Server is the engine side of a GTP connection: it reads commands,
// dispatches them to the registered handlers one at a time and writes the
// responses.
//
// The built-in commands are protocol_version (answers 2), name, version,
// known_command, list_commands (sorted) and quit (answers, then Serve
// returns). Handle may replace any of them except quit.
type Server struct {
	name    string
	version string

	mu       sync.RWMutex // guards handlers
	handlers map[string]Handler

	runMu sync.Mutex // handlers run one at a time, even across Serve calls

	// MaxLineLength is the longest command line accepted, in bytes; longer
	// lines get a failure response. Zero means DefaultMaxLineLength. Set it
	// before calling Serve.
	MaxLineLength int
}

// NewServer returns a server for an engine with the given name and version
// and the built-in commands registered.
func NewServer(name, version string) *Server {
	s := &Server{name: name, version: version, handlers: map[string]Handler{}}
	s.handlers["protocol_version"] = fixed("2")
	s.handlers["name"] = fixed(name)
	s.handlers["version"] = fixed(version)
	s.handlers["known_command"] = HandlerFunc(func(_ context.Context, args []string) (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%w: known_command takes one command name", ErrArgs)
		}
		if args[0] == "quit" {
			return "true", nil
		}
		s.mu.RLock()
		_, ok := s.handlers[args[0]]
		s.mu.RUnlock()
		return strconv.FormatBool(ok), nil
	})
	s.handlers["list_commands"] = HandlerFunc(func(context.Context, []string) (string, error) {
		return strings.Join(s.Commands(), "\n"), nil
	})
	return s
}

func fixed(text string) Handler {
	return HandlerFunc(func(context.Context, []string) (string, error) { return text, nil })
}

// Handle registers h for the command name, replacing any earlier handler.
// It panics if name is empty, contains white space or control characters,
// is all digits or is "quit", or if h is nil: those are programming errors.
func (s *Server) Handle(name string, h Handler) {
	if h == nil {
		panic("protocol: Handle with nil handler for " + strconv.Quote(name))
	}
	if name == "quit" {
		panic("protocol: the quit command is built in and cannot be replaced")
	}
	if err := checkCommand(name, nil); err != nil {
		panic(fmt.Sprintf("protocol: Handle: %v", err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[name] = h
}

// HandleFunc registers f for the command name; see [Server.Handle].
func (s *Server) HandleFunc(name string, f func(ctx context.Context, args []string) (string, error)) {
	s.Handle(name, HandlerFunc(f))
}

// Commands returns the names of all known commands, quit included, sorted.
func (s *Server) Commands() []string {
	s.mu.RLock()
	names := make([]string, 0, len(s.handlers)+1)
	for n := range s.handlers {
		names = append(names, n)
	}
	s.mu.RUnlock()
	names = append(names, "quit")
	slices.Sort(names)
	return names
}

type serverLine struct {
	line    string
	tooLong bool
	err     error
	// more says that the next command line had already arrived: its
	// response goes out in the same write as this one's, so that a
	// controller sending commands in a batch is woken once.
	more bool
}

// lineWaiting says whether br holds a whole line, read and not yet taken.
func lineWaiting(br *bufio.Reader) bool {
	n := br.Buffered()
	if n == 0 {
		return false
	}
	b, _ := br.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// Serve reads commands from r and writes responses to w until the quit
// command (answered, then Serve returns nil), the end of r (nil), a read or
// write error (returned, wrapped) or the cancellation of ctx (ctx.Err()).
// Lines are preprocessed as GTP requires. When ctx is cancelled while Serve
// waits for input, a goroutine stays blocked reading r until r returns;
// close r to release it.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	maxLine := s.MaxLineLength
	if maxLine <= 0 {
		maxLine = DefaultMaxLineLength
	}
	lines := make(chan serverLine)
	done := make(chan struct{})
	defer close(done)
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			var sl serverLine
			sl.line, sl.err = readLine(br, maxLine)
			if errors.Is(sl.err, errLineTooLong) {
				unfinished := errors.Is(sl.err, errLineTooLongUnfinished)
				sl = serverLine{tooLong: true}
				if unfinished {
					sl.err = skipLine(br)
				}
				if errors.Is(sl.err, io.EOF) {
					sl.err = nil // answer the long line; EOF comes next read
				}
			}
			sl.more = sl.err == nil && lineWaiting(br)
			select {
			case lines <- sl:
			case <-done:
				return
			}
			if sl.err != nil {
				return
			}
		}
	}()

	bw := bufio.NewWriter(w)
	for {
		var sl serverLine
		select {
		case sl = <-lines:
		case <-ctx.Done():
			return ctx.Err()
		}
		if sl.tooLong {
			writeResponse(bw, false, Command{}, fmt.Sprintf("command line longer than %d bytes", maxLine))
		} else if sl.line != "" {
			if s.serveLine(ctx, bw, sl.line) {
				return flush(bw)
			}
		}
		if !sl.more {
			if err := flush(bw); err != nil {
				return err
			}
		}
		if sl.err != nil {
			if errors.Is(sl.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("gtp server: reading command: %w", sl.err)
		}
	}
}

// serveLine handles one raw command line, its response left in bw; quit
// reports the quit command.
func (s *Server) serveLine(ctx context.Context, bw *bufio.Writer, line string) (quit bool) {
	cmd, perr := ParseCommand(line)
	if errors.Is(perr, ErrEmptyLine) {
		return false
	}
	if perr != nil {
		writeResponse(bw, false, cmd, perr.Error())
		return false
	}
	if cmd.Name == "quit" {
		writeResponse(bw, true, cmd, "")
		return true
	}
	s.mu.RLock()
	h, ok := s.handlers[cmd.Name]
	s.mu.RUnlock()
	if !ok {
		writeResponse(bw, false, cmd, "unknown command")
		return false
	}
	text, herr := s.run(ctx, h, cmd)
	if herr != nil {
		msg := herr.Error()
		if strings.TrimSpace(msg) == "" {
			msg = "failed"
		}
		writeResponse(bw, false, cmd, msg)
		return false
	}
	writeResponse(bw, true, cmd, text)
	return false
}

// run calls the handler, turning a panic into an error so that one bad
// handler cannot bring down the process hosting an in-process engine.
func (s *Server) run(ctx context.Context, h Handler, cmd Command) (text string, err error) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			text, err = "", fmt.Errorf("internal error: panic in %s: %v", cmd.Name, p)
		}
	}()
	return h.ServeGTP(ctx, cmd.Args)
}

// writeResponse leaves one response in bw; a write error shows at the
// next flush.
func writeResponse(bw *bufio.Writer, success bool, cmd Command, text string) {
	if success {
		bw.WriteByte('=')
	} else {
		bw.WriteByte('?')
	}
	if cmd.HasID {
		bw.WriteString(strconv.FormatUint(cmd.ID, 10))
	}
	if text = sanitizeText(text); text != "" {
		bw.WriteByte(' ')
		bw.WriteString(text)
	}
	bw.WriteString("\n\n")
}

func flush(bw *bufio.Writer) error {
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gtp server: writing response: %w", err)
	}
	return nil
}
