package backgammon

import (
	"math/rand/v2"
	"testing"
)

// randomPositions plays seeded random games and collects positions with
// the roll that follows, spread over every phase of the game.
func randomPositions(seed uint64, n int, v Variant) (boards []Board, rolls [][2]int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	gen := NewMoveGen()
	for len(boards) < n {
		b := v.StartBoard()
		for ply := 0; ply < 400 && len(boards) < n; ply++ {
			d1, d2 := rng.IntN(6)+1, rng.IntN(6)+1
			boards = append(boards, b)
			rolls = append(rolls, [2]int{d1, d2})
			_, results := gen.Generate(b, d1, d2)
			b = results[rng.IntN(len(results))]
			if b.OnBoard(OnRoll) == 0 {
				break
			}
			b = b.Swap()
		}
	}
	return boards, rolls
}

func TestOpeningMoveCounts(t *testing.T) {
	// Distinct resulting positions for each opening roll, as gnubg's
	// "hint 1000" at 0-ply lists them (checked with gnubg 1.07 by
	// TestAgainstGnubg, which recomputes them from gnubg itself).
	want := map[[2]int]int{
		{1, 1}: 42, {2, 1}: 15, {2, 2}: 75, {3, 1}: 16, {3, 2}: 17, {3, 3}: 73, {4, 1}: 14,
		{4, 2}: 18, {4, 3}: 17, {4, 4}: 52, {5, 1}: 8, {5, 2}: 8, {5, 3}: 9, {5, 4}: 9,
		{5, 5}: 4, {6, 1}: 10, {6, 2}: 14, {6, 3}: 14, {6, 4}: 14, {6, 5}: 7, {6, 6}: 11,
	}
	gen := NewMoveGen()
	for roll, n := range want {
		moves, _ := gen.Generate(Standard.StartBoard(), roll[0], roll[1])
		if len(moves) != n {
			t.Errorf("opening %d%d: %d moves, want %d", roll[0], roll[1], len(moves), n)
		}
	}
}

func TestDifferentialAgainstSimpleGenerator(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	gen := NewMoveGen()
	for _, v := range []Variant{Standard, Nackgammon, Hypergammon3} {
		count := n
		if v != Standard {
			count = n / 10
		}
		boards, rolls := randomPositions(uint64(v)+7, count, v)
		for i, b := range boards {
			d1, d2 := rolls[i][0], rolls[i][1]
			moves, results := gen.Generate(b, d1, d2)
			want := simpleMoves(b, d1, d2)
			if len(results) != len(want) {
				t.Fatalf("%v position %d (%v) roll %d%d: %d moves, simple generator has %d", v, i, b, d1, d2, len(results), len(want))
			}
			for j, r := range results {
				if !want[r] {
					t.Fatalf("%v position %d (%v) roll %d%d: move %s is not in the simple generator's list", v, i, b, d1, d2, Format(b, moves[j]))
				}
			}
		}
	}
}

func TestNotationRoundTrip(t *testing.T) {
	boards, rolls := randomPositions(99, 20_000, Standard)
	gen := NewMoveGen()
	check := NewMoveGen()
	for i, b := range boards {
		d1, d2 := rolls[i][0], rolls[i][1]
		moves, results := gen.Generate(b, d1, d2)
		for j, m := range moves {
			text := Format(b, m)
			back, err := check.ResolveMove(b, d1, d2, text)
			if err != nil {
				t.Fatalf("position %v roll %d%d: %q does not parse back: %v", b, d1, d2, text, err)
			}
			if got := b.Apply(back); got != results[j] {
				t.Fatalf("position %v roll %d%d: %q parses to a different move (%s)", b, d1, d2, text, Format(b, back))
			}
			if again := Format(b, back); again != text {
				t.Fatalf("position %v roll %d%d: %q prints back as %q", b, d1, d2, text, again)
			}
		}
	}
}

