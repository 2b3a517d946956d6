package protocol

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// connect runs srv over a pair of io.Pipes and returns a controller
// talking to it. The pipes are closed when the test ends.
func connect(t *testing.T, srv *Server, opts ControllerOptions) *Controller {
	t.Helper()
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := srv.Serve(context.Background(), cmdR, respW)
		respW.Close()
		done <- err
	}()
	t.Cleanup(func() {
		cmdW.Close()
		respR.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return")
		}
	})
	return NewController(respR, cmdW, opts)
}

// scripted returns a controller talking to a fake engine: for every
// command line received, reply returns the raw bytes to write back (and
// whether to keep going). The fake engine's pipes close when the test ends.
func scripted(t *testing.T, opts ControllerOptions, reply func(line string) (out string, more bool)) *Controller {
	t.Helper()
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	go fakeEngine(cmdR, respW, reply)
	t.Cleanup(func() {
		cmdR.Close()
		cmdW.Close()
		respR.Close()
		respW.Close()
	})
	return NewController(respR, cmdW, opts)
}

// fakeEngine answers each command line read from cmd with reply's bytes
// written to resp, until reply says stop or a pipe ends; it closes resp.
func fakeEngine(cmd io.Reader, resp io.WriteCloser, reply func(line string) (out string, more bool)) {
	defer resp.Close()
	br := bufio.NewReader(cmd)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		out, more := reply(strings.TrimSuffix(line, "\n"))
		if out != "" {
			if _, err := io.WriteString(resp, out); err != nil {
				return
			}
		}
		if !more {
			return
		}
	}
}

func TestControllerRoundTrip(t *testing.T) {
	for _, ids := range []bool{false, true} {
		var mu sync.Mutex
		var transcript []string
		c := connect(t, newTestServer(), ControllerOptions{SendIDs: ids, Transcript: func(sent bool, line string) {
			mu.Lock()
			defer mu.Unlock()
			dir := "<"
			if sent {
				dir = ">"
			}
			transcript = append(transcript, dir+line)
		}})
		ctx := context.Background()
		if got, err := c.Do(ctx, 10*time.Second, "name"); err != nil || got != "testbot" {
			t.Fatalf("name = %q, %v", got, err)
		}
		if got, err := c.Do(ctx, 10*time.Second, "echo", "a", "b c"); err != nil || got != "a b c" {
			t.Fatalf("echo = %q, %v", got, err)
		}
		if got, err := c.Do(ctx, 0, "lines"); err != nil || got != "one\ntwo\nthree" {
			t.Fatalf("lines = %q, %v", got, err)
		}
		_, err := c.Do(ctx, 10*time.Second, "fail")
		var fe *FailureError
		if !errors.As(err, &fe) || fe.Command != "fail" || fe.Message != "it failed" {
			t.Fatalf("fail: error = %#v", err)
		}
		_, err = c.Do(ctx, 10*time.Second, "bogus")
		if !errors.As(err, &fe) || fe.Message != "unknown command" {
			t.Fatalf("bogus: error = %#v", err)
		}
		// Still usable after failures.
		if got, err := c.Do(ctx, 10*time.Second, "protocol_version"); err != nil || got != "2" {
			t.Fatalf("protocol_version = %q, %v", got, err)
		}
		if _, err := c.Do(ctx, 10*time.Second, "quit"); err != nil {
			t.Fatalf("quit: %v", err)
		}
		if _, err := c.Do(ctx, 10*time.Second, "name"); !errors.Is(err, ErrEngineExited) {
			t.Fatalf("after quit: error = %v, want ErrEngineExited", err)
		}
		mu.Lock()
		if ids {
			if transcript[0] != ">1 name" || transcript[1] != "<=1 testbot" || transcript[2] != "<" {
				t.Errorf("transcript starts %q", transcript[:3])
			}
		} else if transcript[0] != ">name" || transcript[1] != "<= testbot" || transcript[2] != "<" {
			t.Errorf("transcript starts %q", transcript[:3])
		}
		mu.Unlock()
	}
}

