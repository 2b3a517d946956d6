package bgammon

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Conn is a line connection to the server: newline-framed over TCP, one
// text frame a line over WebSocket.
type Conn interface {
	ReadLine() (string, error)
	WriteLine(line string) error
	SetReadDeadline(t time.Time) error
	Close() error
}

// Address schemes.
const (
	SchemeTCP = "bgammon+tcp"
	SchemeWS  = "bgammon+ws"
	SchemeWSS = "bgammon+wss"
)

// IsAddress reports whether addr names a bgammon server (one of the
// bgammon+ schemes), as opposed to a FIBS one.
func IsAddress(addr string) bool {
	return strings.HasPrefix(addr, "bgammon+")
}

// Dial connects to addr: bgammon+tcp://HOST:PORT, bgammon+ws://HOST/PATH
// or bgammon+wss://HOST/PATH.
func Dial(ctx context.Context, addr string) (Conn, error) {
	u, err := url.Parse(addr)
	if err != nil {
		return nil, fmt.Errorf("server address %q: %w", addr, err)
	}
	switch u.Scheme {
	case SchemeTCP:
		if u.Port() == "" {
			return nil, fmt.Errorf("server address %q: want bgammon+tcp://HOST:PORT", addr)
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", u.Host, err)
		}
		return &tcpConn{c: c, r: bufio.NewReader(c)}, nil
	case SchemeWS, SchemeWSS:
		ws := *u
		ws.Scheme = strings.TrimPrefix(u.Scheme, "bgammon+")
		if ws.Path == "" {
			ws.Path = "/"
		}
		d := websocket.Dialer{EnableCompression: true, HandshakeTimeout: 30 * time.Second}
		c, resp, err := d.DialContext(ctx, ws.String(), nil)
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", ws.String(), err)
		}
		return &wsConn{c: c}, nil
	}
	return nil, fmt.Errorf("server address %q: want bgammon+tcp://HOST:PORT, bgammon+ws://HOST/PATH or bgammon+wss://HOST/PATH", addr)
}

// NewConn wraps a TCP connection (either end) as newline-framed lines.
func NewConn(c net.Conn) Conn { return &tcpConn{c: c, r: bufio.NewReader(c)} }

// NewWebSocketConn wraps a WebSocket connection (either end): one text
// frame a line.
func NewWebSocketConn(c *websocket.Conn) Conn { return &wsConn{c: c} }

// maxLine bounds one line, so that a server that never sends a newline
// cannot fill memory.
const maxLine = 1 << 20

type tcpConn struct {
	c  net.Conn
	r  *bufio.Reader
	mu sync.Mutex
}

func (t *tcpConn) ReadLine() (string, error) {
	var b []byte
	for {
		chunk, isPrefix, err := t.r.ReadLine()
		if err != nil {
			return "", err
		}
		b = append(b, chunk...)
		if len(b) > maxLine {
			return "", fmt.Errorf("line longer than %d bytes", maxLine)
		}
		if !isPrefix {
			return string(b), nil
		}
	}
}

// LineBuffered reports whether a whole line has arrived and waits to be
// read, so that ReadLine will not block.
func (t *tcpConn) LineBuffered() bool {
	b, _ := t.r.Peek(t.r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

func (t *tcpConn) WriteLine(line string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	_ = t.c.SetWriteDeadline(time.Now().Add(30 * time.Second))
	_, err := t.c.Write([]byte(line + "\n"))
	return err
}

func (t *tcpConn) SetReadDeadline(d time.Time) error { return t.c.SetReadDeadline(d) }
func (t *tcpConn) Close() error                      { return t.c.Close() }

type wsConn struct {
	c       *websocket.Conn
	mu      sync.Mutex
	pending []string
}

func (w *wsConn) ReadLine() (string, error) {
	for len(w.pending) == 0 {
		typ, data, err := w.c.ReadMessage()
		if err != nil {
			return "", err
		}
		if typ != websocket.TextMessage {
			continue
		}
		for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			w.pending = append(w.pending, l)
		}
	}
	l := w.pending[0]
	w.pending = w.pending[1:]
	return l, nil
}

func (w *wsConn) WriteLine(line string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = w.c.SetWriteDeadline(time.Now().Add(30 * time.Second))
	return w.c.WriteMessage(websocket.TextMessage, []byte(line))
}

func (w *wsConn) SetReadDeadline(d time.Time) error { return w.c.SetReadDeadline(d) }
func (w *wsConn) Close() error                      { return w.c.Close() }
