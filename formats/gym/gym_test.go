package gym

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// turnRecord is one decision of a random game: the board seen from the
// player on roll, that player's colour and the roll.
type turnRecord struct {
	b      backgammon.Board
	colour Colour
	d1, d2 int
}

// randomGames plays games with uniformly random legal moves and records
// every decision.
func randomGames(t testing.TB, games int, seed uint64) []turnRecord {
	t.Helper()
	dice := backgammon.NewDice(seed, seed^0x9e3779b97f4a7c15)
	pick := rand.New(rand.NewPCG(seed, 7))
	gen := backgammon.NewMoveGen()
	var out []turnRecord
	for g := 0; g < games; g++ {
		b := backgammon.Standard.StartBoard()
		first, d1, d2 := dice.Opening()
		colour := Colour(first)
		for ply := 0; ply < 1000; ply++ {
			out = append(out, turnRecord{b, colour, d1, d2})
			_, results := gen.Generate(b, d1, d2)
			next := results[pick.IntN(len(results))]
			if next.OnBoard(backgammon.OnRoll) == 0 {
				out = append(out, turnRecord{next.Swap(), colour.Other(), 1, 2})
				break
			}
			b = next.Swap()
			colour = colour.Other()
			d1, d2 = dice.Roll()
		}
	}
	return out
}

func TestEncodeOpening(t *testing.T) {
	v := Encode(backgammon.Standard.StartBoard(), White)
	want := map[int]float32{
		// White: index 5 (own 6 point, 5 checkers), 7 (3), 12 (5), 23 (2).
		20: 1, 21: 1, 22: 1, 23: 1,
		28: 1, 29: 1, 30: 1, 31: 0,
		48: 1, 49: 1, 50: 1, 51: 1,
		92: 1, 93: 1, 94: 0, 95: 0,
		// Black: index 0 (own 24 point, 2), 11 (5), 16 (3), 18 (5).
		98: 1, 99: 1, 100: 0, 101: 0,
		142: 1, 143: 1, 144: 1, 145: 1,
		162: 1, 163: 1, 164: 1, 165: 0,
		170: 1, 171: 1, 172: 1, 173: 1,
		96: 0, 97: 0, 194: 0, 195: 0,
		196: 1, 197: 0,
	}
	var sum float32
	for i, x := range v {
		sum += x
		if w, ok := want[i]; ok && x != w {
			t.Errorf("feature %d = %v, want %v", i, x, w)
		}
	}
	if sum != 27 {
		t.Errorf("features sum to %v, want 27 (13 per colour and the turn unit)", sum)
	}
	// The opening position is symmetric: Black on roll differs only in the turn.
	vb := Encode(backgammon.Standard.StartBoard(), Black)
	if vb[196] != 0 || vb[197] != 1 || !slices.Equal(vb[:196], v[:196]) {
		t.Errorf("Black's opening vector differs beyond the turn units")
	}
	b, turn, err := Decode(v)
	if err != nil || turn != White || b != backgammon.Standard.StartBoard() {
		t.Fatalf("Decode(opening) = %v, %v, %v", b, turn, err)
	}
}

func TestEncodeCounts(t *testing.T) {
	// White (on roll) with 8 checkers on its 1 point, 2 on the bar, 5 off;
	// Black with 13 on its 19 point (absolute index 24-19 = 5), 1 on the
	// bar, 1 off.
	var b backgammon.Board
	b[backgammon.OnRoll][0] = 8
	b[backgammon.OnRoll][backgammon.BarIndex] = 2
	b[backgammon.Opponent][18] = 13
	b[backgammon.Opponent][backgammon.BarIndex] = 1
	v := Encode(b, White)
	check := func(i int, want float32) {
		t.Helper()
		if v[i] != want {
			t.Errorf("feature %d = %v, want %v", i, v[i], want)
		}
	}
	check(0, 1)
	check(3, 2.5) // (8-3)/2
	check(96, 1)  // 2 on the bar
	check(97, 1.0/3)
	check(98+4*5, 1) // Black's 19 point is absolute index 5
	check(98+4*5+3, 5)
	check(194, 0.5)
	check(195, float32(1.0/15))
	check(196, 1)
	got, turn, err := Decode(v)
	if err != nil || turn != White || got != b {
		t.Fatalf("Decode = %v, %v, %v", got, turn, err)
	}
	// Seen from Black, with PettingZoo's fixed turn units.
	w := EncodeTurn(b.Swap(), Black, Black)
	if !slices.Equal(w[:196], v[:196]) || w[196] != 0 || w[197] != 1 {
		t.Errorf("EncodeTurn from Black's view differs")
	}
}

