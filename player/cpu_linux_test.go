package player

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gamemill/gamemill/protocol"
)

// TestProcessCPUSoFar reads a running engine's CPU time between commands:
// the difference of two readings is the CPU of the commands in between,
// and after Close the reading is CPUTime's.
func TestProcessCPUSoFar(t *testing.T) {
	p := launch(t, Spec{})
	ctx := context.Background()
	if _, err := p.Do(ctx, "name"); err != nil {
		t.Fatal(err)
	}
	before, err := p.CPUSoFar()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Do(ctx, "burn", "300ms"); err != nil {
		t.Fatal(err)
	}
	after, err := p.CPUSoFar()
	if err != nil {
		t.Fatal(err)
	}
	// 10 ms ticks, and a busy machine may add a little.
	if d := after - before; d < 280*time.Millisecond || d > 10*time.Second {
		t.Errorf("CPU of burn 300ms read as %v (%v then %v)", d, before, after)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	final, err := p.CPUSoFar()
	if err != nil || final != p.CPUTime() || final < after {
		t.Errorf("after Close: CPUSoFar %v, %v; CPUTime %v; last reading %v", final, err, p.CPUTime(), after)
	}
}

// TestProcessUsable: a failure response leaves an engine usable; a timeout
// and an exit do not.
func TestProcessUsable(t *testing.T) {
	ctx := context.Background()
	p := launch(t, Spec{Timeout: 300 * time.Millisecond}, "--hang-on", "genmove")
	if _, err := p.Do(ctx, "frobnicate"); err == nil {
		t.Fatal("frobnicate answered")
	}
	if !p.Usable() {
		t.Fatal("not usable after a failure response")
	}
	if _, err := p.Do(ctx, "genmove", "b"); !errors.Is(err, protocol.ErrTimeout) {
		t.Fatalf("genmove: %v, want a timeout", err)
	}
	if p.Usable() {
		t.Error("usable after a timeout")
	}

	q := launch(t, Spec{}, "--crash-after", "1")
	q.Do(ctx, "name")
	q.Do(ctx, "name")
	<-q.Exited()
	if q.Usable() {
		t.Error("usable after exiting")
	}
}

func FuzzParseStatCPU(f *testing.F) {
	f.Add([]byte("1234 (bgbot) S 1 1234 1234 0 -1 4194560 1000 0 0 0 15 3 2 1 20 0 5 0 100 0 0"))
	f.Add([]byte("77 (a) b) c) R 1 2 3 4 5 6 7 8 9 10 1 1 0 0 20"))
	f.Add([]byte("1 (x) S 1 2 3"))
	f.Add([]byte("1 (x) S 1 2 3 4 5 6 7 8 9 10 99999999999999999999 0 0 0 0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := parseStatCPU(data)
		if err == nil && d < 0 {
			t.Fatalf("negative cpu time %v from %q", d, data)
		}
	})
}

func TestParseStatCPU(t *testing.T) {
	// utime 15, stime 3, cutime 2, cstime 1: 21 ticks.
	d, err := parseStatCPU([]byte("1234 (my engine) x) S 1 1234 1234 0 -1 4194560 1000 0 0 0 15 3 2 1 20 0 5 0 100 0 0"))
	if err != nil || d != 210*time.Millisecond {
		t.Errorf("parseStatCPU = %v, %v, want 210ms", d, err)
	}
	if _, err := parseStatCPU([]byte("1234 (x) S 1 2")); err == nil {
		t.Error("short line read")
	}
}