func TestControllerOverOSPipes(t *testing.T) {
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		err := newTestServer().Serve(context.Background(), cmdR, respW)
		respW.Close()
		done <- err
	}()
	c := NewController(respR, cmdW, ControllerOptions{SendIDs: true})
	ctx := context.Background()
	for i := range 100 {
		want := strings.Repeat("x", i*100)
		if i == 0 {
			want = "-"
		}
		got, err := c.Do(ctx, 5*time.Second, "echo", want)
		if err != nil || got != want {
			t.Fatalf("echo %d: %q, %v", i, got, err)
		}
	}
	cmdW.Close()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := c.Do(ctx, 5*time.Second, "name"); !errors.Is(err, ErrEngineExited) {
		t.Fatalf("after close: %v, want ErrEngineExited", err)
	}
	cmdR.Close()
	respR.Close()
}

func TestControllerTimeoutHangingEngine(t *testing.T) {
	c := scripted(t, ControllerOptions{}, func(line string) (string, bool) {
		if line == "hang" {
			return "", true // never answers
		}
		return "= ok\n\n", true
	})
	ctx := context.Background()
	if _, err := c.Do(ctx, 10*time.Second, "ping"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := c.Do(ctx, 100*time.Millisecond, "hang")
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	// Unusable afterwards, and says why.
	_, err = c.Do(ctx, 10*time.Second, "ping")
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrControllerBroken) {
		t.Fatalf("after timeout: error = %v", err)
	}
	if c.Err() == nil {
		t.Fatal("Err() = nil after timeout")
	}
}

func TestControllerTimeoutEngineNotReading(t *testing.T) {
	// Nobody reads the command pipe: the write itself blocks.
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	defer cmdR.Close()
	defer respW.Close()
	c := NewController(respR, cmdW, ControllerOptions{})
	start := time.Now()
	_, err := c.Do(context.Background(), 100*time.Millisecond, "name")
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestControllerContext(t *testing.T) {
	c := scripted(t, ControllerOptions{}, func(string) (string, bool) { return "", true })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Do(ctx, 0, "name")
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline: error = %v", err)
	}

	c = scripted(t, ControllerOptions{}, func(string) (string, bool) { return "", true })
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.Do(ctx, 0, "name")
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("cancel: error = %v", err)
	}

	// A context cancelled before the call sends nothing and breaks nothing.
	c = connect(t, newTestServer(), ControllerOptions{})
	_, err = c.Do(ctx, 0, "name")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: error = %v", err)
	}
	if got, err := c.Do(context.Background(), 10*time.Second, "name"); err != nil || got != "testbot" {
		t.Fatalf("after cancelled call: %q, %v", got, err)
	}
}

func TestControllerBadResponses(t *testing.T) {
	tests := []struct {
		name   string
		out    string
		opts   ControllerOptions
		exited bool
	}{
		{name: "no indicator", out: "hello\n\n"},
		{name: "nul bytes", out: "= \x00\x00\x00\n\n"},
		{name: "binary", out: "\xff\xfe\x00\x01\x02garbage"},
		{name: "huge line", out: "= " + strings.Repeat("x", 2<<20) + "\n\n"},
		{name: "huge no newline", out: strings.Repeat("=", 3<<20)},
		{name: "limit", out: "= " + strings.Repeat("x", 100) + "\n\n", opts: ControllerOptions{MaxLineLength: 64}},
		{name: "eof mid response", out: "= half", exited: true},
		{name: "id mismatch", out: "=99 ok\n\n", opts: ControllerOptions{SendIDs: true}},
		{name: "unexpected id", out: "=1 ok\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := scripted(t, tt.opts, func(string) (string, bool) { return tt.out, false })
			start := time.Now()
			_, err := c.Do(context.Background(), 5*time.Second, "genmove")
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("error = %v, want ProtocolError", err)
			}
			if pe.Command != "genmove" {
				t.Errorf("Command = %q", pe.Command)
			}
			if tt.exited != errors.Is(err, ErrEngineExited) {
				t.Errorf("error = %v, ErrEngineExited want %v", err, tt.exited)
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v", d)
			}
			_, err2 := c.Do(context.Background(), 10*time.Second, "name")
			if !errors.As(err2, &pe) || !errors.Is(err2, ErrControllerBroken) {
				t.Errorf("second call: error = %v", err2)
			}
		})
	}
}

