package server

import (
	"io"
	"log"
	"net"
	"sync"
	"testing"
	"time"
)

// slowConn is a peer that takes its time over every write and refuses
// writes once closed.
type slowConn struct {
	delay time.Duration

	mu      sync.Mutex
	written []string
	closed  chan struct{}
	once    sync.Once
}

func (c *slowConn) Write(p []byte) (int, error) {
	time.Sleep(c.delay)
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.closed:
		return 0, net.ErrClosed
	default:
	}
	c.written = append(c.written, string(p))
	return len(p), nil
}

func (c *slowConn) Read([]byte) (int, error) {
	<-c.closed
	return 0, io.EOF
}

func (c *slowConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// Shutdown closes a connection only once its writer has sent the goodbye,
// however long the write takes within the 2 s it allows, not once the
// line has left the queue.
func TestShutdownWaitsForTheGoodbyeWrite(t *testing.T) {
	s := New(Config{}, nil, log.New(io.Discard, "", 0))
	conn := &slowConn{delay: 300 * time.Millisecond, closed: make(chan struct{})}
	c := &client{srv: s, conn: conn, addr: "test", name: "a", seat: -1, out: make(chan string, 16),
		quit: make(chan struct{}), drain: make(chan struct{}), wrote: make(chan struct{})}
	s.users["a"] = c
	go c.writer()
	s.shutdown()
	conn.mu.Lock()
	defer conn.mu.Unlock()
	if len(conn.written) != 1 || conn.written[0] != "** The server is shutting down. All running games are saved.\r\n" {
		t.Errorf("written before the close: %q", conn.written)
	}
}
