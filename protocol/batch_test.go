package protocol

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// A batch goes out in one write and its replies come back in order, a
// failure response being that command's error, over a pipe (read in the
// caller's goroutine) and over an in-memory pipe (read by the reader
// goroutine); ids are numbered across the batch.
func TestDoAllRepliesInOrder(t *testing.T) {
	reply := func(line string) (string, bool) {
		id, name, _ := strings.Cut(line, " ")
		if name == "fail" {
			return "?" + id + " no\n\n", true
		}
		return "=" + id + " " + name + "\n\n", true
	}
	for _, kind := range []string{"pipe", "memory"} {
		t.Run(kind, func(t *testing.T) {
			var c *Controller
			if kind == "pipe" {
				c = osScripted(t, ControllerOptions{SendIDs: true}, reply)
			} else {
				c = scripted(t, ControllerOptions{SendIDs: true}, reply)
			}
			ctx := context.Background()
			replies, err := c.DoAll(ctx, 10*time.Second, []Command{Cmd("one"), Cmd("fail"), Cmd("three", "x")})
			if err != nil || len(replies) != 3 {
				t.Fatalf("DoAll: %v, %d replies", err, len(replies))
			}
			var fe *FailureError
			if replies[0].Text != "one" || replies[0].Err != nil || !errors.As(replies[1].Err, &fe) || fe.Message != "no" || replies[2].Text != "three x" {
				t.Fatalf("replies %+v", replies)
			}
			if got, err := c.Do(ctx, 10*time.Second, "after"); err != nil || got != "after" {
				t.Fatalf("after the batch: %q, %v", got, err)
			}
			if kind == "pipe" && (c.direct == nil || c.started) {
				t.Errorf("pipe batch not read in the caller's goroutine")
			}
		})
	}
}

// recordingWriter records each Write to its pipe: a batch must be one. It
// takes write deadlines but offers no raw descriptor, so the controller
// writes through its Write.
type recordingWriter struct {
	f      *os.File
	mu     sync.Mutex
	writes []string
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, string(p))
	w.mu.Unlock()
	return w.f.Write(p)
}

func (w *recordingWriter) SetWriteDeadline(t time.Time) error { return w.f.SetWriteDeadline(t) }

func TestDoAllIsOneWrite(t *testing.T) {
	cmdR, cmdW, respR, respW := filePipes(t)
	go fakeEngine(cmdR, respW, func(line string) (string, bool) { return "= " + line + "\n\n", true })
	// A writer that is not the *os.File itself is written through its
	// Write, so the writes can be counted.
	w := &recordingWriter{f: cmdW}
	c := NewController(respR, w, ControllerOptions{})
	replies, err := c.DoAll(context.Background(), 10*time.Second, []Command{Cmd("play", "b", "C3"), Cmd("genmove", "w")})
	if err != nil || len(replies) != 2 || replies[1].Text != "genmove w" {
		t.Fatalf("DoAll: %+v, %v", replies, err)
	}
	if len(w.writes) != 1 || w.writes[0] != "play b C3\ngenmove w\n" {
		t.Errorf("writes %q, want the batch in one", w.writes)
	}
}

// Each reply gets the timeout from the one before it: a batch of slow
// commands, each within the timeout, completes though the batch as a
// whole takes longer; one that hangs times out, the error naming every
// command still unanswered, and the replies before it are returned.
func TestDoAllTimeoutPerReply(t *testing.T) {
	c := osScripted(t, ControllerOptions{}, func(line string) (string, bool) {
		switch line {
		case "slow":
			time.Sleep(120 * time.Millisecond)
		case "hang":
			time.Sleep(time.Hour)
		}
		return "= " + line + "\n\n", true
	})
	ctx := context.Background()
	replies, err := c.DoAll(ctx, 200*time.Millisecond, []Command{Cmd("slow"), Cmd("slow"), Cmd("slow")})
	if err != nil || len(replies) != 3 {
		t.Fatalf("three slow commands: %v, %d replies", err, len(replies))
	}
	replies, err = c.DoAll(ctx, 200*time.Millisecond, []Command{Cmd("quick"), Cmd("hang"), Cmd("after")})
	if !errors.Is(err, ErrTimeout) || len(replies) != 1 || replies[0].Text != "quick" {
		t.Fatalf("hang: %v, replies %+v", err, replies)
	}
	if !strings.Contains(err.Error(), `gtp commands "hang", "after": no response within`) {
		t.Errorf("error %q does not name the unanswered commands", err)
	}
	if _, err := c.Do(ctx, time.Second, "ping"); !errors.Is(err, ErrControllerBroken) {
		t.Errorf("after a timeout: %v, want a broken controller", err)
	}
}

