package benchset

import (
	"bufio"
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

// A move set measures chequer play rather than judgement: decisions (a
// position and a roll) with every legal move's result judged by a
// reference, so that the equity a player's choice gives up can be read
// off offline. Its file is line-based: '#' lines are comments, every other
// line is
//
//	POSITION_ID DICE RESULT_ID:EQUITY RESULT_ID:EQUITY ...
//
// POSITION_ID is the position before the move for the player on roll,
// DICE two digits, and each RESULT_ID the position after one legal move,
// from the mover's view (not turned round), with the mover's cubeless
// equity there as the reference judged it.

// MoveDecision is one decision of a move set.
type MoveDecision struct {
	Board   backgammon.Board
	Dice    [2]int
	Results []MoveResult // one per distinct position a legal move leaves
}

// MoveResult is a legal move's result and the reference's equity of it for
// the mover.
type MoveResult struct {
	Board  backgammon.Board
	Equity float64
}

// DecisionsFromRecords collects the chequer decisions of ms (standard
// backgammon; each distinct position and roll once, in the order met) with
// at least two distinct results, keeps every stride-th, and fills in the
// legal results with equity 0 for a reference to judge.
func DecisionsFromRecords(ms []*record.Match, stride int) ([]MoveDecision, error) {
	if stride < 1 {
		return nil, fmt.Errorf("benchset: stride %d", stride)
	}
	type key struct {
		b backgammon.Board
		d [2]int
	}
	seen := map[key]bool{}
	var out []MoveDecision
	met := 0
	for _, m := range ms {
		if m.Rules.Variant != backgammon.Standard {
			continue
		}
		err := record.Walk(m, func(p *record.Position) error {
			if p.Action.Kind != record.Move {
				return nil
			}
			d := p.Action.Dice
			if d[0] < d[1] {
				d[0], d[1] = d[1], d[0]
			}
			k := key{p.Board, d}
			if seen[k] {
				return nil
			}
			seen[k] = true
			results := legalResults(p.Board, d)
			if len(results) < 2 {
				return nil
			}
			if met++; (met-1)%stride == 0 {
				out = append(out, MoveDecision{Board: p.Board, Dice: d, Results: results})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("benchset: %w", err)
		}
	}
	return out, nil
}

// RecordedDecisions lists the chequer decisions of a standard backgammon
// record (none for other variants), for sampling labels from records
// (bgbot.SampleRecordedDecisions).
func RecordedDecisions(m *record.Match) ([]bgbot.RecordedDecision, error) {
	if m.Rules.Variant != backgammon.Standard {
		return nil, nil
	}
	var ds []bgbot.RecordedDecision
	err := record.Walk(m, func(p *record.Position) error {
		if p.Action.Kind == record.Move {
			ds = append(ds, bgbot.RecordedDecision{Board: p.Board, Dice: p.Action.Dice, Played: p.Board.Apply(p.Move)})
		}
		return nil
	})
	return ds, err
}

// legalResults lists the distinct positions the legal moves leave.
func legalResults(b backgammon.Board, d [2]int) []MoveResult {
	_, boards := backgammon.LegalMoves(b, d[0], d[1])
	seen := map[backgammon.Board]bool{}
	var out []MoveResult
	for _, r := range boards {
		if !seen[r] {
			seen[r] = true
			out = append(out, MoveResult{Board: r})
		}
	}
	return out
}

// WriteMoves writes a move set with header as comment lines.
func WriteMoves(w io.Writer, header []string, set []MoveDecision) error {
	bw := bufio.NewWriter(w)
	for _, h := range header {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	fmt.Fprintln(bw, "# position_id dice result_id:equity ...")
	for _, d := range set {
		fmt.Fprintf(bw, "%s %d%d", gnubgid.EncodePosition(d.Board), d.Dice[0], d.Dice[1])
		for _, r := range d.Results {
			fmt.Fprintf(bw, " %s:%.5f", gnubgid.EncodePosition(r.Board), r.Equity)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// ReadMoves reads a move set; an error names the line and the field. Each
// result must be a legal move's result from the decision.
func ReadMoves(r io.Reader) ([]MoveDecision, error) {
	var set []MoveDecision
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) < 4 {
			return nil, fmt.Errorf("line %d: %d fields, want a position ID, the dice and two results or more", line, len(f))
		}
		var d MoveDecision
		b, err := readBoard(f[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: position ID: %w", line, err)
		}
		d.Board = b
		if len(f[1]) != 2 || f[1][0] < '1' || f[1][0] > '6' || f[1][1] < '1' || f[1][1] > '6' {
			return nil, fmt.Errorf("line %d: dice: %q is not two digits 1..6", line, f[1])
		}
		d.Dice = [2]int{int(f[1][0] - '0'), int(f[1][1] - '0')}
		legal := map[backgammon.Board]bool{}
		for _, r := range legalResults(b, d.Dice) {
			legal[r.Board] = true
		}
		for i, field := range f[2:] {
			id, eq, ok := strings.Cut(field, ":")
			if !ok {
				return nil, fmt.Errorf("line %d: result %d: %q is not RESULT_ID:EQUITY", line, i+1, field)
			}
			rb, err := readBoard(id)
			if err != nil {
				return nil, fmt.Errorf("line %d: result %d: %w", line, i+1, err)
			}
			if !legal[rb] {
				return nil, fmt.Errorf("line %d: result %d: %s is not where a legal move of %s leaves position %s", line, i+1, id, f[1], f[0])
			}
			x, err := strconv.ParseFloat(eq, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 3 {
				return nil, fmt.Errorf("line %d: result %d: equity %q is not a number within -3..3", line, i+1, eq)
			}
			d.Results = append(d.Results, MoveResult{Board: rb, Equity: x})
		}
		set = append(set, d)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return set, nil
}

func readBoard(id string) (backgammon.Board, error) {
	b, err := gnubgid.DecodePosition(id)
	if err != nil {
		return b, err
	}
	if err := b.Validate(backgammon.Standard); err != nil {
		return b, fmt.Errorf("%s: %w", id, err)
	}
	return b, nil
}

// MoveScore is how much equity a player's choices give up by a move set's
// reference.
type MoveScore struct {
	Name      string // which decisions: a row of Breakdown
	Decisions int
	// Loss is the mean equity given up per decision (the best result's
	// equity minus the chosen one's), Best the share of decisions where the
	// choice was the reference's best.
	Loss, Best float64
	// Unknown counts choices whose result the set does not hold (none when
	// the set holds every legal result).
	Unknown int
}

// BotChoice is ScoreMoves' choose for bot: the position its cubeless
// move leaves.
func BotChoice(bot *bgbot.Bot) func(b backgammon.Board, d1, d2 int) backgammon.Board {
	return func(b backgammon.Board, d1, d2 int) backgammon.Board {
		m, _, _ := bot.ChooseMove(b, d1, d2)
		return b.Apply(m)
	}
}

// SetChoice is ScoreMoves' choose for the player whose judgement priced
// ref: in each decision ref holds (same position and roll), the result it
// prices best. That scores, say, gnubg 0-ply's own choices against a set
// priced by gnubg 2-ply on the same decisions. A decision ref lacks gets
// the position before the move, which no set holds as a result, so
// ScoreMoves counts it as unknown.
func SetChoice(ref []MoveDecision) func(b backgammon.Board, d1, d2 int) backgammon.Board {
	type key struct {
		board backgammon.Board
		dice  [2]int
	}
	best := make(map[key]backgammon.Board, len(ref))
	for _, d := range ref {
		if len(d.Results) == 0 {
			continue
		}
		top := d.Results[0]
		for _, r := range d.Results[1:] {
			if r.Equity > top.Equity {
				top = r
			}
		}
		best[key{d.Board, d.Dice}] = top.Board
		best[key{d.Board, [2]int{d.Dice[1], d.Dice[0]}}] = top.Board
	}
	return func(b backgammon.Board, d1, d2 int) backgammon.Board {
		if got, ok := best[key{b, [2]int{d1, d2}}]; ok {
			return got
		}
		return b
	}
}

// ScoreMoves measures choose (the position the player would leave with
// the roll, from its own view) against the set, one MoveScore per row of
// Breakdown (the class of the position before the move, and for contact
// the mover's pip lead).
func ScoreMoves(set []MoveDecision, choose func(b backgammon.Board, d1, d2 int) backgammon.Board) []MoveScore {
	rows := make([]MoveScore, len(Breakdown))
	for i, name := range Breakdown {
		rows[i].Name = name
	}
	for _, d := range set {
		best := math.Inf(-1)
		for _, r := range d.Results {
			best = math.Max(best, r.Equity)
		}
		got := choose(d.Board, d.Dice[0], d.Dice[1])
		loss := math.NaN()
		for _, r := range d.Results {
			if r.Board == got {
				loss = best - r.Equity
				break
			}
		}
		in := []int{0}
		switch bgbot.Class(&d.Board) {
		case bgbot.ClassRace:
			in = append(in, 3)
		case bgbot.ClassCrashed:
			in = append(in, 2, leadBand(&d.Board))
		default:
			in = append(in, 1, leadBand(&d.Board))
		}
		for _, i := range in {
			s := &rows[i]
			if math.IsNaN(loss) {
				s.Unknown++
				continue
			}
			s.Decisions++
			s.Loss += loss
			if loss == 0 {
				s.Best++
			}
		}
	}
	for i := range rows {
		if s := &rows[i]; s.Decisions > 0 {
			s.Loss /= float64(s.Decisions)
			s.Best /= float64(s.Decisions)
		}
	}
	return rows
}
