package benchset

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
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
//	POSITION_ID[:MATCH_ID] DICE RESULT_ID:EQUITY RESULT_ID:EQUITY ...
//
// POSITION_ID is the position before the move for the player on roll,
// DICE two digits, and each RESULT_ID the position after one legal move,
// from the mover's view (not turned round), with the mover's cubeless
// equity there as the reference judged it.
//
// A decision taken from a game record may end with the move played there
// and who played it, as played=RESULT_ID,NAME (white space in the name
// written as '_'), so that a player's choices can be checked against what
// it played. A narrowed set (Narrow) may hold a single result.
//
// A cubeful set adds each decision's gnubg match ID: the score, the cube
// and its owner, the Crawford flag and, in money play, the Jacoby rule
// (the cube is in use; a match has the Crawford rule). Its equities are
// then the mover's cubeful equity after the move in gnubg's normalised
// money equity (bgbot.MoverEquity), the unit of gnubg's chequer error
// rates, so that the set prices chequer play as gnubg's analysis of a
// match does.

// cubefulRules are the rules a cubeful set's match IDs are read with.
var cubefulRules = backgammon.Rules{Variant: backgammon.Standard, Cube: true, Crawford: true}

// MoveDecision is one decision of a move set.
type MoveDecision struct {
	Board   backgammon.Board
	Dice    [2]int
	Results []MoveResult // one per distinct position a legal move leaves
	// State is the match the decision was met in, with the roll set: the
	// score and the cube (nil in a cubeless set).
	State *backgammon.State
	// Mover is who played the decision in the record it came from ("" when
	// unknown), Played the position its move left.
	Mover  string
	Played backgammon.Board
}

// MoveResult is a legal move's result and the reference's equity of it for
// the mover.
type MoveResult struct {
	Board  backgammon.Board
	Equity float64
}

// ResultState is the match after the decision's result k in a cubeful
// set: the same score and cube, the opponent on roll before its roll, the
// board seen from it. Meaningless for a result that ends the game.
func (d *MoveDecision) ResultState(k int) *backgammon.State {
	after := *d.State
	after.Board = d.Results[k].Board.Swap()
	after.Move, after.Turn, after.Dice = 1-d.State.Move, 1-d.State.Move, [2]int{}
	return &after
}

