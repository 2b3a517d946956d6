package gobot

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gamemill/gamemill/protocol"
)

// DefaultAnalyzeInterval is the interval of lz-analyze and kata-analyze
// when the command gives none.
const DefaultAnalyzeInterval = time.Second

// analyzeRequest is an lz-analyze or kata-analyze command's arguments.
type analyzeRequest struct {
	kata      bool
	color     Color
	interval  time.Duration
	maxMoves  int // 0: every visited move
	ownership bool
}

// parseAnalyze reads "[COLOUR] [INTERVAL] [interval N] [maxmoves N]
// [minmoves N] [ownership true|false]" as Leela Zero and KataGo take
// them; the interval is in centiseconds. minmoves is accepted and has no
// effect: every move the search has visited is reported.
func parseAnalyze(name string, args []string, toPlay Color) (analyzeRequest, error) {
	r := analyzeRequest{kata: name == "kata-analyze", color: toPlay, interval: DefaultAnalyzeInterval}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s: %s", protocol.ErrArgs, name, fmt.Sprintf(format, a...))
	}
	centis := func(s string) (time.Duration, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 360000 {
			return 0, bad("interval %q: want 0 to 360000 centiseconds", s)
		}
		return time.Duration(n) * 10 * time.Millisecond, nil
	}
	i := 0
	if i < len(args) {
		if c, err := parseColor(args[i]); err == nil {
			r.color = c
			i++
		}
	}
	if i < len(args) {
		if _, err := strconv.Atoi(args[i]); err == nil {
			d, err := centis(args[i])
			if err != nil {
				return r, err
			}
			r.interval = d
			i++
		}
	}
	for ; i < len(args); i += 2 {
		if i+1 >= len(args) {
			return r, bad("%q lacks a value", args[i])
		}
		key, v := strings.ToLower(args[i]), args[i+1]
		switch key {
		case "interval":
			d, err := centis(v)
			if err != nil {
				return r, err
			}
			r.interval = d
		case "maxmoves", "minmoves":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return r, bad("%s %q: want a number", key, v)
			}
			if key == "maxmoves" {
				r.maxMoves = n
			}
		case "ownership":
			b, err := strconv.ParseBool(v)
			if err != nil || (b && !r.kata) {
				return r, bad("ownership %q: want true (kata-analyze only) or false", v)
			}
			r.ownership = b
		default:
			return r, bad("unknown argument %q", args[i])
		}
	}
	if r.interval == 0 {
		r.interval = DefaultAnalyzeInterval
	}
	return r, nil
}

// format writes one report as a line of "info" records: Leela Zero's
// (win rate and prior in hundredths of a percent) or KataGo's (as
// fractions, and the ownership when asked for).
func (r analyzeRequest) format(a Analysis, size int) string {
	var b strings.Builder
	moves := a.Moves
	if r.maxMoves > 0 && len(moves) > r.maxMoves {
		moves = moves[:r.maxMoves]
	}
	for i, m := range moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		if r.kata {
			fmt.Fprintf(&b, "info move %s visits %d winrate %.6f prior %.6f lcb %.6f order %d pv %s",
				vertexString(m.Move), m.Visits, m.WinRate, m.Prior, m.LCB, i, vertices(m.PV))
		} else {
			fmt.Fprintf(&b, "info move %s visits %d winrate %d prior %d lcb %d order %d pv %s",
				vertexString(m.Move), m.Visits, hundredths(m.WinRate), hundredths(m.Prior), hundredths(m.LCB), i, vertices(m.PV))
		}
	}
	if r.ownership {
		// KataGo's order: the top row first, for the player to move.
		sign := 1.0
		if a.ToPlay == white {
			sign = -1
		}
		b.WriteString(" ownership")
		for y := size - 1; y >= 0; y-- {
			for x := 0; x < size; x++ {
				fmt.Fprintf(&b, " %.4f", sign*a.Ownership[y*size+x]+0)
			}
		}
	}
	return b.String()
}

func hundredths(f float64) int { return int(f*10000 + 0.5) }