func TestEdgeCases(t *testing.T) {
	var b Board
	set := func(side int, pts map[int]int8) {
		for p, c := range pts {
			b[side][p-1] = c
		}
	}
	// Checker on the bar facing a closed board: no move at all.
	b = Board{}
	set(OnRoll, map[int]int8{25: 1, 6: 14})
	set(Opponent, map[int]int8{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3})
	if ms, _ := LegalMoves(b, 6, 3); len(ms) != 1 || ms[0].N != 0 {
		t.Errorf("closed board: got %d moves, want the single empty move", len(ms))
	}
	// Only one die playable: the larger must be played. Checker on 13, the
	// 7 and 10 points blocked after either die... set so that 6 or 3 alone works.
	b = Board{}
	set(OnRoll, map[int]int8{13: 1})
	set(Opponent, map[int]int8{25 - 4: 2, 25 - 1: 2}) // blocks 13-6-3=4 and 13-3-6=4... and 1
	ms, res := LegalMoves(b, 6, 3)
	for i := range ms {
		if res[i][OnRoll][12] != 0 && ms[i].N < 2 {
			t.Errorf("larger-die case: unexpected move %s", Format(b, ms[i]))
		}
	}
	// Bear off with a higher die only from the highest point.
	b = Board{}
	set(OnRoll, map[int]int8{4: 1, 2: 1})
	set(Opponent, map[int]int8{24: 2})
	ms, _ = LegalMoves(b, 6, 5)
	if len(ms) != 1 || Format(b, ms[0]) != "4/off 2/off" {
		t.Errorf("bear-off with higher dice: got %d moves (%v)", len(ms), formatAll(b, ms))
	}
}

func formatAll(b Board, ms []Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, Format(b, m))
	}
	return out
}

func BenchmarkLegalMoves(b *testing.B) {
	boards, rolls := randomPositions(2024, 1000, Standard)
	gen := NewMoveGen()
	positions := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, p := range boards {
			_, res := gen.Generate(p, rolls[j][0], rolls[j][1])
			positions += len(res)
		}
	}
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(positions), "ns/position")
}

func TestParseNotationForms(t *testing.T) {
	gen := NewMoveGen()
	start := Standard.StartBoard()
	cases := []struct {
		text   string
		d1, d2 int
		want   string
	}{
		{"24/18 13/11", 6, 2, "24/18 13/11"},
		{"24 18 13 11", 6, 2, "24/18 13/11"},
		{"24/18, 13/11", 6, 2, "24/18 13/11"},
		{"13/11 24/18", 6, 2, "24/18 13/11"},
		{"24/18/13", 6, 5, "24/13"},
		{"24/13", 6, 5, "24/13"},
		{"8/4(2) 6/2(2)", 4, 4, "8/4(2) 6/2(2)"},
		{"8/4 8/4 6/2 6/2", 4, 4, "8/4(2) 6/2(2)"},
		{"8 4 8 4 6 2 6 2", 4, 4, "8/4(2) 6/2(2)"},
		{"13/7*/1", 6, 6, ""},
	}
	for _, c := range cases {
		m, err := gen.ResolveMove(start, c.d1, c.d2, c.text)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q with %d%d: accepted an illegal move", c.text, c.d1, c.d2)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q with %d%d: %v", c.text, c.d1, c.d2, err)
			continue
		}
		if got := Format(start, m); got != c.want {
			t.Errorf("%q with %d%d: prints %q, want %q", c.text, c.d1, c.d2, got, c.want)
		}
	}
	for _, bad := range []string{"24", "24/", "/18", "24/30", "24/18 13", "8/4(5)", "8/4(2", "off/6", "6/off/3", "18/24", "x/y", "bar*/22"} {
		if _, err := ParseNotation(bad); err == nil {
			t.Errorf("ParseNotation(%q) accepted bad text", bad)
		}
	}
	// Bar and off in every spelling gnubg uses.
	var b Board
	b[OnRoll][BarIndex] = 1
	b[OnRoll][5] = 14
	b[Opponent][23] = 15
	for _, text := range []string{"bar/22", "b/22", "25/22", "BAR/22"} {
		m, err := gen.ResolveMove(b, 3, 3, text+" 22/19 22/16")
		if err == nil {
			t.Errorf("%q: a move of checkers the player does not have was accepted", text)
		}
		m, err = gen.ResolveMove(b, 3, 1, text+" 6/5")
		if err != nil || Format(b, m) != "bar/22 6/5" {
			t.Errorf("%q: %v %q", text, err, Format(b, m))
		}
	}
}