// A bad command in a batch is refused before anything is sent.
func TestDoAllChecksFirst(t *testing.T) {
	sent := make(chan string, 10)
	c := osScripted(t, ControllerOptions{}, func(line string) (string, bool) {
		sent <- line
		return "=\n\n", true
	})
	if _, err := c.DoAll(context.Background(), time.Second, []Command{Cmd("play", "b", "C3"), Cmd("bad#name")}); err == nil {
		t.Fatal("a command with '#' was accepted")
	}
	if _, err := c.Do(context.Background(), time.Second, "ping"); err != nil {
		t.Fatal(err)
	}
	if got := <-sent; got != "ping" {
		t.Errorf("engine first received %q: part of the refused batch went out", got)
	}
}

// An engine that exits in the middle of a batch ends it with
// ErrEngineExited and the replies it gave.
func TestDoAllEngineExits(t *testing.T) {
	c := osScripted(t, ControllerOptions{}, func(line string) (string, bool) {
		if line == "exit" {
			return "", false
		}
		return "= " + line + "\n\n", true
	})
	replies, err := c.DoAll(context.Background(), 10*time.Second, []Command{Cmd("one"), Cmd("exit"), Cmd("three")})
	if !errors.Is(err, ErrEngineExited) || len(replies) != 1 {
		t.Fatalf("exit: %v, %d replies", err, len(replies))
	}
}

// DoAll over a Requester that takes no batches sends the commands one by
// one with the same results.
func TestDoAllFallsBackToDo(t *testing.T) {
	c := osScripted(t, ControllerOptions{}, func(line string) (string, bool) {
		if line == "fail" {
			return "? no\n\n", true
		}
		return "= " + line + "\n\n", true
	})
	var r Requester = onlyDo{c.WithTimeout(10 * time.Second)}
	replies, err := DoAll(context.Background(), r, Cmd("one"), Cmd("fail"), Cmd("three"))
	var fe *FailureError
	if err != nil || len(replies) != 3 || replies[0].Text != "one" || !errors.As(replies[1].Err, &fe) || replies[2].Text != "three" {
		t.Fatalf("replies %+v, %v", replies, err)
	}
}

type onlyDo struct{ r Requester }

func (o onlyDo) Do(ctx context.Context, command string, args ...string) (string, error) {
	return o.r.Do(ctx, command, args...)
}

// The server answers commands that arrived together in one write, so that
// a controller sending a batch is woken once; a command arriving alone is
// answered at once, and so is one followed by a blank line.
func TestServerAnswersBatchInOneWrite(t *testing.T) {
	srv := NewServer("test", "1")
	srv.HandleFunc("echo", func(_ context.Context, args []string) (string, error) { return strings.Join(args, " "), nil })
	cmdR, cmdW := io.Pipe()
	out := &writeLog{ch: make(chan string, 10)}
	go srv.Serve(context.Background(), cmdR, out)
	defer cmdW.Close()

	io.WriteString(cmdW, "echo a\necho b\necho c\n")
	if got := out.next(t); got != "= a\n\n= b\n\n= c\n\n" {
		t.Errorf("batch answered as %q, want one write", got)
	}
	io.WriteString(cmdW, "echo d\n")
	if got := out.next(t); got != "= d\n\n" {
		t.Errorf("single command answered as %q", got)
	}
	io.WriteString(cmdW, "echo e\n\n")
	if got := out.next(t); got != "= e\n\n" {
		t.Errorf("command then blank line answered as %q", got)
	}
	// A trailing blank line is no command: nothing waits behind it.
	io.WriteString(cmdW, "echo f\n# just a comment\n")
	if got := out.next(t); got != "= f\n\n" {
		t.Errorf("command then comment answered as %q", got)
	}
}

// writeLog hands over each Write.
type writeLog struct{ ch chan string }

func (w *writeLog) Write(p []byte) (int, error) {
	w.ch <- string(p)
	return len(p), nil
}

func (w *writeLog) next(t *testing.T) string {
	t.Helper()
	select {
	case s := <-w.ch:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no answer written")
		return ""
	}
}
