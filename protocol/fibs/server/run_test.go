package server

import (
	"context"
	"io"
	"log"
	"net"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gamemill/gamemill/protocol/fibs/server/servertest"
)

// Run serves until its context ends; then it has saved the match in
// progress, told the players, ended every connection (TCP and WebSocket)
// and closed its listeners, so the caller may close the store.
func TestRunStopsWithItsContext(t *testing.T) {
	st, err := OpenStore(filepath.Join(t.TempDir(), "fibsd.db"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, u := range []string{"a", "b", "c"} {
		if err := st.AddUser(u, "p"+u); err != nil {
			t.Fatal(err)
		}
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Config{Records: t.TempDir()}, st, log.New(io.Discard, "", 0))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, tcp, ws) }()

	a, b := servertest.Dial(t, tcp.Addr().String()), servertest.Dial(t, tcp.Addr().String())
	a.Login("a")
	b.Login("b")
	servertest.Invite(a, b, 5)
	b.Until("board:")
	web, err := dialWS(t, ws.Addr().String(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	web.Login("c")

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run still serving 20 s after its context ended")
	}
	a.Until("** The server is shutting down. All running games are saved.")
	b.Until("** The server is shutting down. All running games are saved.")
	srv.mu.Lock()
	conns := srv.conns
	srv.mu.Unlock()
	if conns != 0 {
		t.Fatalf("%d connections still counted after Run returned", conns)
	}
	if sv, err := st.loadSaved("a", "b"); err != nil || sv == nil {
		t.Fatalf("the match in progress was not saved: %v", err)
	}
	for _, l := range []net.Listener{tcp, ws} {
		if c, err := net.Dial("tcp", l.Addr().String()); err == nil {
			c.Close()
			t.Fatalf("%s still accepts connections after Run returned", l.Addr())
		}
	}
}