func TestObservationRoundTrip(t *testing.T) {
	recs := randomGames(t, 40, 1)
	for _, r := range recs {
		for _, c := range []Colour{White, Black} {
			v := Encode(r.b, c)
			b, turn, err := Decode(v)
			if err != nil {
				t.Fatalf("Decode(Encode(%v, %v)): %v", r.b, c, err)
			}
			if b != r.b || turn != c {
				t.Fatalf("round trip of %v as %v gave %v as %v", r.b, c, b, turn)
			}
			// The same absolute position seen by the other player.
			w := EncodeTurn(r.b.Swap(), c.Other(), c)
			if w != v {
				t.Fatalf("Encode(%v, %v) and EncodeTurn of the swapped board differ", r.b, c)
			}
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	start := Encode(backgammon.Standard.StartBoard(), White)
	nan := float32(0)
	nan = nan / nan
	cases := []struct {
		name  string
		set   map[int]float32
		index int
	}{
		{"unit not 0 or 1", map[int]float32{0: 0.5}, 0},
		{"gap in units", map[int]float32{4: 0, 5: 1}, 5}, // index 1: empty point with unit 2 set
		{"overflow without 3", map[int]float32{95: 1}, 95},
		{"overflow not half", map[int]float32{23: 0.25}, 23},
		{"overflow too many", map[int]float32{23: 6.5}, 23},
		{"NaN", map[int]float32{50: nan}, 50},
		{"point held by both", map[int]float32{98 + 20: 1}, 118},
		{"bar not whole", map[int]float32{96: 0.25}, 96},
		{"wrong total", map[int]float32{96: 0.5}, 97},
		{"off not n/15", map[int]float32{97: 0.05}, 97},
		{"turn both", map[int]float32{197: 1}, 197},
		{"turn neither", map[int]float32{196: 0}, 197},
		{"turn half", map[int]float32{196: 0.5}, 196},
	}
	for _, tc := range cases {
		v := start
		for i, x := range tc.set {
			v[i] = x
		}
		_, _, err := Decode(v)
		var fe *FeatureError
		if !errors.As(err, &fe) {
			t.Errorf("%s: err = %v, want a *FeatureError", tc.name, err)
			continue
		}
		if fe.Index != tc.index {
			t.Errorf("%s: error names feature %d, want %d (%v)", tc.name, fe.Index, tc.index, err)
		}
	}
	// Both colours borne off.
	var v [ObservationSize]float32
	v[97], v[195], v[196] = 1, 1, 1
	if _, _, err := Decode(v); err == nil {
		t.Errorf("Decode accepted both colours borne off")
	}
	// Borne-off units computed in float32 are accepted.
	var b backgammon.Board
	b[backgammon.OnRoll][0] = 1
	b[backgammon.Opponent][0] = 2
	v = Encode(b, Black)
	v[97] = float32(13) / float32(15) // White, the opponent: 2 on board
	v[195] = float32(14) / 15
	if got, _, err := Decode(v); err != nil || got != b {
		t.Errorf("float32 borne-off units: %v, %v", got, err)
	}
}

// The legal actions that gym-backgammon's README lists for Black with 1-3
// in the opening position, encoded by hand following to_gym_format.
func TestLegalActionsOpeningReadme(t *testing.T) {
	want := []int{27, 53, 313, 443, 459, 485, 495, 511, 513, 539, 781, 1078, 1119, 1130, 1171, 1182, 1187, 1213, 1267}
	for _, dice := range [][2]int{{1, 3}, {3, 1}} {
		got := LegalActions(backgammon.Standard.StartBoard(), dice[0], dice[1], Black)
		if !slices.Equal(got, want) {
			t.Errorf("Black %d-%d: got %v, want %v", dice[0], dice[1], got, want)
		}
	}
	// ((11, 14), (14, 15)): 13/10/9, the 3 first.
	m, err := DecodeAction(1078, 1, 3, Black)
	if err != nil || !slices.Equal(m.StepList(), []backgammon.Step{stp(13, 10), stp(10, 9)}) {
		t.Errorf("DecodeAction(1078) = %v, %v", m.StepList(), err)
	}
	// White 3-1, 8/5 6/5: sources 8 and 6 (absolute 7 and 5), low (signed)
	// roll -3 first.
	got := LegalActions(backgammon.Standard.StartBoard(), 3, 1, White)
	if !slices.Contains(got, 164) || len(got) != len(want) {
		t.Errorf("White 3-1: %v, want 164 among %d ids", got, len(want))
	}
	m, err = DecodeAction(164, 3, 1, White)
	if err != nil || !slices.Equal(m.StepList(), []backgammon.Step{stp(8, 5), stp(6, 5)}) {
		t.Errorf("DecodeAction(164, White) = %v, %v", m.StepList(), err)
	}
}

func TestActionKnown(t *testing.T) {
	cases := []struct {
		steps  []backgammon.Step
		d1, d2 int
		c      Colour
		id     int
	}{
		{nil, 3, 1, White, PassAction},
		// Black enters two from the bar with 5-3 rolled in that order: the
		// 5 first is the high die.
		{[]backgammon.Step{stp(25, 20), stp(25, 22)}, 5, 3, Black, 25 + 26*25 + 676},
		{[]backgammon.Step{stp(25, 22), stp(25, 20)}, 3, 5, Black, 25 + 26*25},
		// White enters with 5 (its signed low die, -5) then with 3.
		{[]backgammon.Step{stp(25, 20), stp(25, 22)}, 5, 3, White, 25 + 26*25},
		// A single bear-off from Black's 2 point with 4-6: distance 2 does not
		// exceed the low die, so block 0; absolute index 22, location 23.
		{[]backgammon.Step{stp(2, 0)}, 4, 6, Black, 23},
		// The same for White: location 2, block 0 (low die -6).
		{[]backgammon.Step{stp(2, 0)}, 4, 6, White, 2},
		// Doubles: a single half-move is always block 1.
		{[]backgammon.Step{stp(6, 2)}, 4, 4, White, 6 + 676},
		{[]backgammon.Step{stp(6, 2), stp(6, 2)}, 4, 4, White, 6 + 26*6},
	}
	for _, tc := range cases {
		var m backgammon.Move
		copy(m.Steps[:], tc.steps)
		m.N = int8(len(tc.steps))
		id, err := EncodeAction(m, tc.d1, tc.d2, tc.c)
		if err != nil || id != tc.id {
			t.Errorf("EncodeAction(%v, %d-%d, %v) = %d, %v; want %d", tc.steps, tc.d1, tc.d2, tc.c, id, err, tc.id)
		}
		back, err := DecodeAction(tc.id, tc.d1, tc.d2, tc.c)
		if err != nil || !slices.Equal(back.StepList(), m.StepList()) {
			t.Errorf("DecodeAction(%d) = %v, %v; want %v", tc.id, back.StepList(), err, tc.steps)
		}
	}
}

func TestActionErrors(t *testing.T) {
	for _, a := range []int{-1, NumActions, 26, 676, 676 + 26*5} {
		if _, err := DecodeAction(a, 3, 1, Black); err == nil {
			t.Errorf("DecodeAction(%d) accepted", a)
		}
	}
	if _, err := DecodeAction(5, 0, 1, Black); err == nil {
		t.Errorf("DecodeAction with die 0 accepted")
	}
	bad := []backgammon.Move{
		{Steps: [4]backgammon.Step{stp(6, 2), stp(6, 2)}, N: 2},            // die 4 twice with 4-1
		{Steps: [4]backgammon.Step{stp(6, 3)}, N: 1},                       // no die 3
		{Steps: [4]backgammon.Step{stp(6, 5), stp(5, 1), stp(8, 7)}, N: 3}, // three half-moves
		{Steps: [4]backgammon.Step{stp(3, 5)}, N: 1},                       // backwards
		{Steps: [4]backgammon.Step{stp(26, 22)}, N: 1},                     // no such point
	}
	for _, m := range bad {
		if id, err := EncodeAction(m, 4, 1, White); err == nil {
			t.Errorf("EncodeAction(%v) = %d, want an error", m.StepList(), id)
		}
	}
}

// playable plays steps one at a time on b, each one legal where it stands.
func playable(b backgammon.Board, m backgammon.Move) (backgammon.Board, bool) {
	for _, s := range m.StepList() {
		d := int(s.From - s.To)
		if s.To == 0 {
			// A bear-off by the exact distance is legal whenever one by a
			// larger die is, and ends in the same position.
			d = int(s.From)
		}
		st, ok := stepFrom(&b, int(s.From), d)
		if !ok || st != s {
			return b, false
		}
		b = b.Apply(backgammon.Move{Steps: [4]backgammon.Step{s}, N: 1})
	}
	return b, true
}

func TestLegalActionsConsistent(t *testing.T) {
	gen := backgammon.NewMoveGen()
	recs := randomGames(t, 40, 2)
	var plays, doubles int
	for _, r := range recs {
		moves, results := gen.Generate(r.b, r.d1, r.d2)
		maxN := 0
		for _, m := range moves {
			maxN = max(maxN, int(m.N))
		}
		legal := map[backgammon.Board]bool{}
		for _, x := range results {
			legal[x] = true
		}
		ids := LegalActions(r.b, r.d1, r.d2, r.colour)
		if maxN == 0 {
			if !slices.Equal(ids, []int{PassAction}) {
				t.Fatalf("%v %d-%d: no move but actions %v", r.b, r.d1, r.d2, ids)
			}
			continue
		}
		if len(ids) == 0 || !slices.IsSorted(ids) || slices.Contains(ids, PassAction) {
			t.Fatalf("%v %d-%d: actions %v", r.b, r.d1, r.d2, ids)
		}
		reached := map[backgammon.Board]bool{}
		for _, id := range ids {
			m, err := DecodeAction(id, r.d1, r.d2, r.colour)
			if err != nil {
				t.Fatalf("%v %d-%d: DecodeAction(%d): %v", r.b, r.d1, r.d2, id, err)
			}
			if back, err := EncodeAction(m, r.d1, r.d2, r.colour); err != nil || back != id {
				t.Fatalf("%v %d-%d: EncodeAction(DecodeAction(%d) = %v) = %d, %v", r.b, r.d1, r.d2, id, m.StepList(), back, err)
			}
			after, ok := playable(r.b, m)
			if !ok {
				t.Fatalf("%v %d-%d %v: action %d = %v is not playable", r.b, r.d1, r.d2, r.colour, id, m.StepList())
			}
			plays++
			if r.d1 != r.d2 {
				if int(m.N) != maxN || !legal[after] {
					t.Fatalf("%v %d-%d: action %d = %v is not a legal move", r.b, r.d1, r.d2, id, m.StepList())
				}
				reached[after] = true
				continue
			}
			// Doubles: the second action, from the position after the
			// first, must finish a legal move.
			if int(m.N) != min(maxN, 2) {
				t.Fatalf("%v %d-%d: first action %d plays %d half-moves of %d", r.b, r.d1, r.d2, id, m.N, maxN)
			}
			for _, id2 := range LegalActions(after, r.d1, r.d2, r.colour) {
				m2, err := DecodeAction(id2, r.d1, r.d2, r.colour)
				if err != nil {
					t.Fatal(err)
				}
				final, ok := playable(after, m2)
				if !ok || int(m.N+m2.N) != maxN || !legal[final] {
					t.Fatalf("%v %d-%d: actions %d then %d (%v %v) are not a legal move", r.b, r.d1, r.d2, id, id2, m.StepList(), m2.StepList())
				}
				doubles++
			}
		}
		if r.d1 != r.d2 && len(reached) != len(legal) {
			t.Fatalf("%v %d-%d: actions reach %d of %d legal positions", r.b, r.d1, r.d2, len(reached), len(legal))
		}
	}
	t.Logf("%d positions, %d actions checked, %d double continuations", len(recs), plays, doubles)
}

func stp(from, to int8) backgammon.Step { return backgammon.Step{From: from, To: to} }

// testdata/pettingzoo_masks.jsonl holds 330 positions from random games
// (110 with a checker on the bar, 110 bearing off, 110 others) with the
// action mask that PettingZoo backgammon_v3's own code (backgammon_base.py
// get_valid_plays, then bg_utils.double_roll for doubles and to_gym_format)
// computed for them. Boards are absolute: white and black list the checkers
// of each colour on indexes 0..23.
func TestLegalActionsPettingZooMasks(t *testing.T) {
	data, err := os.ReadFile("testdata/pettingzoo_masks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var c struct {
			White, Black [24]int8
			WBar, BBar   int8
			Colour       string
			Dice         [2]int
			Mask         []int
		}
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatal(err)
		}
		colour := White
		if c.Colour == "b" {
			colour = Black
		}
		var b backgammon.Board
		for i := 0; i < 24; i++ {
			b[backgammon.OnRoll][ownIndex(White, i)] = c.White[i]
			b[backgammon.Opponent][ownIndex(Black, i)] = c.Black[i]
		}
		b[backgammon.OnRoll][backgammon.BarIndex], b[backgammon.Opponent][backgammon.BarIndex] = c.WBar, c.BBar
		if colour == Black {
			b = b.Swap()
		}
		if err := b.Validate(backgammon.Standard); err != nil {
			t.Fatalf("case %d: %v", n, err)
		}
		if got := LegalActions(b, c.Dice[0], c.Dice[1], colour); !slices.Equal(got, c.Mask) {
			t.Errorf("case %d (%s): %s to play %d-%d: got %v, PettingZoo %v", n, line, colour, c.Dice[0], c.Dice[1], got, c.Mask)
		}
		n++
	}
	if n != 330 {
		t.Errorf("read %d cases, want 330", n)
	}
}

// The one difference found in 58,755 positions: with doubles, one checker on
// the bar and exactly two more half-moves by different checkers after it,
// gym-backgammon keeps those two in Python set order, not sorted; we list
// them from the back.
func TestLegalActionsBarDoubleOrder(t *testing.T) {
	white := [24]int8{6, 7, 0, 0, 1}
	black := [24]int8{2: 1, 6: 1, 11: 1, 12: 1, 15: 2, 21: 1, 23: 8}
	var b backgammon.Board
	for i := 0; i < 24; i++ {
		b[backgammon.OnRoll][i] = white[i]
		b[backgammon.Opponent][23-i] = black[i]
	}
	b[backgammon.OnRoll][backgammon.BarIndex] = 1
	// bar/22*/19 first (PettingZoo offers bar/22* 5/2 instead: action 155).
	if got := LegalActions(b, 3, 3, White); !slices.Equal(got, []int{25 + 26*22}) {
		t.Errorf("got %v, want [597]", got)
	}
}