// DecisionsFromRecords collects the chequer decisions of ms (standard
// backgammon; each distinct position and roll once, in the order met) with
// at least two distinct results, keeps every stride-th, and fills in the
// legal results with equity 0 for a reference to judge. With cubeful, each
// decision keeps its match state (a distinct decision is then a distinct
// position, roll and match ID), and only games played with the cube
// count.
func DecisionsFromRecords(ms []*record.Match, stride int, cubeful bool) ([]MoveDecision, error) {
	if stride < 1 {
		return nil, fmt.Errorf("benchset: stride %d", stride)
	}
	seen := map[decisionKey]bool{}
	var out []MoveDecision
	met := 0
	for _, m := range ms {
		if m.Rules.Variant != backgammon.Standard || cubeful && !m.Rules.Cube {
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
			var st *backgammon.State
			if cubeful {
				c := *p.State
				st = &c
			}
			k := keyOf(&MoveDecision{Board: p.Board, Dice: d, State: st}, false)
			if seen[k] {
				return nil
			}
			seen[k] = true
			results := legalResults(p.Board, d)
			if len(results) < 2 {
				return nil
			}
			if met++; (met-1)%stride == 0 {
				out = append(out, MoveDecision{Board: p.Board, Dice: d, Results: results, State: st,
					Mover: moverName(m, p.State.Move), Played: p.Board.Apply(p.Move)})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("benchset: %w", err)
		}
	}
	return out, nil
}

// moverName is the record's name of player side, never empty and without
// white space, as a move set writes it.
func moverName(m *record.Match, side int) string {
	name := strings.Join(strings.Fields(m.Players[side]), "_")
	if name == "" {
		name = fmt.Sprintf("player%d", side)
	}
	return name
}

// RecordedDecisions lists the chequer decisions of a standard backgammon
// record (none for other variants), for sampling labels from records
// (bgbot.SampleRecordedDecisions); keep, when not nil, chooses them by
// the match state before the move.
func RecordedDecisions(m *record.Match, keep func(*backgammon.State) bool) ([]bgbot.RecordedDecision, error) {
	if m.Rules.Variant != backgammon.Standard {
		return nil, nil
	}
	var ds []bgbot.RecordedDecision
	err := record.Walk(m, func(p *record.Position) error {
		if p.Action.Kind == record.Move && (keep == nil || keep(p.State)) {
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
	fmt.Fprintln(bw, "# position_id[:match_id] dice result_id:equity ...")
	for _, d := range set {
		fmt.Fprint(bw, gnubgid.EncodePosition(d.Board))
		if d.State != nil {
			fmt.Fprintf(bw, ":%s", gnubgid.EncodeMatch(d.State))
		}
		fmt.Fprintf(bw, " %d%d", d.Dice[0], d.Dice[1])
		for _, r := range d.Results {
			fmt.Fprintf(bw, " %s:%.5f", gnubgid.EncodePosition(r.Board), r.Equity)
		}
		if name := strings.Join(strings.Fields(d.Mover), "_"); name != "" {
			fmt.Fprintf(bw, " %s%s,%s", playedPrefix, gnubgid.EncodePosition(d.Played), name)
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
		played := ""
		if last := f[len(f)-1]; strings.HasPrefix(last, playedPrefix) {
			played, f = strings.TrimPrefix(last, playedPrefix), f[:len(f)-1]
		}
		if len(f) < 3 {
			return nil, fmt.Errorf("line %d: %d fields, want a position ID, the dice and one result or more", line, len(f))
		}
		var d MoveDecision
		posID, matchID, cubeful := strings.Cut(f[0], ":")
		b, err := readBoard(posID)
		if err != nil {
			return nil, fmt.Errorf("line %d: position ID: %w", line, err)
		}
		d.Board = b
		if len(f[1]) != 2 || f[1][0] < '1' || f[1][0] > '6' || f[1][1] < '1' || f[1][1] > '6' {
			return nil, fmt.Errorf("line %d: dice: %q is not two digits 1..6", line, f[1])
		}
		d.Dice = [2]int{int(f[1][0] - '0'), int(f[1][1] - '0')}
		if cubeful {
			if d.State, err = readMoveState(posID, matchID, d.Dice); err != nil {
				return nil, fmt.Errorf("line %d: match ID: %w", line, err)
			}
		}
		// Normalised match equity can pass 3 where one game's swing at
		// the cube is small against the match's.
		bound := 3.0
		if cubeful {
			bound = 100
		}
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
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > bound {
				return nil, fmt.Errorf("line %d: result %d: equity %q is not a number within -%g..%g", line, i+1, eq, bound, bound)
			}
			d.Results = append(d.Results, MoveResult{Board: rb, Equity: x})
		}
		if played != "" {
			id, name, ok := strings.Cut(played, ",")
			if !ok || name == "" {
				return nil, fmt.Errorf("line %d: %s%s is not %sRESULT_ID,NAME", line, playedPrefix, played, playedPrefix)
			}
			pb, err := readBoard(id)
			if err != nil {
				return nil, fmt.Errorf("line %d: played: %w", line, err)
			}
			if !legal[pb] {
				return nil, fmt.Errorf("line %d: played: %s is not where a legal move of %s leaves position %s", line, id, f[1], f[0])
			}
			d.Mover, d.Played = name, pb
		}
		set = append(set, d)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return set, nil
}

// playedPrefix starts a decision's last field when it names the move played.
const playedPrefix = "played="

// readMoveState reads a cubeful decision's match: a game in play, the
// player on roll to move with the decision's dice.
func readMoveState(posID, matchID string, dice [2]int) (*backgammon.State, error) {
	s, err := gnubgid.DecodeState(posID, matchID, cubefulRules)
	if err != nil {
		return nil, err
	}
	if s.Decision() != backgammon.DecideMove {
		return nil, fmt.Errorf("%s does not have the player on roll to move", matchID)
	}
	if s.Dice != dice && s.Dice != [2]int{dice[1], dice[0]} {
		return nil, fmt.Errorf("%s holds the roll %d%d, not %d%d", matchID, s.Dice[0], s.Dice[1], dice[0], dice[1])
	}
	return s, nil
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
	Name      string // which decisions: a row of MoveBreakdown
	Decisions int
	// Loss is the mean equity given up per decision (the best result's
	// equity minus the chosen one's), Best the share of decisions where the
	// choice was the reference's best.
	Loss, Best float64
	// Unknown counts choices whose result the set does not hold (none when
	// the set holds every legal result).
	Unknown int
	// Losses holds each decision's loss, in the set's order; NaN for a
	// decision outside the row or with an unknown choice. PairedGap pairs
	// two players' losses through it.
	Losses []float64
}

// MoveBreakdown names the rows ScoreMoves returns: Breakdown's, then, for
// the decisions of a cubeful set, the cube's place (centred, the mover's,
// the opponent's), the stage of play (Stages) and double match point
// (1-away against 1-away, where only the win counts: a part of
// post-crawford).
var MoveBreakdown = slices.Concat(Breakdown,
	[]string{"cube centred", "cube mover's", "cube opponent's"},
	stageRows, []string{"double match point"})

// MoverRow names ScoreMoves' row of the decisions mover played.
func MoverRow(mover string) string { return "moved by " + mover }

// stageRows are MoveBreakdown's rows of the stages of play.
var stageRows = func() []string {
	rows := make([]string, len(Stages))
	for i, s := range Stages {
		rows[i] = "stage " + s
	}
	return rows
}()

// Chooser is what ScoreMoves measures: the position the player leaves in a
// decision, seen from the mover.
type Chooser func(d *MoveDecision) backgammon.Board

// BotChoice is ScoreMoves' chooser for bot: its cubeless move, or in a
// cubeful set's decision the move it makes in that match (bgbot.Bot.Move,
// cubeful when the bot's configuration says so).
func BotChoice(bot *bgbot.Bot) Chooser {
	return func(d *MoveDecision) backgammon.Board {
		if d.State != nil {
			s := *d.State
			m, ok, err := bot.Move(&s)
			if err != nil || !ok {
				return d.Board // not a result: counted as unknown
			}
			return d.Board.Apply(m)
		}
		m, _, _ := bot.ChooseMove(d.Board, d.Dice[0], d.Dice[1])
		return d.Board.Apply(m)
	}
}

// SetChoice is ScoreMoves' chooser for the player whose judgement priced
// ref: in each decision ref holds (same position, roll and match), the
// result it prices best. That scores, say, gnubg 0-ply's own choices
// against a set priced by gnubg 2-ply on the same decisions. A decision
// ref lacks gets the position before the move, which no set holds as a
// result, so ScoreMoves counts it as unknown.
func SetChoice(ref []MoveDecision) Chooser {
	best := make(map[decisionKey]backgammon.Board, len(ref))
	for i := range ref {
		d := &ref[i]
		if len(d.Results) == 0 {
			continue
		}
		top := d.Results[0]
		for _, r := range d.Results[1:] {
			if r.Equity > top.Equity {
				top = r
			}
		}
		best[keyOf(d, false)] = top.Board
		best[keyOf(d, true)] = top.Board
	}
	return func(d *MoveDecision) backgammon.Board {
		if got, ok := best[keyOf(d, false)]; ok {
			return got
		}
		return d.Board
	}
}

// decisionKey identifies a decision across move sets.
type decisionKey struct {
	board backgammon.Board
	dice  [2]int
	match string
}

// keyOf is d's key, with the dice turned round if swap.
func keyOf(d *MoveDecision, swap bool) decisionKey {
	k := decisionKey{board: d.Board, dice: d.Dice}
	if swap {
		k.dice = [2]int{d.Dice[1], d.Dice[0]}
	}
	if d.State != nil {
		m := gnubgid.MatchKeyOf(d.State)
		m.Dice = [2]int{} // the roll is in dice, in either order
		k.match = gnubgid.EncodeMatchKey(m)
	}
	return k
}

// ScoreMoves measures choose against the set, one MoveScore per row of
// MoveBreakdown (the class of the position before the move, for contact
// the mover's pip lead, and in a cubeful set the cube's place), then one
// row per player who moved in the set's records ("moved by NAME", in the
// order the set first names them): in a match's records that splits the
// decisions one player met from those the other met.
func ScoreMoves(set []MoveDecision, choose Chooser) []MoveScore {
	names := slices.Clone(MoveBreakdown)
	moverRow := map[string]int{}
	for k := range set {
		if m := set[k].Mover; m != "" {
			if _, ok := moverRow[m]; !ok {
				moverRow[m] = len(names)
				names = append(names, MoverRow(m))
			}
		}
	}
	rows := make([]MoveScore, len(names))
	for i, name := range names {
		rows[i].Name = name
		rows[i].Losses = make([]float64, len(set))
		for k := range rows[i].Losses {
			rows[i].Losses[k] = math.NaN()
		}
	}
	cubeRow := len(Breakdown)
	for k := range set {
		d := &set[k]
		best := math.Inf(-1)
		for _, r := range d.Results {
			best = math.Max(best, r.Equity)
		}
		got := choose(d)
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
		if st := d.State; st != nil {
			switch st.CubeOwner {
			case -1:
				in = append(in, cubeRow)
			case st.Move:
				in = append(in, cubeRow+1)
			default:
				in = append(in, cubeRow+2)
			}
			stageRow := cubeRow + 3
			in = append(in, stageRow+slices.Index(Stages, Stage(st)))
			if doubleMatchPoint(st) {
				in = append(in, stageRow+len(Stages))
			}
		}
		if i, ok := moverRow[d.Mover]; ok {
			in = append(in, i)
		}
		for _, i := range in {
			s := &rows[i]
			if math.IsNaN(loss) {
				s.Unknown++
				continue
			}
			s.Decisions++
			s.Loss += loss
			s.Losses[k] = loss
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

// PairedGap is a's mean loss less b's over the decisions both scores
// priced (the same row of the same set), with the half-width of its 95%
// interval from the spread of the per-decision differences, and how many
// decisions it pairs. Paired so, two players' small difference shows
// through the decisions' own spread of losses.
func PairedGap(a, b MoveScore) (gap, halfWidth float64, n int) {
	var sum, sq float64
	for k := range min(len(a.Losses), len(b.Losses)) {
		x, y := a.Losses[k], b.Losses[k]
		if math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		d := x - y
		n++
		sum += d
		sq += d * d
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	gap = sum / float64(n)
	if n < 2 {
		return gap, math.NaN(), n
	}
	variance := (sq - float64(n)*gap*gap) / float64(n-1)
	return gap, 1.96 * math.Sqrt(max(variance, 0)/float64(n)), n
}

// Remember is choose answering each decision once (by its place in
// memory): a bot's choice costs a search, and a set is often scored,
// checked and narrowed with the same chooser.
func Remember(choose Chooser) Chooser {
	seen := map[*MoveDecision]backgammon.Board{}
	return func(d *MoveDecision) backgammon.Board {
		if b, ok := seen[d]; ok {
			return b
		}
		b := choose(d)
		seen[d] = b
		return b
	}
}

// Narrow keeps, in each decision of set, only the results that some of the
// choosers choose (in the set's order): one result where they all agree.
// Priced again by a deeper judge, the narrowed set tells which of the
// choices is better at the cost of the results they disagree on, and
// ScoreMoves then gives nothing up where they agree. A choice the set
// does not hold is an error.
func Narrow(set []MoveDecision, choosers ...Chooser) ([]MoveDecision, error) {
	out := make([]MoveDecision, len(set))
	for i := range set {
		d := &set[i]
		chosen := map[backgammon.Board]bool{}
		for _, choose := range choosers {
			chosen[choose(d)] = true
		}
		n := *d
		n.Results = nil
		for _, r := range d.Results {
			if chosen[r.Board] {
				n.Results = append(n.Results, r)
			}
		}
		if len(n.Results) != len(chosen) {
			return nil, fmt.Errorf("benchset: decision %d (%s %d%d): a choice leaves a position the set does not hold",
				i+1, gnubgid.EncodePosition(d.Board), d.Dice[0], d.Dice[1])
		}
		out[i] = n
	}
	return out, nil
}

// Agreement counts, for each mover the set's decisions name, its decisions
// and how many of them choose played: the check that a chooser is the
// player the records hold.
type Agreement struct {
	Mover           string
	Decisions, Same int
}

// Agreements measures choose against the moves played, mover by mover in
// the order first met; decisions without a mover are left out.
func Agreements(set []MoveDecision, choose Chooser) []Agreement {
	return agreements(set, func(d *MoveDecision) bool { return choose(d) == d.Played })
}

// PlayedBest counts, mover by mover as Agreements does, the decisions
// whose move played is one of the set's best results: the judge's choice,
// ties included (a lost position prices many moves alike).
func PlayedBest(set []MoveDecision) []Agreement {
	return agreements(set, func(d *MoveDecision) bool {
		best, played := math.Inf(-1), math.NaN()
		for _, r := range d.Results {
			best = math.Max(best, r.Equity)
			if r.Board == d.Played {
				played = r.Equity
			}
		}
		return played == best
	})
}

// agreements counts, mover by mover, the decisions where same holds.
func agreements(set []MoveDecision, same func(d *MoveDecision) bool) []Agreement {
	var out []Agreement
	index := map[string]int{}
	for i := range set {
		d := &set[i]
		if d.Mover == "" {
			continue
		}
		k, ok := index[d.Mover]
		if !ok {
			k = len(out)
			index[d.Mover] = k
			out = append(out, Agreement{Mover: d.Mover})
		}
		out[k].Decisions++
		if same(d) {
			out[k].Same++
		}
	}
	return out
}
