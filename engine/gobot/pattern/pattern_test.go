package pattern

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/gogame"
)

func mustParse(t testing.TB, text string) []*Pattern {
	t.Helper()
	ps, err := ParseString("test.db", text)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func TestRoundTrip(t *testing.T) {
	files, err := filepath.Glob("patterns/*.db")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pattern files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := ParseString(f, string(data))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := Format(&b, ps); err != nil {
			t.Fatal(err)
		}
		again, err := ParseString(f, b.String())
		if err != nil {
			t.Fatalf("%s printed does not parse: %v\n%s", f, err, b.String())
		}
		if len(again) != len(ps) {
			t.Fatalf("%s: %d patterns, %d after a round trip", f, len(ps), len(again))
		}
		for i := range ps {
			a, b := *ps[i], *again[i]
			a.Line, b.Line = 0, 0
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: pattern %s changed in a round trip:\n%+v\n%+v", f, a.Name, a, b)
			}
		}
		var b2 strings.Builder
		Format(&b2, again)
		if b2.String() != b.String() {
			t.Errorf("%s: printing is not stable", f)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Pattern A\n\n.*.\n\n:8\n\nPattern A\n\n.*.\n\n:8\n", "test.db:7: pattern A already defined at line 1"},
		{"Pattern A\n\n.*Q\n\n:8\n", "test.db:3: column 3"},
		{"Pattern A\n\n.*.\n\n:7\n", "test.db:5: pattern A: symmetry \"7\""},
		{"Pattern A\n\n.*.\n..\n:8\n", "test.db:2: pattern A: diagram row 2 has 2 columns"},
		{"Pattern A\n\n...\n\n:8\n", "test.db:2: pattern A: diagram has 0 '*'"},
		{"Pattern A\n\n.*.\n\n:8,value(x)\n", "test.db:5: pattern A: attribute \"value(x)\""},
		{"Pattern A\n\n.*.\n\n:8\n\n.a.\n\n;lib(b)>1\n", "test.db:9: pattern A: constraint: lib(b): no point labelled"},
		{"Pattern A\n\n.*.\n\n:8\n\n.a.\n\n;lib(a)>\n", "test.db:9: pattern A: constraint: expression ends early"},
		{"Pattern A\n\n.*.\n\n:8\n\n.aa\n\n;lib(a)>1\n", "test.db:7: pattern A: constraint diagram: label 'a' used twice"},
		{"Pattern A\n\n.*.\n\n:8\n\n.a.\n", "test.db:5: pattern A: constraint diagram without"},
		{"Pattern A\n\n.*.\n\n:8\n\n>helper()\n", "test.db:7: pattern A: action lines"},
		{"Pattern A\n\n.*.\n.-.\n\n:8\n", "test.db:2: pattern A: diagram row 2 column 2: edge"},
		{"junk\n", "test.db:1: want \"Pattern NAME\""},
		{"Pattern A\n\n.*.\n", "test.db:3: pattern A: no ':' line"},
	} {
		_, err := ParseString("test.db", tc.text)
		var pe *ParseError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &pe) {
			t.Errorf("%q: got %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

// TestSymmetryClasses checks the number of distinct transformations each
// class keeps, and that a wrongly declared class is an error.
func TestSymmetryClasses(t *testing.T) {
	for _, tc := range []struct {
		diagram string
		class   byte
		want    int
	}{
		{"XO.\n.*.\n?.?", '8', 8},
		{"XOX\n.*.\n???", '|', 4},
		{"X..\nO*O\nX..", '-', 4},
		{"OX?\nX*o\n?o?", '\\', 4},
		{"?XO\no*X\n?o?", '/', 4},
		{"XO.\n.*.\n.OX", 'O', 4},
		{"X.O\n.*.\nO.X", 'X', 2},
		{"X.X\nO*O\nX.X", '+', 2},
		{"?O?\nO*O\n?O?", '+', 1}, // more symmetric than declared: still distinct
		{"|..\n|*.\n|..", '-', 4},
		{"|..\n|*.\n+--", '/', 4},
	} {
		text := fmt.Sprintf("Pattern P\n\n%s\n\n:%c\n", tc.diagram, tc.class)
		db, err := Compile(mustParse(t, text))
		if err != nil {
			t.Errorf("%q: %v", tc.diagram, err)
			continue
		}
		if got := len(db.Patterns[0].Variants); got != tc.want {
			t.Errorf("%q class %c: %d transformations, want %d", tc.diagram, tc.class, got, tc.want)
		}
	}
	for _, tc := range []struct {
		diagram string
		class   byte
	}{
		{"XO.\n.*.\n?.?", '|'},
		{"XOX\n.*.\n???", '-'},
		{"XOX\n.*.\n???", 'X'},
		{"XO.\n.*.\n.OX", '+'},
		{"|..\n|*.\n|..", '|'},
	} {
		text := fmt.Sprintf("Pattern P\n\n%s\n\n:%c\n", tc.diagram, tc.class)
		_, err := Compile(mustParse(t, text))
		if err == nil || !strings.Contains(err.Error(), "declared symmetry") || !strings.Contains(err.Error(), "test.db:1") {
			t.Errorf("%q declared %c: got %v, want a symmetry error", tc.diagram, tc.class, err)
		}
	}
}

// stamp writes variant v's diagram onto g with its move at (x, y):
// required stones as they must be, '?' points left as they are.
func stamp(g *grid, v *Variant, toPlay Color, x, y int) bool {
	for _, e := range v.elems {
		px, py := x+int(e.dx), y+int(e.dy)
		if e.mask == MaskOff {
			if g.on(px, py) {
				return false
			}
			continue
		}
		if !g.on(px, py) {
			return false
		}
		switch {
		case e.mask&MaskEmpty != 0 && e.mask&MaskOwn == 0 && e.mask&MaskOpp == 0:
			g.set(px, py, gogame.Empty)
		case e.mask == MaskOwn:
			g.set(px, py, toPlay)
		case e.mask == MaskOpp:
			g.set(px, py, toPlay.Opponent())
		}
	}
	g.set(x, y, gogame.Empty)
	return true
}

// TestStamped stamps an asymmetric pattern in each of its orientations at
// a point of an empty 9x9 board and checks it is found there exactly once
// for the stamping colour, and with the colours swapped for the other.
func TestStamped(t *testing.T) {
	db, err := Compile(mustParse(t, "Pattern P\n\nXXO\n.*.\n?..\n\n:8\n"))
	if err != nil {
		t.Fatal(err)
	}
	vs := db.Patterns[0].Variants
	if len(vs) != 8 {
		t.Fatalf("%d variants", len(vs))
	}
	for _, c := range []Color{gogame.Black, gogame.White} {
		for _, v := range vs {
			g := newGrid(9)
			if !stamp(g, v, c, 4, 4) {
				t.Fatal("stamp off the board")
			}
			var got []Match
			db.MatchAt(g, c, 4, 4, func(m Match) { got = append(got, m) })
			if len(got) != 1 || got[0].Variant != v || got[0].X != 4 || got[0].Y != 4 {
				t.Errorf("transform %d for %v: matches %v, want one at 4,4", v.Transform, c, got)
			}
			n := 0
			db.MatchAt(g, c.Opponent(), 4, 4, func(Match) { n++ })
			if n != 0 {
				t.Errorf("transform %d: %d matches for the other colour", v.Transform, n)
			}
		}
	}
	// A symmetric pattern keeps one transformation per orientation, so a
	// stamp matches once at its point, not once per symmetry.
	db, err = Compile(mustParse(t, "Pattern S\n\nXOX\n.*.\n???\n\n:|\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range db.Patterns[0].Variants {
		g := newGrid(7)
		stamp(g, v, gogame.Black, 3, 3)
		n := 0
		db.MatchAt(g, gogame.Black, 3, 3, func(m Match) { n++ })
		if n != 1 {
			t.Errorf("symmetric pattern, transform %d: %d matches, want 1", v.Transform, n)
		}
	}
}

// TestEdgesAndCorners: an edge pattern matches on the first line only, a
// corner pattern only in the corners, on an empty board.
func TestEdgesAndCorners(t *testing.T) {
	db, err := Compile(mustParse(t, `Pattern Edge

...
.*.
---

:|

Pattern Corner

|..
|*.
+--

:/

Pattern Mid

...
.*.
...

:+
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{5, 9, 19} {
		g := newGrid(n)
		count := map[string]int{}
		db.MatchAll(g, gogame.Black, func(m Match) {
			name := m.Variant.Pattern.Name
			count[name]++
			edge := m.X == 0 || m.Y == 0 || m.X == n-1 || m.Y == n-1
			corner := (m.X == 0 || m.X == n-1) && (m.Y == 0 || m.Y == n-1)
			switch name {
			case "Edge":
				if !edge || corner {
					t.Errorf("%dx%d: Edge at %d,%d", n, n, m.X, m.Y)
				}
			case "Corner":
				if !corner {
					t.Errorf("%dx%d: Corner at %d,%d", n, n, m.X, m.Y)
				}
			case "Mid":
				if edge {
					t.Errorf("%dx%d: Mid at %d,%d", n, n, m.X, m.Y)
				}
			}
		})
		if want := 4 * (n - 2); count["Edge"] != want {
			t.Errorf("%dx%d: %d edge matches, want %d", n, n, count["Edge"], want)
		}
		if count["Corner"] != 4 {
			t.Errorf("%dx%d: %d corner matches, want 4", n, n, count["Corner"])
		}
		if want := (n - 2) * (n - 2); count["Mid"] != want {
			t.Errorf("%dx%d: %d middle matches, want %d", n, n, count["Mid"], want)
		}
	}
}

func TestConstraint(t *testing.T) {
	db, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	// A white stone at B2 in atari (black A2, B1, C2... leave B3 as the
	// liberty): Black captures at B3.
	g := newGrid(5)
	g.set(1, 1, gogame.White)
	g.set(0, 1, gogame.Black)
	g.set(2, 1, gogame.Black)
	g.set(1, 0, gogame.Black)
	found := map[string][][2]int{}
	db.MatchAll(g, gogame.Black, func(m Match) {
		found[m.Variant.Pattern.Name] = append(found[m.Variant.Pattern.Name], [2]int{m.X, m.Y})
	})
	if got := found["CaptureInAtari"]; !slices.Equal(got, [][2]int{{1, 2}}) {
		t.Errorf("CaptureInAtari at %v, want [1 2]", got)
	}
	// For White the point is an escape: B3 gives the stone 3 liberties.
	found = map[string][][2]int{}
	db.MatchAll(g, gogame.White, func(m Match) {
		found[m.Variant.Pattern.Name] = append(found[m.Variant.Pattern.Name], [2]int{m.X, m.Y})
	})
	if got := found["EscapeAtari"]; !slices.Equal(got, [][2]int{{1, 2}}) {
		t.Errorf("EscapeAtari at %v, want [1 2]", got)
	}
	if len(found["CaptureInAtari"]) != 0 {
		t.Errorf("White captures at %v", found["CaptureInAtari"])
	}
}

type matchKey struct {
	v    *Variant
	x, y int
}

// TestNaiveAgrees compares the fast matcher with the naive one on random
// boards, with our database and with random patterns.
func TestNaiveAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dbs := []*DB{}
	db, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	dbs = append(dbs, db)
	for k := 0; k < 12; k++ {
		dbs = append(dbs, randomDB(t, rng))
	}
	boards := 20
	if testing.Short() {
		boards = 10
	}
	total := 0
	for _, db := range dbs {
		for i := 0; i < boards; i++ {
			n := 5 + rng.IntN(15)
			g := randomGrid(rng, n, rng.Float64()*0.7)
			for _, c := range []Color{gogame.Black, gogame.White} {
				fast, naive := map[matchKey]int{}, map[matchKey]int{}
				db.MatchAll(g, c, func(m Match) { fast[matchKey{m.Variant, m.X, m.Y}]++ })
				db.MatchNaive(g, c, func(m Match) { naive[matchKey{m.Variant, m.X, m.Y}]++ })
				if !reflect.DeepEqual(fast, naive) {
					t.Fatalf("fast %d matches, naive %d on a %dx%d board", len(fast), len(naive), n, n)
				}
				total += len(fast)
			}
		}
	}
	if total < 1000 {
		t.Errorf("only %d matches in all: the test is too weak", total)
	}
}

// randomDB makes patterns with random diagrams (class 8), some with edges.
func randomDB(t *testing.T, rng *rand.Rand) *DB {
	var b strings.Builder
	for k := 0; k < 10; k++ {
		w, h := 1+rng.IntN(5), 1+rng.IntN(5)
		ax, ay := rng.IntN(w), rng.IntN(h)
		rows := make([][]byte, h)
		for r := range rows {
			rows[r] = make([]byte, w)
			for c := range rows[r] {
				rows[r][c] = "....OXoxx??,"[rng.IntN(12)]
				if rng.IntN(3) > 0 {
					rows[r][c] = '?'
				}
			}
		}
		rows[ay][ax] = '*'
		left, bottom := rng.IntN(4) == 0, rng.IntN(4) == 0
		fmt.Fprintf(&b, "Pattern R%d\n\n", k)
		for _, r := range rows {
			if left {
				b.WriteByte('|')
			}
			b.Write(r)
			b.WriteByte('\n')
		}
		if bottom {
			if left {
				b.WriteByte('+')
			}
			b.WriteString(strings.Repeat("-", w) + "\n")
		}
		b.WriteString("\n:8\n\n")
	}
	db, err := Compile(mustParse(t, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// BenchmarkMatch19x19 matches the whole database at every empty point of
// a 19x19 board from the middle of a random game, for the player to move.
func BenchmarkMatch19x19(b *testing.B) {
	db, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	pos, _ := gogame.NewPosition(19)
	c := gogame.Black
	for i := 0; i < 150; i++ {
		pos.PlayRandom(c, rng)
		c = c.Opponent()
	}
	g := newGrid(19)
	for y := 0; y < 19; y++ {
		for x := 0; x < 19; x++ {
			g.set(x, y, pos.At(gogame.At(x, y)))
		}
	}
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db.MatchAll(g, gogame.Black, func(Match) { n++ })
	}
	b.ReportMetric(float64(n)/float64(b.N), "matches/op")
}
