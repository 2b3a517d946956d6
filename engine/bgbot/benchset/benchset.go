// Package benchset is bgbot's fixed benchmark of positions with rollout
// results: a text file of gnubg position IDs, each with the probabilities
// and cubeless equity its rollout found, against which a network's
// evaluation is measured offline (bgtrain benchset writes one, bgtrain
// benchmark scores weights on it).
//
// The file is line-based: lines starting with '#' are comments (the first
// ones say how the set was made), every other line is
//
//	POSITION_ID WIN WIN_GAMMON WIN_BACKGAMMON LOSE_GAMMON LOSE_BACKGAMMON EQUITY STDERR
//
// for the player on roll before the roll, as bgbot.Probs orders them.
package benchset

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// Position is one benchmark position and its rollout.
type Position struct {
	Board   backgammon.Board
	Rollout bgbot.RolloutResult
}

// Write writes the set with header as comment lines.
func Write(w io.Writer, header []string, set []Position) error {
	bw := bufio.NewWriter(w)
	for _, h := range header {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	fmt.Fprintln(bw, "# position_id win win_gammon win_backgammon lose_gammon lose_backgammon equity stderr")
	for _, p := range set {
		fmt.Fprint(bw, gnubgid.EncodePosition(p.Board))
		for _, x := range p.Rollout.Probs {
			fmt.Fprintf(bw, " %.5f", x)
		}
		fmt.Fprintf(bw, " %.5f %.5f\n", p.Rollout.Equity, p.Rollout.StdErr)
	}
	return bw.Flush()
}

// Read reads a set; an error names the line and the field.
func Read(r io.Reader) ([]Position, error) {
	var set []Position
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 8 {
			return nil, fmt.Errorf("line %d: %d fields, want 8 (position ID, 5 probabilities, equity, standard error)", line, len(f))
		}
		b, err := gnubgid.DecodePosition(f[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: position ID: %w", line, err)
		}
		if err := b.Validate(backgammon.Standard); err != nil {
			return nil, fmt.Errorf("line %d: position ID %s: %w", line, f[0], err)
		}
		var v [7]float64
		names := [7]string{"win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity", "stderr"}
		for i := range v {
			x, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("line %d: %s: %q is not a finite number", line, names[i], f[i+1])
			}
			if i < 5 && (x < 0 || x > 1) || i == 5 && math.Abs(x) > 3 || i == 6 && x < 0 {
				return nil, fmt.Errorf("line %d: %s: %g out of range", line, names[i], x)
			}
			v[i] = x
		}
		p := Position{Board: b}
		for i := range 5 {
			p.Rollout.Probs[i] = float32(v[i])
		}
		p.Rollout.Equity, p.Rollout.StdErr = v[5], v[6]
		set = append(set, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return set, nil
}

// Make samples n positions from self-play of w at 0 ply (one every stride
// positions met, from games seeded by seed; bear-offs the database db
// answers exactly are left out) and rolls each out with bots from newBot.
// progress, when set, is told after each position.
func Make(ctx context.Context, w *bgbot.Weights, db *bgbot.Bearoff, n, stride int, seed uint64,
	newBot func() (*bgbot.Bot, error), cfg bgbot.RolloutConfig, progress func(done int)) ([]Position, error) {
	if n < 1 || stride < 1 {
		return nil, fmt.Errorf("benchset: %d positions, stride %d", n, stride)
	}
	boards, err := bgbot.SamplePositions(ctx, w, db, n*stride, seed)
	if err != nil {
		return nil, err
	}
	set := make([]Position, 0, n)
	for i := 0; i < len(boards) && len(set) < n; i += stride {
		r, err := bgbot.Rollout(ctx, newBot, boards[i], cfg)
		if err != nil {
			return nil, fmt.Errorf("benchset: position %d: %w", len(set)+1, err)
		}
		set = append(set, Position{Board: boards[i], Rollout: r})
		if progress != nil {
			progress(len(set))
		}
	}
	return set, nil
}

// Score is how close an evaluation comes to a set's rollouts.
type Score struct {
	Positions int
	// EquityError is the mean absolute difference of cubeless equity,
	// EquityRMS its root mean square, WinError the mean absolute
	// difference of the chance of winning.
	EquityError, EquityRMS, WinError float64
	// RolloutStdErr is the rollouts' mean standard error of equity: the
	// noise in the yardstick itself.
	RolloutStdErr float64
}

// Scores measures judge (the position before the roll, for the player on
// roll) against the set: overall, and for contact and race positions.
func Scores(set []Position, judge func(backgammon.Board) bgbot.Probs) (all, contact, race Score) {
	add := func(s *Score, p Position, q bgbot.Probs) {
		d := float64(q.Equity()) - p.Rollout.Equity
		s.Positions++
		s.EquityError += math.Abs(d)
		s.EquityRMS += d * d
		s.WinError += math.Abs(float64(q[bgbot.Win] - p.Rollout.Probs[bgbot.Win]))
		s.RolloutStdErr += p.Rollout.StdErr
	}
	for _, p := range set {
		q := judge(p.Board)
		add(&all, p, q)
		if bgbot.Contact(&p.Board) {
			add(&contact, p, q)
		} else {
			add(&race, p, q)
		}
	}
	for _, s := range []*Score{&all, &contact, &race} {
		if n := float64(s.Positions); n > 0 {
			s.EquityError /= n
			s.EquityRMS = math.Sqrt(s.EquityRMS / n)
			s.WinError /= n
			s.RolloutStdErr /= n
		}
	}
	return all, contact, race
}
