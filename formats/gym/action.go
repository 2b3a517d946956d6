package gym

import (
	"fmt"
	"slices"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Layout of PettingZoo's action space.
const (
	NumActions  = 26*26*2 + 1 // 1353
	PassAction  = NumActions - 1
	blockSize   = 26 * 26
	locations   = 26
	barLocation = 25
)

// ActionError reports an action id or play that has no meaning here.
type ActionError struct {
	Action int // the id, or -1 when encoding a play
	Reason string
}

func (e *ActionError) Error() string {
	if e.Action < 0 {
		return "gym action: " + e.Reason
	}
	return fmt.Sprintf("gym action %d: %s", e.Action, e.Reason)
}

// gymStep is a half-move in the environments' absolute terms: a source index
// 0..23 or the bar, and a target index 0..23, with -1 (White) or 24 (Black)
// for borne off.
type gymStep struct {
	bar      bool
	src, tgt int
}

func toGym(s backgammon.Step, c Colour) gymStep {
	var g gymStep
	switch {
	case s.From == 25:
		g.bar = true
	case c == White:
		g.src = int(s.From) - 1
	default:
		g.src = 24 - int(s.From)
	}
	switch {
	case s.To <= 0 && c == White:
		g.tgt = -1
	case s.To <= 0:
		g.tgt = 24
	case c == White:
		g.tgt = int(s.To) - 1
	default:
		g.tgt = 24 - int(s.To)
	}
	return g
}

func fromGym(g gymStep, c Colour) backgammon.Step {
	var s backgammon.Step
	switch {
	case g.bar:
		s.From = 25
	case c == White:
		s.From = int8(g.src + 1)
	default:
		s.From = int8(24 - g.src)
	}
	switch {
	case g.tgt < 0 || g.tgt > 23:
		s.To = 0
	case c == White:
		s.To = int8(g.tgt + 1)
	default:
		s.To = int8(24 - g.tgt)
	}
	return s
}

// signedDice returns PettingZoo's low and high roll: the minimum and maximum
// of the dice, negated for White.
func signedDice(d1, d2 int, c Colour) (lo, hi int) {
	if c == White {
		d1, d2 = -d1, -d2
	}
	return min(d1, d2), max(d1, d2)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// locate gives a half-move's location id, its signed difference and whether
// it bears off, as bg_utils.from_bar does.
func locate(g gymStep) (id, diff int, bearsOff bool) {
	bearsOff = g.tgt == -1 || g.tgt == 24
	if g.bar {
		if g.tgt > 12 { // White enters on 18..23
			return barLocation, g.tgt - 24, bearsOff
		}
		return barLocation, g.tgt + 1, bearsOff
	}
	return g.src + 1, g.tgt - g.src, bearsOff
}

// encodeGym is bg_utils.to_gym_format for one play of one or two half-moves.
func encodeGym(play []gymStep, lo, hi int) int {
	switch len(play) {
	case 0:
		return PassAction
	case 1:
		a, d, off := locate(play[0])
		if off {
			if abs(d) > abs(lo) {
				d = hi
			} else {
				d = lo
			}
		}
		if abs(d) == abs(hi) {
			a += blockSize
		}
		return a
	}
	a, da, offA := locate(play[0])
	b, db, offB := locate(play[1])
	switch {
	case offA && !offB:
		if abs(db) == abs(hi) {
			da = lo
		} else {
			da = hi
		}
	case offB && !offA:
		if abs(da) == abs(hi) {
			db = lo
		} else {
			db = hi
		}
	}
	id := a + locations*b
	if da > db {
		id += blockSize
	}
	return id
}

// place is bg_utils.to_bar: the half-move from location id with signed die r.
func place(id, r int) gymStep {
	if id == barLocation {
		if r < 0 {
			return gymStep{bar: true, tgt: 24 + r}
		}
		return gymStep{bar: true, tgt: r - 1}
	}
	g := gymStep{src: id - 1, tgt: id - 1 + r}
	if g.tgt > 23 {
		g.tgt = 24
	} else if g.tgt < 0 {
		g.tgt = -1
	}
	return g
}

func checkDice(d1, d2 int) error {
	if d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6 {
		return &ActionError{-1, fmt.Sprintf("dice %d, %d are not in 1..6", d1, d2)}
	}
	return nil
}

// DecodeAction reads action a for the player of colour onRoll with dice d1
// and d2, giving its half-moves in our notation (points counted from the
// mover's home, 25 the bar, 0 off) in the order PettingZoo plays them.
// PassAction gives the empty move. It checks the form only (a in 0..1352,
// a first source, dice in 1..6), not that the play is legal anywhere: a
// source may be empty, a point blocked. Unlike PettingZoo it keeps a second
// half-move from the bar (see the package comment).
func DecodeAction(a int, d1, d2 int, onRoll Colour) (backgammon.Move, error) {
	var m backgammon.Move
	if a < 0 || a >= NumActions {
		return m, &ActionError{a, fmt.Sprintf("outside 0..%d", NumActions-1)}
	}
	if err := checkDice(d1, d2); err != nil {
		return m, err
	}
	if a == PassAction {
		return m, nil
	}
	if onRoll != White {
		onRoll = Black
	}
	lo, hi := signedDice(d1, d2, onRoll)
	r1, r2 := lo, hi
	if a >= blockSize {
		r1, r2 = hi, lo
	}
	first, second := a%blockSize%locations, a%blockSize/locations
	if first == 0 {
		return m, &ActionError{a, "first half-move has no source (location 0)"}
	}
	m.Steps[0] = fromGym(place(first, r1), onRoll)
	m.N = 1
	if second != 0 {
		m.Steps[1] = fromGym(place(second, r2), onRoll)
		m.N = 2
	}
	return m, nil
}

// EncodeAction writes the action id of a play of at most two half-moves,
// listed in the order they are played, for the player of colour onRoll with
// dice d1 and d2, as PettingZoo's to_gym_format does; the empty move is
// PassAction. It fails when a step is malformed or the play has no action
// that decodes back to it (a die used twice on a non-double roll, a step
// that matches neither die). It does not check the play against a position;
// LegalActions lists the ids PettingZoo offers for one.
func EncodeAction(m backgammon.Move, d1, d2 int, onRoll Colour) (int, error) {
	if err := checkDice(d1, d2); err != nil {
		return 0, err
	}
	if m.N < 0 || m.N > 2 {
		return 0, &ActionError{-1, fmt.Sprintf("a PettingZoo action holds at most two half-moves, not %d", m.N)}
	}
	if onRoll != White {
		onRoll = Black
	}
	var play [2]gymStep
	for i, s := range m.StepList() {
		if s.From < 1 || s.From > 25 || s.To < 0 || s.To >= s.From || (s.From == 25 && s.To < 19) {
			return 0, &ActionError{-1, fmt.Sprintf("malformed step %d/%d", s.From, s.To)}
		}
		play[i] = toGym(s, onRoll)
	}
	lo, hi := signedDice(d1, d2, onRoll)
	id := encodeGym(play[:m.N], lo, hi)
	back, err := DecodeAction(id, d1, d2, onRoll)
	if err != nil || !slices.Equal(back.StepList(), m.StepList()) {
		return 0, &ActionError{-1, fmt.Sprintf("play %v with dice %d-%d has no PettingZoo action", m.StepList(), d1, d2)}
	}
	return id, nil
}

// LegalActions lists, in increasing order, the action ids PettingZoo's mask
// offers the player on roll of b, who plays colour onRoll, with dice d1 and
// d2 in the order rolled: one per play as gym-backgammon lists them (see the
// package comment), or just PassAction when no die can be played. For
// doubles the ids cover the first two half-moves of the roll; call again on
// the position after the first action for the second. Dice outside 1..6
// give nil.
func LegalActions(b backgammon.Board, d1, d2 int, onRoll Colour) []int {
	if checkDice(d1, d2) != nil {
		return nil
	}
	if onRoll != White {
		onRoll = Black
	}
	lo, hi := signedDice(d1, d2, onRoll)
	gen := backgammon.NewMoveGen()
	moves, results := gen.Generate(b, d1, d2)
	n := 0
	for _, m := range moves {
		n = max(n, int(m.N))
	}
	if n == 0 {
		return []int{PassAction}
	}
	ids := map[int]bool{}
	add := func(steps []backgammon.Step) {
		var play [2]gymStep
		for i, s := range steps {
			play[i] = toGym(s, onRoll)
		}
		ids[encodeGym(play[:len(steps)], lo, hi)] = true
	}
	if d1 == d2 {
		// Each result of a double comes from one multiset of steps (the
		// number of checkers leaving each point is fixed by the result),
		// so the generator's representative move is the play.
		for _, m := range moves {
			steps := m.StepList()
			sortBack(steps)
			add(steps[:min(len(steps), 2)])
		}
		return sortedKeys(ids)
	}
	legal := make(map[backgammon.Board]bool, len(results))
	for _, r := range results {
		legal[r] = true
	}
	// Every order of the dice and every choice of checkers whose result is
	// legal is a play; the ordering from the back leaves one id per set of
	// half-moves.
	for _, dice := range [2][2]int{{d1, d2}, {d2, d1}} {
		for from := 25; from >= 1; from-- {
			s1, ok := stepFrom(&b, from, dice[0])
			if !ok {
				continue
			}
			b1 := b.Apply(backgammon.Move{Steps: [4]backgammon.Step{s1}, N: 1})
			if n == 1 {
				if legal[b1] {
					add([]backgammon.Step{s1})
				}
				continue
			}
			for from2 := 25; from2 >= 1; from2-- {
				s2, ok := stepFrom(&b1, from2, dice[1])
				if !ok {
					continue
				}
				if !legal[b1.Apply(backgammon.Move{Steps: [4]backgammon.Step{s2}, N: 1})] {
					continue
				}
				steps := []backgammon.Step{s1, s2}
				if s1.From == 25 && s2.From == 25 {
					// Two entries are listed in the order the dice were rolled.
					if dice[0] != d1 {
						continue
					}
				} else {
					sortBack(steps)
				}
				add(steps)
			}
		}
	}
	return sortedKeys(ids)
}

// sortBack orders half-moves as gym-backgammon sorts a play: source farthest
// from home first, then destination farthest from home first.
func sortBack(steps []backgammon.Step) {
	slices.SortStableFunc(steps, func(x, y backgammon.Step) int {
		if x.From != y.From {
			return int(y.From) - int(x.From)
		}
		return int(y.To) - int(x.To)
	})
}

// stepFrom returns the step of one checker of the player on roll from point
// from (25 the bar) by die d, if the rules allow it on b as it stands.
func stepFrom(b *backgammon.Board, from, d int) (backgammon.Step, bool) {
	me, opp := &b[backgammon.OnRoll], &b[backgammon.Opponent]
	if me[from-1] == 0 || (from != 25 && me[backgammon.BarIndex] != 0) {
		return backgammon.Step{}, false
	}
	to := from - d
	if to >= 1 {
		if opp[24-to] >= 2 {
			return backgammon.Step{}, false
		}
		return backgammon.Step{From: int8(from), To: int8(to)}, true
	}
	for i := 6; i < 25; i++ {
		if me[i] != 0 {
			return backgammon.Step{}, false
		}
	}
	if to < 0 {
		for i := from; i < 6; i++ {
			if me[i] != 0 {
				return backgammon.Step{}, false
			}
		}
	}
	return backgammon.Step{From: int8(from), To: 0}, true
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
