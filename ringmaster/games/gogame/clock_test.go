package gogame

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

const s = time.Second

// TestClockCanadian follows a clock of 10 s main time then 5 s for 2
// moves, move by move: what time_left says before each answer and whether
// the flag falls after it.
func TestClockCanadian(t *testing.T) {
	c := newClock(TimeControl{Main: 10 * s, Overtime: 5 * s, Stones: 2, Margin: 500 * time.Millisecond})
	for i, step := range []struct {
		took         time.Duration
		secs, stones int // time_left before the answer
		flag         bool
		want         string // the clock after it
	}{
		{took: 4 * s, secs: 10, stones: 0, want: "6.0s"},
		{took: 7 * s, secs: 6, stones: 0, want: "4.0s for 1 moves"}, // 1 s into the first period, 1 of its 2 moves played
		{took: 4 * s, secs: 4, stones: 1, want: "5.0s for 2 moves"}, // the period's moves done: a new period
		{took: 5*s + 400*time.Millisecond, secs: 5, stones: 2, want: "0.0s for 1 moves"},
		{took: 100 * time.Millisecond, secs: 0, stones: 1, want: "5.0s for 2 moves"}, // within the margin: no credit, no flag
		{took: 5*s + 600*time.Millisecond, secs: 5, stones: 2, flag: true},
	} {
		secs, stones := c.timeLeft()
		if secs != step.secs || stones != step.stones {
			t.Fatalf("step %d: time_left %d %d, want %d %d", i, secs, stones, step.secs, step.stones)
		}
		if got := c.charge(step.took); got != step.flag {
			t.Fatalf("step %d: flag %v, want %v", i, got, step.flag)
		}
		if !step.flag && c.String() != step.want {
			t.Fatalf("step %d: clock %s, want %s", i, c, step.want)
		}
	}
	if c.thinks != 6 || c.longest != 7*s {
		t.Errorf("%d thinks, longest %v", c.thinks, c.longest)
	}
}

// TestClockAbsolute: without overtime the flag falls once main time and
// the margin are spent.
func TestClockAbsolute(t *testing.T) {
	c := newClock(TimeControl{Main: 2 * s, Margin: 500 * time.Millisecond})
	if c.charge(2*s + 400*time.Millisecond) {
		t.Fatal("flag fell within the margin")
	}
	if secs, stones := c.timeLeft(); secs != 0 || stones != 0 {
		t.Fatalf("time_left %d %d, want 0 0", secs, stones)
	}
	if !c.charge(600 * time.Millisecond) {
		t.Fatal("no flag fall past the margin")
	}
}

// TestClockByoYomiOnly: main time 0 starts in overtime.
func TestClockByoYomiOnly(t *testing.T) {
	c := newClock(TimeControl{Overtime: 3 * s, Stones: 1, Margin: 0})
	for range 5 {
		if secs, stones := c.timeLeft(); secs != 3 || stones != 1 {
			t.Fatalf("time_left %d %d, want 3 1", secs, stones)
		}
		if c.charge(2 * s) {
			t.Fatal("flag fell inside the period")
		}
	}
	if !c.charge(3*s + time.Millisecond) {
		t.Fatal("no flag fall past the period")
	}
}

func TestReadTimeControl(t *testing.T) {
	for _, tc := range []struct {
		raw  any
		want string // canonical, or the error
	}{
		{map[string]any{"main": int64(60), "byo_yomi": int64(10), "stones": int64(1)}, "main=60 overtime=10 stones=1 margin=0.5"},
		{map[string]any{"main": int64(5), "margin": 0.2}, "main=5 overtime=0 stones=0 margin=0.2"},
		{map[string]any{"main": int64(60), "byo_yomi": int64(10)}, "stones: byo_yomi needs"},
		{map[string]any{"main": 1.5}, "whole seconds"},
		{map[string]any{"main": int64(0)}, "no time to play"},
		{map[string]any{"main": int64(-1)}, "main: want 0 to 1000000 seconds"},
		{map[string]any{"mian": int64(1)}, `unknown key "mian"`},
		{int64(60), "want a table"},
	} {
		var errs []string
		tc0, ok := readTimeControl(tc.raw, func(format string, args ...any) {
			errs = append(errs, strings.TrimSpace(fmt.Sprintf(format, args...)))
		})
		got := strings.Join(errs, "; ")
		if ok {
			got = tc0.canonical()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%v: got %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// FuzzParseOpeningLine: whatever a line of an openings file holds, the
// parser returns an opening that replays, or an error.
func FuzzParseOpeningLine(f *testing.F) {
	for _, seed := range []string{"E5 C3 G7", "e5,c3", "pass E5", "E5 E5", "Z99", "pass pass", "", "A1 B2 C3 D4 E5 F6 G7 H8 J9"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		o, err := ParseOpeningLine(line, 9)
		if err != nil {
			return
		}
		if len(o.Moves) == 0 {
			t.Fatal("an opening without moves")
		}
		if err := checkOpening(o.Moves, 9); err != nil {
			t.Fatalf("accepted %q, which does not replay: %v", line, err)
		}
	})
}
