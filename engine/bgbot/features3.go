package bgbot

import "github.com/gamemill/gamemill/engine/backgammon"

// Input layout 3 (LayoutV3) is layout 2 (unchanged, so Widen turns a
// layout-2 network into a layout-3 one that computes the same) followed by
// RacePerSide race features for the player on roll, then the same for the
// opponent. They are zero while there is contact, so only the race
// network learns from them. The race network of layout 2 misjudges the
// gammon chances of races (docs/bgbot.md): the one input that says how
// many checkers a side has off is linear, so "none off yet" (a gammon
// still possible) and "one off" (none possible) differ by 1/15 of its
// range. These follow gnubg's published race inputs (checkers off by
// count, crossovers) and add the pips a side needs before it can save
// the gammon.
const (
	RacePerSide = 17
	NumInputsV3 = NumInputsV2 + 2*RacePerSide
	LayoutV3    = 3
)

// Input layout 4 (LayoutV4) has layout 3's inputs, and sets the race
// features in crashed positions too: how many checkers a side has off and
// how far it is from home are what the gammons and backgammons of a side
// bearing off against the other's stragglers turn on, and the crashed
// network of layout 3 misjudged exactly those (docs/bgbot.md, Crashed
// positions). Widen from layout 3 keeps what a network computes.
const LayoutV4 = 4

// LayoutLast is the newest input layout.
const LayoutLast = LayoutV4

// Race features of layout 3, per side, offsets inside a side's block.
const (
	ROff        = 0  // ROff+k-1 is 1 when exactly k checkers are off, k = 1..14
	RCross      = 14 // crossovers (quadrant boundaries) still to pass to bring every checker home / 10
	RHomeIn     = 15 // pips to bring every checker into the home board (each to my 6 point) / 100
	RSaveGammon = 16 // with none off: RHomeIn's pips plus the lowest home point a checker then stands on, / 100; 0 once a checker is off
)

// raceFeatures computes one side's race features into r (len RacePerSide,
// zeroed): in a race, or in a crashed position, where a checker on the bar
// counts as on the 25 point.
func raceFeatures(s *[25]int8, r []float32) {
	on, cross, in := 0, 0, 0
	low := 6 // the lowest home point holding a checker once all are home
	for i := 0; i <= backgammon.BarIndex; i++ {
		n := int(s[i])
		if n == 0 {
			continue
		}
		on += n
		p := i + 1
		if p > 6 {
			cross += n * ((p - 1) / 6)
			in += n * (p - 6)
		} else if p < low {
			low = p
		}
	}
	off := 15 - on
	if off >= 1 && off <= 14 {
		r[ROff+off-1] = 1
	}
	r[RCross] = float32(cross) / 10
	r[RHomeIn] = float32(in) / 100
	if off == 0 {
		r[RSaveGammon] = float32(in+low) / 100
	}
}
