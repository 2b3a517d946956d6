package protocol

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// osScripted is scripted over *os.File pipes, whose responses the
// controller reads in Do's own goroutine.
func osScripted(t *testing.T, opts ControllerOptions, reply func(line string) (out string, more bool)) *Controller {
	t.Helper()
	cmdR, cmdW, respR, respW := filePipes(t)
	go fakeEngine(cmdR, respW, reply)
	return NewController(respR, cmdW, opts)
}

// filePipes returns an engine's input (cmdR, cmdW) and output (respR,
// respW) as *os.File pipes, closed when the test ends.
func filePipes(t *testing.T) (cmdR, cmdW, respR, respW *os.File) {
	t.Helper()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err = os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmdW.Close()
		cmdR.Close()
		respR.Close()
		respW.Close()
	})
	return cmdR, cmdW, respR, respW
}

// Over a pipe the controller reads responses itself: no reader goroutine,
// and the transcript sees both directions in order.
func TestControllerDirectRoundTrip(t *testing.T) {
	var transcript []string
	c := osScripted(t, ControllerOptions{SendIDs: true, Transcript: func(sent bool, line string) {
		dir := "<"
		if sent {
			dir = ">"
		}
		transcript = append(transcript, dir+line)
	}}, func(line string) (string, bool) {
		id, name, _ := strings.Cut(line, " ")
		switch name {
		case "fail":
			return "?" + id + " it failed\n\n", true
		case "lines":
			return "=" + id + " one\ntwo\n\n", true
		}
		return "=" + id + " " + name + "\n\n", true
	})
	ctx := context.Background()
	for i := range 50 {
		if got, err := c.Do(ctx, 10*time.Second, "name"); err != nil || got != "name" {
			t.Fatalf("name %d = %q, %v", i, got, err)
		}
	}
	if got, err := c.Do(ctx, 0, "lines"); err != nil || got != "one\ntwo" {
		t.Fatalf("lines = %q, %v", got, err)
	}
	var fe *FailureError
	if _, err := c.Do(ctx, 10*time.Second, "fail"); !errors.As(err, &fe) || fe.Message != "it failed" {
		t.Fatalf("fail: %v", err)
	}
	if got, err := c.Do(ctx, 10*time.Second, "name"); err != nil || got != "name" {
		t.Fatalf("after failure: %q, %v", got, err)
	}
	if c.direct == nil || c.started {
		t.Errorf("direct %v, reader goroutine started %v: want responses read in Do's goroutine", c.direct != nil, c.started)
	}
	if want := []string{">1 name", "<=1 name", "<"}; strings.Join(transcript[:3], "|") != strings.Join(want, "|") {
		t.Errorf("transcript starts %q, want %q", transcript[:3], want)
	}
	if n := len(transcript); transcript[n-3] != ">53 name" {
		t.Errorf("transcript ends %q", transcript[n-3:])
	}
}

// A hanging engine ends Do at the timeout, at a cancelled or expired
// context, and at Close, each with its error, and leaves the controller
// broken.
func TestControllerDirectHangingEngine(t *testing.T) {
	hang := func(line string) (string, bool) {
		if line == "hang" {
			return "", true
		}
		return "= ok\n\n", true
	}
	ctx := context.Background()

	c := osScripted(t, ControllerOptions{}, hang)
	if _, err := c.Do(ctx, 10*time.Second, "ping"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, 100*time.Millisecond, "hang"); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "no response within") {
		t.Fatalf("timeout: %v", err)
	}
	if _, err := c.Do(ctx, 10*time.Second, "ping"); !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrControllerBroken) {
		t.Fatalf("after timeout: %v", err)
	}

	c = osScripted(t, ControllerOptions{}, hang)
	dctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := c.Do(dctx, 0, "hang"); !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("context deadline: %v", err)
	}

	c = osScripted(t, ControllerOptions{}, hang)
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.Do(cctx, 0, "hang"); !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("cancel: %v", err)
	}

	c = osScripted(t, ControllerOptions{}, hang)
	time.AfterFunc(50*time.Millisecond, c.Close)
	if _, err := c.Do(ctx, time.Minute, "hang"); !errors.Is(err, ErrEngineExited) {
		t.Fatalf("close: %v", err)
	}
	if err := c.Err(); !errors.Is(err, ErrEngineExited) {
		t.Errorf("Err() = %v", err)
	}
}

// A context cancelled just as a response arrives never reaches the next
// command: each Do waits for its context's watcher.
func TestControllerDirectCancelRace(t *testing.T) {
	c := osScripted(t, ControllerOptions{}, func(string) (string, bool) { return "= ok\n\n", true })
	for i := range 200 {
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		_, err := c.Do(ctx, 10*time.Second, "ping")
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("call %d: %v", i, err)
		}
		if err != nil {
			c = osScripted(t, ControllerOptions{}, func(string) (string, bool) { return "= ok\n\n", true })
			continue
		}
		if _, err := c.Do(context.Background(), 10*time.Second, "ping"); err != nil {
			t.Fatalf("call %d after a cancelled context: %v", i, err)
		}
	}
}

// Output already read before a command is sent was not asked for; an
// engine that exits ends Do with ErrEngineExited.
func TestControllerDirectUnsolicitedAndExit(t *testing.T) {
	c := osScripted(t, ControllerOptions{}, func(string) (string, bool) { return "= one\n\n= two\n\n", true })
	if got, err := c.Do(context.Background(), 10*time.Second, "name"); err != nil || got != "one" {
		t.Fatalf("first: %q, %v", got, err)
	}
	var pe *ProtocolError
	if _, err := c.Do(context.Background(), 10*time.Second, "name"); !errors.As(err, &pe) || !strings.Contains(pe.Reason, "unsolicited") {
		t.Fatalf("second: %v, want unsolicited ProtocolError", err)
	}

	c = osScripted(t, ControllerOptions{}, func(string) (string, bool) { return "", false })
	if _, err := c.Do(context.Background(), 10*time.Second, "quit"); !errors.Is(err, ErrEngineExited) {
		t.Fatalf("exit: %v", err)
	}
}
