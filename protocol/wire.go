package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMaxLineLength is the longest line, in bytes and without its line
// ending, that a [Controller] or [Server] accepts unless told otherwise.
const DefaultMaxLineLength = 1 << 20

// DefaultMaxResponseLines and DefaultMaxResponseBytes bound one response
// as a whole, so that an engine streaming lines without the blank line
// that ends a response cannot grow the controller without limit. The
// longest legitimate responses (GNU Go's list_commands, about 200 lines;
// a 19x19 showboard, 25) are far below them.
const (
	DefaultMaxResponseLines = 10000
	DefaultMaxResponseBytes = 4 << 20
)

// ErrResponseTooLong is wrapped by the [*ProtocolError] for a response
// over the line count or byte limit of a response.
var ErrResponseTooLong = errors.New("response too long")

// ErrEmptyLine is returned by [ParseCommand] for a line that holds no command
// after preprocessing (empty, white space only or a comment).
var ErrEmptyLine = errors.New("empty command line")

// errLineTooLong is returned by readLine when a line exceeds the limit;
// errLineTooLongUnfinished (which wraps it) when the rest of the line,
// up to its line feed, is still unread.
var (
	errLineTooLong           = errors.New("line too long")
	errLineTooLongUnfinished = fmt.Errorf("%w, rest unread", errLineTooLong)
)

// Command is one parsed GTP command line.
type Command struct {
	HasID bool     // whether the line carried an id
	ID    uint64   // the id, meaningful when HasID
	Name  string   // the command name
	Args  []string // the arguments, split on white space
}

// String formats the command as one GTP line, without the line ending.
func (c Command) String() string {
	var b strings.Builder
	if c.HasID {
		b.WriteString(strconv.FormatUint(c.ID, 10))
		b.WriteByte(' ')
	}
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	return b.String()
}

// Preprocess applies the GTP preprocessing rules to one line (without its
// line feed): it removes control characters other than HT, discards
// everything from the first '#', converts HT to space and trims the result.
// An empty result means the line must be skipped.
func Preprocess(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	clean := true
	for i := 0; i < len(line); i++ {
		if c := line[i]; c < 0x20 || c == 0x7f {
			clean = false
			break
		}
	}
	if !clean {
		var b strings.Builder
		b.Grow(len(line))
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case c == '\t':
				b.WriteByte(' ')
			case c < 0x20 || c == 0x7f:
				// dropped
			default:
				b.WriteByte(c)
			}
		}
		line = b.String()
	}
	return strings.Trim(line, " ")
}

