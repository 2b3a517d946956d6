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
	"github.com/gamemill/gamemill/formats/record"
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

// Score is how close an evaluation comes to a set's reference results.
type Score struct {
	Name      string // which positions: "all", a class, or a band of pip leads
	Positions int
	// EquityError is the mean absolute difference of cubeless equity,
	// EquityRMS its root mean square, Bias its mean (positive: the judge
	// is more optimistic than the reference), WinError the mean absolute
	// difference of the chance of winning.
	EquityError, EquityRMS, Bias, WinError float64
	// RolloutStdErr is the rollouts' mean standard error of equity: the
	// noise in the yardstick itself (0 for a set judged by an evaluation).
	RolloutStdErr float64
}

// Breakdown names the rows Scores returns, in order: all positions; the
// network classes (contact, crashed, race); and the contact positions
// (crashed included) by the player on roll's lead in the pip count, in
// bands, because a judge's bias by pip lead is what self-play training
// tends to get wrong (docs/bgbot.md).
var Breakdown = []string{
	"all", "contact", "crashed", "race",
	"lead <= -60", "lead -59..-20", "lead -19..19", "lead 20..59", "lead >= 60",
}

// Lead is the pip lead of the side on roll: the opponent's pip count less
// its own (negative when it trails).
func Lead(b *backgammon.Board) int {
	return pips(&b[backgammon.Opponent]) - pips(&b[backgammon.OnRoll])
}

// LeadBand names the band of Breakdown that the side on roll's pip lead
// falls in ("lead 20..59" and so on), whatever the position's class.
func LeadBand(b *backgammon.Board) string { return Breakdown[leadBand(b)] }

// leadBand is the index into Breakdown of a contact position's pip lead.
func leadBand(b *backgammon.Board) int {
	switch lead := Lead(b); {
	case lead <= -60:
		return 4
	case lead <= -20:
		return 5
	case lead < 20:
		return 6
	case lead < 60:
		return 7
	}
	return 8
}

func pips(s *[25]int8) int {
	n := 0
	for i, c := range s {
		n += int(c) * (i + 1)
	}
	return n
}

// Scores measures judge (the position before the roll, for the player on
// roll) against the set, one Score per row of Breakdown.
func Scores(set []Position, judge func(backgammon.Board) bgbot.Probs) []Score {
	rows := make([]Score, len(Breakdown))
	for i, name := range Breakdown {
		rows[i].Name = name
	}
	add := func(s *Score, p Position, q bgbot.Probs) {
		d := float64(q.Equity()) - p.Rollout.Equity
		s.Positions++
		s.EquityError += math.Abs(d)
		s.EquityRMS += d * d
		s.Bias += d
		s.WinError += math.Abs(float64(q[bgbot.Win] - p.Rollout.Probs[bgbot.Win]))
		s.RolloutStdErr += p.Rollout.StdErr
	}
	for _, p := range set {
		q := judge(p.Board)
		add(&rows[0], p, q)
		switch bgbot.Class(&p.Board) {
		case bgbot.ClassRace:
			add(&rows[3], p, q)
			continue
		case bgbot.ClassCrashed:
			add(&rows[2], p, q)
		default:
			add(&rows[1], p, q)
		}
		add(&rows[leadBand(&p.Board)], p, q)
	}
	for i := range rows {
		s := &rows[i]
		if n := float64(s.Positions); n > 0 {
			s.EquityError /= n
			s.EquityRMS = math.Sqrt(s.EquityRMS / n)
			s.Bias /= n
			s.WinError /= n
			s.RolloutStdErr /= n
		}
	}
	return rows
}

// FromRecords collects the positions before a roll in the games of ms
// (standard backgammon only, each distinct position once, in the order
// met) and keeps every stride-th, leaving out those skip reports true for
// (such as bear-offs a database answers exactly). Such a set, judged by a
// stronger program, measures a network on the positions real opponents
// lead it into rather than on its own self-play.
func FromRecords(ms []*record.Match, stride int, skip func(*backgammon.Board) bool) ([]backgammon.Board, error) {
	if stride < 1 {
		return nil, fmt.Errorf("benchset: stride %d", stride)
	}
	seen := map[backgammon.Board]bool{}
	var out []backgammon.Board
	met := 0
	for _, m := range ms {
		if m.Rules.Variant != backgammon.Standard {
			continue
		}
		err := record.Walk(m, func(p *record.Position) error {
			// Walk shows a Roll or Move with the dice already set; the board
			// is still the one before the roll. A game's opening roll is
			// left out: the start position is not a decision before a roll.
			if p.Action.Kind != record.Roll && p.Action.Kind != record.Move || p.ActionIndex == 0 || p.State.GameState != backgammon.GamePlaying {
				return nil
			}
			b := p.State.Board
			if seen[b] || skip != nil && skip(&b) {
				return nil
			}
			seen[b] = true
			if met++; (met-1)%stride == 0 {
				out = append(out, b)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("benchset: %w", err)
		}
	}
	return out, nil
}
