package gogame

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// DefaultMargin is how far past its time an engine's answer may come
// before its flag falls: the pipes, the process scheduler and a loaded
// machine add to every answer's wall time, and that is not the engine's
// thinking.
const DefaultMargin = 500 * time.Millisecond

// TimeControl is a game's clock: main time, then Canadian overtime (GTP's
// time_settings: Stones moves in each period of Overtime). Stones = 1 is
// byo-yomi with a single period; Overtime = 0 is absolute time.
type TimeControl struct {
	Main     time.Duration
	Overtime time.Duration // each overtime period
	Stones   int           // moves to play in each period; 0 when Overtime is 0
	Margin   time.Duration // see DefaultMargin
}

// gtpArgs are time_settings's arguments: whole seconds, as GTP has them.
func (tc TimeControl) gtpArgs() []string {
	return []string{strconv.Itoa(int(tc.Main / time.Second)), strconv.Itoa(int(tc.Overtime / time.Second)), strconv.Itoa(tc.Stones)}
}

func (tc TimeControl) String() string {
	s := fmt.Sprintf("%gs", tc.Main.Seconds())
	if tc.Overtime > 0 {
		s += fmt.Sprintf(" + %d/%gs", tc.Stones, tc.Overtime.Seconds())
	}
	return s
}

// canonical is the clock's part of the settings text.
func (tc TimeControl) canonical() string {
	return fmt.Sprintf("main=%g overtime=%g stones=%d margin=%g", tc.Main.Seconds(), tc.Overtime.Seconds(), tc.Stones, tc.Margin.Seconds())
}

// readTimeControl reads time_settings = {main = 60, byo_yomi = 10, stones
// = 1, margin = 0.5} (seconds); report names the sub-key at fault.
func readTimeControl(raw any, report func(format string, args ...any)) (*TimeControl, bool) {
	t, ok := raw.(map[string]any)
	if !ok {
		report("want a table such as {main = 60, byo_yomi = 10, stones = 1}, got %T", raw)
		return nil, false
	}
	tc := &TimeControl{Margin: DefaultMargin}
	seconds := func(key string, v any) (time.Duration, bool) {
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			report("%s: want a number of seconds, got %T", key, v)
			return 0, false
		}
		if math.IsNaN(f) || f < 0 || f > 1e6 {
			report("%s: want 0 to 1000000 seconds, got %v", key, v)
			return 0, false
		}
		return time.Duration(f * float64(time.Second)), true
	}
	good := true
	for key, v := range t {
		var d time.Duration
		var ok bool
		switch key {
		case "main", "byo_yomi", "margin":
			d, ok = seconds(key, v)
		case "stones":
			n, isInt := v.(int64)
			if !isInt || n < 0 || n > 1000 {
				report("stones: want a whole number of moves per overtime period, 0 to 1000, got %v", v)
			} else {
				tc.Stones, ok = int(n), true
			}
		default:
			report("unknown key %q (want main, byo_yomi, stones, margin)", key)
		}
		good = good && ok
		switch key {
		case "main":
			tc.Main = d
		case "byo_yomi":
			tc.Overtime = d
		case "margin":
			tc.Margin = d
		}
	}
	if !good {
		return nil, false
	}
	switch {
	case tc.Main%time.Second != 0 || tc.Overtime%time.Second != 0:
		report("main and byo_yomi: want whole seconds (GTP's time_settings takes whole seconds)")
		return nil, false
	case tc.Overtime > 0 && tc.Stones == 0:
		report("stones: byo_yomi needs the moves to play in each period (stones = 1 for plain byo-yomi)")
		return nil, false
	case tc.Overtime == 0 && tc.Stones > 0:
		report("stones: set byo_yomi, the seconds of each overtime period, too")
		return nil, false
	case tc.Main == 0 && tc.Overtime == 0:
		report("main and byo_yomi are both 0: no time to play")
		return nil, false
	}
	return tc, true
}

// clock is one engine's clock in a game.
type clock struct {
	tc       TimeControl
	main     time.Duration // main time left
	period   time.Duration // time left in the overtime period (in overtime)
	stones   int           // moves left to play in the period; 0 in main time
	thinks   int
	total    time.Duration
	longest  time.Duration
	overtime bool
}

func newClock(tc TimeControl) *clock {
	c := &clock{tc: tc, main: tc.Main}
	if tc.Main == 0 {
		c.enterOvertime()
	}
	return c
}

func (c *clock) enterOvertime() {
	c.overtime, c.period, c.stones = true, c.tc.Overtime, c.tc.Stones
}

// timeLeft is time_left's seconds and stones: in main time the stones are
// 0, as GTP has it.
func (c *clock) timeLeft() (seconds, stones int) {
	if c.overtime {
		return int(c.period / time.Second), c.stones
	}
	return int(c.main / time.Second), 0
}

// charge takes one answer's wall time off the clock and reports whether
// the flag fell: the time left went below minus the margin. An overrun
// within the margin leaves the clock at 0, never in credit.
func (c *clock) charge(d time.Duration) (flagFell bool) {
	c.thinks++
	c.total += d
	c.longest = max(c.longest, d)
	if !c.overtime {
		if d <= c.main {
			c.main -= d
			return false
		}
		d -= c.main
		c.main = 0
		if c.tc.Overtime == 0 {
			return d > c.tc.Margin
		}
		c.enterOvertime()
	}
	c.period -= d
	if c.period < -c.tc.Margin {
		return true
	}
	c.period = max(c.period, 0)
	c.stones--
	if c.stones <= 0 {
		c.enterOvertime()
	}
	return false
}

// String is what the clock shows: "12s" of main time, or "8s for 3
// moves" in overtime.
func (c *clock) String() string {
	if c.overtime {
		return fmt.Sprintf("%.1fs for %d moves", c.period.Seconds(), c.stones)
	}
	return fmt.Sprintf("%.1fs", c.main.Seconds())
}
