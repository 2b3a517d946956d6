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
