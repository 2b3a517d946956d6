package fibs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// ErrLineTooLong is returned by LineReader.ReadLine for a line longer than
// its limit; the line is skipped and reading can go on.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads the lines of a FIBS connection. A line ends at "\n"
// (a "\r" before it is dropped). A prompt that FIBS sends without a line
// ending ("login: ", "password: ") is returned as a line of its own as soon
// as it is complete, since the server then waits for the client.
type LineReader struct {
	r          io.Reader
	max        int
	buf        []byte
	chunk      []byte
	discarding bool
	err        error
}

// NewLineReader reads lines of at most max bytes (0: MaxLine) from r.
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = MaxLine
	}
	return &LineReader{r: r, max: max, chunk: make([]byte, 4096)}
}

// prompts are sent without a line ending.
var prompts = []string{"login: ", "password: "}

// ReadLine returns the next line without its ending. A line over the limit
// is skipped (up to its end) and reported as ErrLineTooLong; reading may go
// on after it.
func (l *LineReader) ReadLine() (string, error) {
	for {
		if i := bytes.IndexByte(l.buf, '\n'); i >= 0 {
			line := l.buf[:i]
			l.buf = l.buf[i+1:]
			if l.discarding {
				l.discarding = false
				return "", ErrLineTooLong
			}
			if len(line) > l.max {
				return "", ErrLineTooLong
			}
			return strings.TrimSuffix(string(line), "\r"), nil
		}
		if !l.discarding {
			for _, p := range prompts {
				if string(l.buf) == p {
					l.buf = l.buf[:0]
					return p, nil
				}
			}
			if len(l.buf) > l.max {
				l.discarding = true
				l.buf = l.buf[:0]
			}
		} else {
			l.buf = l.buf[:0]
		}
		if l.err != nil {
			if l.discarding {
				l.discarding = false
				return "", ErrLineTooLong
			}
			if len(l.buf) > 0 {
				line := string(l.buf)
				l.buf = l.buf[:0]
				return strings.TrimSuffix(line, "\r"), nil
			}
			return "", l.err
		}
		n, err := l.r.Read(l.chunk)
		l.buf = append(l.buf, l.chunk[:n]...)
		if err != nil {
			l.err = err
		}
	}
}

// wsConn carries lines over a WebSocket: each text frame is one line (or a
// prompt without a line ending), as FIBS-style web clients expect.
type wsConn struct {
	ws      *websocket.Conn
	rmu     sync.Mutex
	pending []byte
	wmu     sync.Mutex
}

// NewWSConn makes a WebSocket connection a byte stream of lines: reading
// returns each text frame followed by "\n"; writing sends each line (and a
// trailing partial line, such as a prompt) as a text frame.
func NewWSConn(ws *websocket.Conn) io.ReadWriteCloser { return &wsConn{ws: ws} }

func (c *wsConn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	for len(c.pending) == 0 {
		typ, data, err := c.ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return 0, io.EOF
			}
			return 0, err
		}
		if typ != websocket.TextMessage && typ != websocket.BinaryMessage {
			continue
		}
		// A frame is a line; a frame ending in a newline already is one.
		if !bytes.HasSuffix(data, []byte("\n")) {
			data = append(data, '\n')
		}
		c.pending = data
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

func (c *wsConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	rest := p
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if err := c.ws.WriteMessage(websocket.TextMessage, line); err != nil {
			return len(p) - len(rest) - len(line), err
		}
	}
	return len(p), nil
}

// SetWriteDeadline bounds the writes that follow, as on a net.Conn: a
// peer that stops reading makes Write fail instead of blocking for good.
func (c *wsConn) SetWriteDeadline(t time.Time) error { return c.ws.SetWriteDeadline(t) }

// SetReadDeadline bounds the reads that follow, as on a net.Conn.
func (c *wsConn) SetReadDeadline(t time.Time) error { return c.ws.SetReadDeadline(t) }

// closeGrace bounds the close frame's write.
const closeGrace = 100 * time.Millisecond

// Close sends a close frame if no write is in progress, then closes the
// socket. It never waits for a blocked writer: closing the socket is what
// makes that writer's Write return.
func (c *wsConn) Close() error {
	if c.wmu.TryLock() {
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(closeGrace))
		c.wmu.Unlock()
	}
	return c.ws.Close()
}

// Dial connects to a FIBS-style server: "tcp://HOST:PORT" (or a bare
// HOST:PORT) for the telnet-style protocol, "ws://HOST:PORT/PATH" or
// "wss://..." for one line per WebSocket text frame. Both give the same
// byte stream of lines.
func Dial(ctx context.Context, server string) (io.ReadWriteCloser, error) {
	if !strings.Contains(server, "://") {
		server = "tcp://" + server
	}
	u, err := url.Parse(server)
	if err != nil {
		return nil, fmt.Errorf("server address %q: %w", server, err)
	}
	switch u.Scheme {
	case "tcp":
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", server, err)
		}
		return c, nil
	case "ws", "wss":
		ws, resp, err := websocket.DefaultDialer.DialContext(ctx, server, nil)
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", server, err)
		}
		return NewWSConn(ws), nil
	}
	return nil, fmt.Errorf("server address %q: scheme %q is not tcp, ws or wss", server, u.Scheme)
}
