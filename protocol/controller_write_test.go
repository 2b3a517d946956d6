package protocol

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// blockedPipe returns a controller writing to a pipe that nobody reads,
// so that a long enough command blocks, and reading from one that never
// answers.
func blockedPipe(t *testing.T) *Controller {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inR.Close(); inW.Close(); outR.Close(); outW.Close() })
	return NewController(outR, inW, ControllerOptions{})
}

// A write that blocks (an engine that stopped reading) ends at the
// timeout, at a cancelled context, and at Close, each with its error.
func TestControllerBlockedWrite(t *testing.T) {
	long := strings.Repeat("x", 1<<20) // more than a pipe holds

	c := blockedPipe(t)
	if _, err := c.Do(context.Background(), 200*time.Millisecond, "play", long); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "could not send") {
		t.Errorf("timeout: %v", err)
	}

	c = blockedPipe(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := c.Do(ctx, time.Minute, "play", long); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	c = blockedPipe(t)
	time.AfterFunc(100*time.Millisecond, c.Close)
	if _, err := c.Do(context.Background(), time.Minute, "play", long); !errors.Is(err, ErrEngineExited) {
		t.Errorf("closed: %v", err)
	}
}
