package protocol

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// serveString runs a server over the given input and returns its output.
func serveString(t *testing.T, s *Server, in string) string {
	t.Helper()
	var out bytes.Buffer
	if err := s.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return out.String()
}

func newTestServer() *Server {
	s := NewServer("testbot", "1.2")
	s.HandleFunc("echo", func(_ context.Context, args []string) (string, error) {
		return strings.Join(args, " "), nil
	})
	s.HandleFunc("fail", func(context.Context, []string) (string, error) {
		return "", errors.New("it failed")
	})
	s.HandleFunc("lines", func(context.Context, []string) (string, error) {
		return "one\n\ntwo\r\nthree", nil
	})
	s.HandleFunc("panic", func(context.Context, []string) (string, error) {
		panic("boom")
	})
	return s
}

func TestServerBuiltins(t *testing.T) {
	got := serveString(t, newTestServer(), strings.Join([]string{
		"protocol_version",
		"1 name",
		"2 version",
		"known_command echo",
		"known_command nope",
		"known_command quit",
		"list_commands",
		"quit",
		"name", // never reached
	}, "\n")+"\n")
	want := "= 2\n\n" +
		"=1 testbot\n\n" +
		"=2 1.2\n\n" +
		"= true\n\n" +
		"= false\n\n" +
		"= true\n\n" +
		"= echo\nfail\nknown_command\nlines\nlist_commands\nname\npanic\nprotocol_version\nquit\nversion\n\n" +
		"=\n\n"
	if got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

func TestServerPreprocessingAndErrors(t *testing.T) {
	in := "\n   \n# a comment line\n" +
		"echo\ta  b # trailing comment\n" +
		"\x007 echo x\x01y\r\n" +
		"8 frobnicate\n" +
		"9 fail\n" +
		"fail\n" +
		"10 lines\n" +
		"11 panic\n" +
		"12\n" +
		"11 echo after panic\n"
	got := serveString(t, newTestServer(), in)
	want := "= a b\n\n" +
		"=7 xy\n\n" +
		"?8 unknown command\n\n" +
		"?9 it failed\n\n" +
		"? it failed\n\n" +
		"=10 one\ntwo\nthree\n\n" +
		"?11 internal error: panic in panic: boom\n\n" +
		"?12 missing command name after id\n\n" +
		"=11 after panic\n\n"
	if got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

func TestServerLastLineWithoutNewline(t *testing.T) {
	if got, want := serveString(t, newTestServer(), "echo hi"), "= hi\n\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestServerLongLine(t *testing.T) {
	s := newTestServer()
	s.MaxLineLength = 100
	in := "echo " + strings.Repeat("x", 300) + "\necho ok\n"
	got := serveString(t, s, in)
	want := "? command line longer than 100 bytes\n\n= ok\n\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A line longer than the read buffer.
	got = serveString(t, s, "echo "+strings.Repeat("z", 200000)+"\necho ok\n")
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A long line at the very end, without a newline.
	got = serveString(t, s, "echo "+strings.Repeat("y", 300))
	if want := "? command line longer than 100 bytes\n\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestServerHandleReplaces(t *testing.T) {
	s := NewServer("a", "1")
	s.HandleFunc("name", func(context.Context, []string) (string, error) { return "b", nil })
	if got := serveString(t, s, "name\n"); got != "= b\n\n" {
		t.Errorf("got %q", got)
	}
}

func TestServerHandlePanics(t *testing.T) {
	for _, name := range []string{"", "quit", "two words", "123", "a#b", "new\nline"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Handle(%q) did not panic", name)
				}
			}()
			NewServer("a", "1").HandleFunc(name, func(context.Context, []string) (string, error) { return "", nil })
		}()
	}
}

func TestServerContextCancel(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- NewServer("a", "1").Serve(ctx, r, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestServerWriteError(t *testing.T) {
	err := NewServer("a", "1").Serve(context.Background(), strings.NewReader("name\n"), errWriter{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("Serve = %v, want write error", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("device gone") }

func TestServerReadError(t *testing.T) {
	err := NewServer("a", "1").Serve(context.Background(), errReader{}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "device gone") {
		t.Errorf("Serve = %v, want read error", err)
	}
}

func TestServerHandlersOneAtATime(t *testing.T) {
	s := NewServer("a", "1")
	active := make(chan struct{}, 1)
	s.HandleFunc("work", func(context.Context, []string) (string, error) {
		select {
		case active <- struct{}{}:
		default:
			return "", fmt.Errorf("handlers overlap")
		}
		time.Sleep(5 * time.Millisecond)
		<-active
		return "ok", nil
	})
	in := strings.Repeat("work\n", 5)
	errs := make(chan string, 4)
	for range 4 {
		go func() {
			var out bytes.Buffer
			_ = s.Serve(context.Background(), strings.NewReader(in), &out)
			errs <- out.String()
		}()
	}
	for range 4 {
		if out := <-errs; strings.Contains(out, "?") {
			t.Errorf("handlers overlapped: %q", out)
		}
	}
}
