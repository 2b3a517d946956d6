package bgammon_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamemill/gamemill/protocol/bgammon"
	"github.com/gamemill/gamemill/protocol/bgammon/bgammontest"
)

// A logged-in client that sends no command of its own stays connected:
// it answers every ping and writes a pong when idle, while a connection
// that stays silent is dropped by the server's deadline.
func TestBgammonClientStaysAlive(t *testing.T) {
	srv, err := bgammontest.Start(bgammontest.Options{PingEvery: 20 * time.Millisecond, IdleTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// One name per connection: the server refuses a name whose previous
	// connection it has not yet seen close.
	for i, addr := range []string{srv.TCPAddr(), srv.WSAddr()} {
		user := fmt.Sprintf("Idle%d", i)
		c, err := bgammon.Connect(context.Background(), addr, bgammon.Login{Client: "t/en", User: user, Password: "x"},
			bgammon.ClientOptions{KeepAlive: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if c.Welcome().Player != strings.ToLower(user) {
			t.Errorf("welcome %+v", c.Welcome())
		}
		deadline := time.After(time.Second)
	drain:
		for {
			select {
			case _, ok := <-c.Events():
				if !ok {
					t.Fatalf("%s: connection lost: %v", addr, c.Err())
				}
			case <-deadline:
				break drain
			}
		}
		if srv.Pongs(strings.ToLower(user)) == 0 {
			t.Errorf("%s: no pong", addr)
		}
		c.Close()
	}

	// The control: a client that logs in and then says nothing.
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.TCPAddr(), "bgammon+tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("loginjson t/en mute x\n")); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	for {
		if _, err := conn.Read(buf); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("a silent client was never dropped")
			}
			break
		}
	}
}

// A refused address scheme and a server that closes before its welcome
// are errors, not hangs.
func TestBgammonConnectErrors(t *testing.T) {
	ctx := context.Background()
	for _, addr := range []string{"tcp://127.0.0.1:1", "bgammon+tcp://127.0.0.1", "bgammon+udp://x:1"} {
		if _, err := bgammon.Connect(ctx, addr, bgammon.Login{}, bgammon.ClientOptions{}); err == nil {
			t.Errorf("%s: connected", addr)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Write([]byte("hello\n{\"Type\":\"notice\",\"Message\":\"Invalid username or password.\"}\n"))
		c.Close()
	}()
	_, err = bgammon.Connect(ctx, "bgammon+tcp://"+ln.Addr().String(), bgammon.Login{User: "a"}, bgammon.ClientOptions{LoginTimeout: 5 * time.Second})
	if !errors.Is(err, bgammon.ErrLoginRefused) || !strings.Contains(err.Error(), "Invalid username") {
		t.Errorf("err = %v", err)
	}
}

// A driver whose login is refused tries again (the server may still hold
// the connection it lost) and gives up after MaxRefusedLogins refusals.
func TestBgammonDriverGivesUpOnRefusedLogins(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var logins atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			logins.Add(1)
			c.Write([]byte("{\"Type\":\"notice\",\"Message\":\"Connection terminated: That username is already in use.\"}\n"))
			c.Close()
		}
	}()
	d := bgammon.NewDriver(bgammon.Options{Server: "bgammon+tcp://" + ln.Addr().String(), Login: bgammon.Login{User: "bot"},
		Policy: bgammon.Policy{Create: 1}, MaxBackoff: time.Millisecond}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = d.Run(ctx)
	if !errors.Is(err, bgammon.ErrLoginRefused) || logins.Load() != bgammon.MaxRefusedLogins {
		t.Fatalf("err = %v after %d logins", err, logins.Load())
	}
}