func TestControllerEarlyEOF(t *testing.T) {
	c := scripted(t, ControllerOptions{}, func(string) (string, bool) { return "", false })
	_, err := c.Do(context.Background(), 5*time.Second, "name")
	if !errors.Is(err, ErrEngineExited) {
		t.Fatalf("error = %v, want ErrEngineExited", err)
	}
	if !strings.Contains(err.Error(), `"name"`) {
		t.Errorf("error %q does not name the command", err)
	}
}

func TestControllerWriteAfterEngineGone(t *testing.T) {
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	cmdR.Close()
	respW.Close()
	c := NewController(respR, cmdW, ControllerOptions{})
	_, err := c.Do(context.Background(), 10*time.Second, "name")
	if !errors.Is(err, ErrEngineExited) {
		t.Fatalf("error = %v, want ErrEngineExited", err)
	}
}

func TestControllerIDs(t *testing.T) {
	var seen []string
	c := scripted(t, ControllerOptions{SendIDs: true}, func(line string) (string, bool) {
		seen = append(seen, line)
		id, _, _ := strings.Cut(line, " ")
		if id == "2" {
			return "= no id\n\n", true // tolerated
		}
		return "=" + id + " ok\n\n", true
	})
	for i := range 3 {
		if _, err := c.Do(context.Background(), 10*time.Second, "name"); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if want := []string{"1 name", "2 name", "3 name"}; strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Errorf("sent %q, want %q", seen, want)
	}
}

func TestControllerUnsolicited(t *testing.T) {
	c := scripted(t, ControllerOptions{}, func(string) (string, bool) { return "= one\n\n= two\n\n", true })
	if got, err := c.Do(context.Background(), 10*time.Second, "name"); err != nil || got != "one" {
		t.Fatalf("first: %q, %v", got, err)
	}
	// Wait until the reader has picked up "two".
	for end := time.Now().Add(5 * time.Second); len(c.results) == 0 && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	_, err := c.Do(context.Background(), 10*time.Second, "name")
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "unsolicited") {
		t.Fatalf("error = %v, want unsolicited ProtocolError", err)
	}
}

func TestControllerRejectsBadCommands(t *testing.T) {
	c := connect(t, newTestServer(), ControllerOptions{})
	bad := [][]string{
		{""},
		{"two words"},
		{"12"},
		{"na\nme"},
		{"echo", "a\nb"},
		{"echo", "#x"},
		{"echo", ""},
		{"echo", "nul\x00"},
	}
	for _, b := range bad {
		if _, err := c.Do(context.Background(), 10*time.Second, b[0], b[1:]...); err == nil {
			t.Errorf("Do(%q) succeeded", b)
		}
	}
	// Rejections do not break the controller.
	if got, err := c.Do(context.Background(), 10*time.Second, "name"); err != nil || got != "testbot" {
		t.Fatalf("name = %q, %v", got, err)
	}
}

func TestControllerClose(t *testing.T) {
	c := connect(t, newTestServer(), ControllerOptions{})
	if _, err := c.Do(context.Background(), 10*time.Second, "name"); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c.Close()
	if _, err := c.Do(context.Background(), 10*time.Second, "name"); !errors.Is(err, ErrControllerBroken) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestControllerCloseDuringDo(t *testing.T) {
	c := scripted(t, ControllerOptions{}, func(string) (string, bool) { return "", true })
	errc := make(chan error, 1)
	go func() {
		_, err := c.Do(context.Background(), 0, "genmove")
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	c.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrEngineExited) {
			t.Errorf("Do: %v, want ErrEngineExited", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Do did not return after Close")
	}
	if err := c.Err(); !errors.Is(err, ErrEngineExited) {
		t.Errorf("Err() = %v", err)
	}
}
