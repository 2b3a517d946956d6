package fibs

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// pipeListener hands out one connection, then blocks until closed.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *pipeListener) Addr() net.Addr { return &net.UnixAddr{Name: "pipe", Net: "pipe"} }

// signalConn reports each Write it enters once armed: a Write into a
// net.Pipe whose other end never reads then blocks for certain.
type signalConn struct {
	net.Conn
	armed   atomic.Bool
	writing chan struct{}
}

func (c *signalConn) Write(p []byte) (int, error) {
	if c.armed.Load() {
		select {
		case c.writing <- struct{}{}:
		default:
		}
	}
	return c.Conn.Write(p)
}

// stalledWS is a WebSocket line connection whose peer completed the
// handshake and then stopped reading.
func stalledWS(t *testing.T) (*signalConn, *wsConn) {
	t.Helper()
	local, remote := net.Pipe()
	sc := &signalConn{Conn: local, writing: make(chan struct{}, 1)}
	l := &pipeListener{conns: make(chan net.Conn, 1), done: make(chan struct{})}
	l.conns <- remote
	peerReady := make(chan *websocket.Conn, 1)
	up := websocket.Upgrader{}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err == nil {
			peerReady <- ws // the peer never reads
		}
	})}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	d := websocket.Dialer{NetDialContext: func(context.Context, string, string) (net.Conn, error) { return sc, nil }}
	ws, resp, err := d.Dial("ws://pipe/fibs", nil)
	if err != nil {
		t.Fatalf("handshake over the pipe: %v", err)
	}
	resp.Body.Close()
	peer := <-peerReady
	t.Cleanup(func() { peer.Close() })
	sc.armed.Store(true)
	return sc, NewWSConn(ws).(*wsConn)
}

// A close while a write is blocked on a peer that stopped reading returns
// at once and makes the write fail: closing never waits for the writer.
func TestWSCloseDoesNotWaitForBlockedWriter(t *testing.T) {
	sc, c := stalledWS(t)
	wrote := make(chan error, 1)
	go func() {
		_, err := c.Write([]byte(strings.Repeat("x", 1000) + "\r\n"))
		wrote <- err
	}()
	<-sc.writing // the writer is now inside a Write nobody will read
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close is still waiting for the blocked writer after 10 s")
	}
	select {
	case err := <-wrote:
		if err == nil {
			t.Fatal("the blocked write succeeded after Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the blocked write did not return after Close")
	}
}

// A write deadline makes a write to a peer that stopped reading fail
// instead of blocking for good.
func TestWSWriteDeadline(t *testing.T) {
	_, c := stalledWS(t)
	if err := c.SetWriteDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := c.Write([]byte("hello\r\n"))
		wrote <- err
	}()
	select {
	case err := <-wrote:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("write past the deadline: %v, want a timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write ignored its deadline")
	}
	c.Close()
}
