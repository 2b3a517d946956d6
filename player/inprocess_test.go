package player

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

func testServer() *protocol.Server {
	s := protocol.NewServer("inbot", "0.1")
	s.HandleFunc("echo", func(_ context.Context, args []string) (string, error) {
		return strings.Join(args, " "), nil
	})
	s.HandleFunc("sleep", func(ctx context.Context, args []string) (string, error) {
		d, err := time.ParseDuration(strings.Join(args, ""))
		if err != nil {
			return "", err
		}
		select {
		case <-time.After(d):
			return "slept", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
	s.HandleFunc("stubborn", func(context.Context, []string) (string, error) {
		time.Sleep(time.Second) // ignores its context
		return "", nil
	})
	return s
}

func TestInProcess(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	p := NewInProcess(testServer(), WithTimeout(10*time.Second), WithTranscript(func(sent bool, line string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, line)
	}))
	ctx := context.Background()
	if got, err := p.Do(ctx, "name"); err != nil || got != "inbot" {
		t.Fatalf("name = %q, %v", got, err)
	}
	if got, err := p.Do(ctx, "echo", "a", "b"); err != nil || got != "a b" {
		t.Fatalf("echo = %q, %v", got, err)
	}
	_, err := p.Do(ctx, "nope")
	var fe *protocol.FailureError
	if !errors.As(err, &fe) {
		t.Fatalf("nope: %v", err)
	}
	if _, err := p.Do(ctx, "sleep", "50ms"); err != nil {
		t.Fatal(err)
	}
	if cpu := p.CPUTime(); cpu < 50*time.Millisecond || cpu > 5*time.Second {
		t.Errorf("CPUTime = %v", cpu)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := p.Do(ctx, "name"); !errors.Is(err, ErrClosed) {
		t.Errorf("Do after Close: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if lines[0] != "name" || lines[1] != "= inbot" {
		t.Errorf("transcript = %q", lines)
	}
}

func TestInProcessTimeout(t *testing.T) {
	p := NewInProcess(testServer(), WithTimeout(50*time.Millisecond))
	_, err := p.Do(context.Background(), "sleep", "10s")
	if !errors.Is(err, protocol.ErrTimeout) {
		t.Fatalf("error = %v, want ErrTimeout", err)
	}
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
}

func TestInProcessStubbornHandler(t *testing.T) {
	p := NewInProcess(testServer(), WithTimeout(50*time.Millisecond), WithGracePeriod(100*time.Millisecond))
	if _, err := p.Do(context.Background(), "stubborn"); !errors.Is(err, protocol.ErrTimeout) {
		t.Fatalf("error = %v", err)
	}
	start := time.Now()
	if err := p.Close(); err == nil {
		t.Error("Close = nil, want error about the stuck handler")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
}

func TestInProcessCloseDuringDo(t *testing.T) {
	p := NewInProcess(testServer())
	errc := make(chan error, 1)
	go func() {
		_, err := p.Do(context.Background(), "sleep", "1h")
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, protocol.ErrEngineExited) {
			t.Errorf("Do: %v, want ErrEngineExited", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Do did not return")
	}
}

func TestInProcessBackgammon(t *testing.T) {
	srv := protocol.NewServer("bg", "1")
	bgcmd.Register(srv, stubBG{})
	p := NewInProcess(srv, WithTimeout(10*time.Second))
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Do(ctx, "set_game", "standard", "5", "crawford"); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Do(ctx, "genmove"); err != nil || got != "8/5 6/5" {
		t.Fatalf("genmove = %q, %v", got, err)
	}
}

type stubBG struct{}

func (stubBG) SetGame(bgcmd.GameRules) error                      { return nil }
func (stubBG) SetPosition(string, string) error                   { return nil }
func (stubBG) GenMove(context.Context) (string, error)            { return "8/5 6/5", nil }
func (stubBG) GenCube(context.Context) (bool, error)              { return false, nil }
func (stubBG) GenTake(context.Context) (backgammon.Answer, error) { return backgammon.Take, nil }