// ParseCommand preprocesses one command line and splits it into an optional
// id, a command name and arguments. It returns [ErrEmptyLine] for a line that
// must be skipped, and an error for a line with an id but no command or with
// an id too large for a uint64.
func ParseCommand(line string) (Command, error) {
	fields := strings.Fields(Preprocess(line))
	if len(fields) == 0 {
		return Command{}, ErrEmptyLine
	}
	var cmd Command
	if isDigits(fields[0]) {
		id, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil {
			return Command{}, fmt.Errorf("invalid command id %q: out of range", fields[0])
		}
		cmd.HasID, cmd.ID = true, id
		fields = fields[1:]
		if len(fields) == 0 {
			return cmd, errors.New("missing command name after id")
		}
	}
	cmd.Name = fields[0]
	if len(fields) > 1 {
		cmd.Args = fields[1:]
	}
	return cmd, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Response is one parsed GTP response.
type Response struct {
	Success bool   // true for "=", false for "?"
	HasID   bool   // whether the response carried an id
	ID      uint64 // the id, meaningful when HasID
	Text    string // the response text; lines joined with "\n"
}

// ReadResponse reads one response from br: optional blank lines, a first
// line starting with "=" or "?", then further lines up to an empty line.
// Lines longer than maxLine bytes (0 means [DefaultMaxLineLength]), NUL
// bytes, other control characters except HT and CR, and invalid UTF-8 are
// reported as a [*ProtocolError], as is a stream that ends inside a response
// (that error also wraps [ErrEngineExited]) and a response of more than
// [DefaultMaxResponseLines] lines or [DefaultMaxResponseBytes] bytes (that
// one wraps [ErrResponseTooLong]). A stream that ends before the
// response starts, or any other read error (a closed pipe), yields an error
// wrapping [ErrEngineExited] and the read error.
func ReadResponse(br *bufio.Reader, maxLine int) (Response, error) {
	return readResponse(br, responseLimits{line: maxLine}, nil)
}

// responseLimits bounds one response: its lines, its line count and its
// bytes (lines and line feeds). Zero fields take the defaults.
type responseLimits struct {
	line, lines, bytes int
}

func (l responseLimits) withDefaults() responseLimits {
	if l.line <= 0 {
		l.line = DefaultMaxLineLength
	}
	if l.lines <= 0 {
		l.lines = DefaultMaxResponseLines
	}
	if l.bytes <= 0 {
		l.bytes = DefaultMaxResponseBytes
	}
	return l
}

func readResponse(br *bufio.Reader, limits responseLimits, onLine func(string)) (Response, error) {
	limits = limits.withDefaults()
	maxLine := limits.line
	var (
		resp    Response
		started bool
		lines   []string
		size    int // bytes kept, line feeds included
	)
	for {
		line, err := readLine(br, maxLine)
		if err != nil {
			switch {
			case errors.Is(err, errLineTooLong):
				return Response{}, &ProtocolError{Reason: fmt.Sprintf("response line longer than %d bytes", maxLine)}
			case errors.Is(err, io.EOF) && badText(line) != "":
				return Response{}, &ProtocolError{Reason: badText(line)}
			case errors.Is(err, io.EOF) && (started || line != ""):
				return Response{}, &ProtocolError{Reason: "response cut short by end of stream", Err: ErrEngineExited}
			case errors.Is(err, io.EOF):
				return Response{}, fmt.Errorf("reading response: %w", ErrEngineExited)
			default:
				return Response{}, fmt.Errorf("reading response: %w (%w)", ErrEngineExited, err)
			}
		}
		line = strings.TrimSuffix(line, "\r")
		if reason := badText(line); reason != "" {
			return Response{}, &ProtocolError{Reason: reason}
		}
		if onLine != nil {
			onLine(line)
		}
		if !started {
			if strings.TrimSpace(line) == "" {
				continue // tolerate blank lines between responses
			}
			var first string
			resp, first, err = parseFirstLine(line)
			if err != nil {
				return Response{}, err
			}
			started = true
			size = len(first) + 1
			lines = append(lines, first)
			continue
		}
		if line == "" {
			resp.Text = strings.Join(lines, "\n")
			return resp, nil
		}
		size += len(line) + 1
		switch {
		case len(lines) >= limits.lines:
			return Response{}, &ProtocolError{Reason: fmt.Sprintf("response longer than %d lines", limits.lines), Err: ErrResponseTooLong}
		case size > limits.bytes:
			return Response{}, &ProtocolError{Reason: fmt.Sprintf("response longer than %d bytes", limits.bytes), Err: ErrResponseTooLong}
		}
		lines = append(lines, line)
	}
}

// parseFirstLine splits "=[id] text" or "?[id] text".
func parseFirstLine(line string) (Response, string, error) {
	var resp Response
	switch line[0] {
	case '=':
		resp.Success = true
	case '?':
	default:
		return Response{}, "", &ProtocolError{Reason: fmt.Sprintf("response does not start with '=' or '?': %s", quoteShort(line))}
	}
	rest := line[1:]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n > 0 && (n == len(rest) || rest[n] == ' ' || rest[n] == '\t') {
		id, err := strconv.ParseUint(rest[:n], 10, 64)
		if err != nil {
			return Response{}, "", &ProtocolError{Reason: fmt.Sprintf("response id %s out of range", quoteShort(rest[:n]))}
		}
		resp.HasID, resp.ID = true, id
		rest = rest[n:]
	}
	if rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		rest = rest[1:]
	}
	return resp, rest, nil
}

// badText says why a response line is not acceptable text, or returns "".
func badText(line string) string {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == 0 {
			return "NUL byte in response"
		}
		if (c < 0x20 && c != '\t') || c == 0x7f {
			return fmt.Sprintf("control character 0x%02x in response", c)
		}
	}
	if !utf8.ValidString(line) {
		return "response is not valid UTF-8 text"
	}
	return ""
}

// quoteShort quotes s for an error message, shortening long text.
func quoteShort(s string) string {
	const max = 80
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// readLine reads one line up to '\n', returning it without the line feed.
// A line longer than max bytes yields errLineTooLong, or
// errLineTooLongUnfinished when the rest of it is still unread. At the end of the stream it returns any partial line together
// with io.EOF.
func readLine(br *bufio.Reader, max int) (string, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		n := len(chunk)
		if err == nil {
			n-- // drop the '\n'
		}
		if len(buf)+n > max {
			if err == nil {
				return "", errLineTooLong
			}
			return "", errLineTooLongUnfinished
		}
		if err == nil {
			if buf == nil {
				return string(chunk[:n]), nil
			}
			buf = append(buf, chunk[:n]...)
			return string(buf), nil
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return string(buf), err
	}
}

// skipLine discards input up to and including the next '\n'.
func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if err == nil {
			return nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

// sanitizeText makes a response text safe to send: CR and other control
// characters except HT and LF are removed and blank lines after the first
// are dropped, so the text can never end the response early.
func sanitizeText(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
		return s
	}
	var b bytes.Buffer
	for i, line := range strings.Split(s, "\n") {
		line = strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' || r == 0x7f {
				return -1
			}
			return r
		}, line)
		if i > 0 {
			if strings.TrimSpace(line) == "" {
				continue // an empty line would end the response
			}
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}
