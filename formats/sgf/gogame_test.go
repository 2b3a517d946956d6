package sgf_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/peertest"
)

func mv(c gogame.Color, v string, size int) sgf.GoMove {
	m, err := gogame.ParseVertex(v, size)
	if err != nil {
		panic(err)
	}
	return sgf.GoMove{Color: c, Move: m}
}

func sampleGo() *sgf.GoRecord {
	b, w := gogame.Black, gogame.White
	rec := &sgf.GoRecord{
		Size: 9, Komi: 0.5, Handicap: 2,
		AddBlack: []gogame.Move{gogame.At(2, 2), gogame.At(6, 6)},
		Black:    "GNU Go 3.8 (level 1)", White: "gnugo-l8 [strong]",
		Result: "W+4.5", Date: "2026-11-22", Event: "go9 (a test)", GameName: "go9 0_3",
		Application: "gamemill:dev",
		Comment:     "Black gnugo-l1 GNU Go 3.8\nWhite gnugo-l8 with ] and \\ in it",
		Moves: []sgf.GoMove{
			mv(w, "E5", 9), mv(b, "D4", 9), mv(w, "pass", 9), mv(b, "J9", 9), mv(w, "A1", 9),
			mv(b, "pass", 9), mv(w, "pass", 9),
		},
		FinalComment: "White wins by 4.5 points\ngnugo-l1 cpu time: 0.12s",
	}
	rec.Moves[1].Comment = "a comment on D4 ]"
	return rec
}

func TestGoRoundTrip(t *testing.T) {
	rec := sampleGo()
	var buf bytes.Buffer
	if err := sgf.WriteGo(&buf, rec); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"(;FF[4]AB[cg][gc]AP[gamemill:dev]C[Black gnugo-l1 GNU Go 3.8\nWhite gnugo-l8 with \\] and \\\\ in it]CA[UTF-8]DT[2026-11-22]EV[go9 (a test)]GM[1]GN[go9 0_3]HA[2]KM[0.5]PB[GNU Go 3.8 (level 1)]PW[gnugo-l8 [strong\\]]RE[W+4.5]SZ[9]\n",
		";W[ee]\n;B[df]C[a comment on D4 \\]]\n;W[]\n;B[ia]\n;W[ai]\n;B[]\n;W[]\n;C[White wins by 4.5 points\ngnugo-l1 cpu time: 0.12s])\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("written SGF lacks %q:\n%s", want, text)
		}
	}
	back, err := sgf.ReadGo(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !reflect.DeepEqual(back, rec) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, rec)
	}
	g, err := back.Replay(false)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Over() || len(g.Handicap()) != 2 || g.Board().At(gogame.At(8, 8)) != gogame.Black {
		t.Errorf("replay: over %v, handicap %v\n%v", g.Over(), g.Handicap(), g.Board())
	}
}

// TestReadGoGnuGoFiles reads records GNU Go 3.8 wrote: a game in the
// ASCII interface with a handicap and a pass (save), a self-play game
// (--benchmark, with comments and a result) and a position (printsgf,
// as setup stones with PL).
func TestReadGoGnuGoFiles(t *testing.T) {
	for _, tc := range []struct {
		file   string
		check  func(*sgf.GoRecord) string
		stones string // black then white, after replaying
	}{
		{"gnugo-handicap-9x9.sgf", func(r *sgf.GoRecord) string {
			if r.Size != 9 || r.Komi != 0.5 || r.Handicap != 2 || len(r.Moves) != 11 || r.Moves[9].Move != gogame.Pass || r.Rules != "Japanese" {
				return fmt.Sprintf("%+v", r)
			}
			return ""
		}, "C3 D4 F6 B8 G7 H2 / B4 C6 D6 E5 B3 D8"},
		{"gnugo-benchmark-13x13.sgf", func(r *sgf.GoRecord) string {
			if r.Size != 13 || r.Result != "W+29.8" || r.Moves[0].Comment != "random move" || r.Moves[8].Comment != "" {
				return fmt.Sprintf("%+v", r)
			}
			return ""
		}, ""},
		{"gnugo-printsgf-9x9.sgf", func(r *sgf.GoRecord) string {
			if r.ToPlay != gogame.Black || len(r.AddWhite) != 3 || len(r.AddBlack) != 3 || r.Handicap != 2 || len(r.Moves) != 0 {
				return fmt.Sprintf("%+v", r)
			}
			return ""
		}, "C3 E5 G7 / G3 C5 D7"},
	} {
		f, err := os.Open(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := sgf.ReadGo(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if bad := tc.check(rec); bad != "" {
			t.Errorf("%s: %s", tc.file, bad)
		}
		g, err := rec.Replay(true)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if tc.stones != "" {
			if got := stonesOf(g.Board()); sorted(got) != sorted(tc.stones) {
				t.Errorf("%s: stones %s, want %s\n%v", tc.file, got, tc.stones, g.Board())
			}
		}
	}
}

func stonesOf(b gogame.Board) string {
	var s [2][]string
	for i, c := range []gogame.Color{gogame.Black, gogame.White} {
		for _, m := range b.Stones(c) {
			s[i] = append(s[i], m.String())
		}
	}
	return strings.Join(s[0], " ") + " / " + strings.Join(s[1], " ")
}

// sorted sorts each side of a "black / white" stone list.
func sorted(s string) string {
	b, w, _ := strings.Cut(s, "/")
	sortf := func(x string) string {
		f := strings.Fields(strings.ToUpper(x))
		slices.Sort(f)
		return strings.Join(f, " ")
	}
	return sortf(b) + " / " + sortf(w)
}

func TestReadGoErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"(;GM[6]SZ[9])", "line 1, column 2: GM[6] is not Go"},
		{"(;FF[4]GM[1]\nSZ[26])", "line 1, column 2: SZ[26]: want a board size from 2 to 25"},
		{"(;SZ[9:13])", "rectangular board"},
		{"(;SZ[9]KM[x])", "KM[x]: want a number"},
		{"(;SZ[9]HA[-1])", "HA[-1]"},
		{"(;SZ[9]PL[X])", "PL[X]: want B or W"},
		{"(;SZ[9]AB[aa][aa])", "AB[aa]: A9 is already in AB"},
		{"(;SZ[9]AB[aa]AW[aa])", "AW[aa]: A9 is already in AB"},
		{"(;SZ[9]AB[])", "AB[]: a pass is not a point"},
		{"(;SZ[9]AE[aa])", "AE is not supported"},
		{"(;SZ[9]\n;B[aa]\n ;AB[bb])", "line 3, column 2: setup property AB after the first node"},
		{"(;SZ[9]\n;B[aa]W[bb])", "line 2, column 1: a node with both B and W"},
		{"(;SZ[9]\n;B[jj])", "line 2, column 1: B[jj]: SGF point \"jj\" on a 9x9 board: off the board"},
		{"(;SZ[9]\n;W[a])", "line 2, column 1: W[a]: SGF point \"a\": not a vertex"},
		{"(;SZ[9]\n;B[aa][bb])", "B with 2 values"},
		{"(;SZ[9])\n(;SZ[9])", "line 2, column 1: 2 game trees"},
		{"(;SZ[9]", "line 1, column 8: unexpected end of file"},
	} {
		_, err := sgf.ReadGo(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadGo(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	// Replay finds illegal moves and names them.
	rec, err := sgf.ReadGo(strings.NewReader("(;SZ[9]\n;B[aa];W[bb];B[aa])"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Replay(false); err == nil || err.Error() != "replay: move 3: black A9: point is occupied" {
		t.Errorf("replay: %v", err)
	}
	if _, err := rec.Replay(false); err == nil {
		t.Error("replaying twice should fail the same way")
	}
}

func TestReadGoLenient(t *testing.T) {
	// tt is a pass on 19x19, a point on 21x21; a rectangle in AB; no SZ
	// means 19.
	rec, err := sgf.ReadGo(strings.NewReader("(;FF[3]AB[aa:bb]\n;W[tt];B[ss])"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Size != 19 || len(rec.AddBlack) != 4 || rec.Moves[0].Move != gogame.Pass || rec.Moves[1].Move != gogame.At(18, 0) {
		t.Errorf("%+v", rec)
	}
	rec, err = sgf.ReadGo(strings.NewReader("(;SZ[21]\n;B[tt])"))
	if err != nil || rec.Moves[0].Move != gogame.At(19, 1) {
		t.Errorf("tt on 21x21: %v %+v", err, rec)
	}
}

func TestWriteGoErrors(t *testing.T) {
	for _, tc := range []struct {
		edit func(*sgf.GoRecord)
		want string
	}{
		{func(r *sgf.GoRecord) { r.Size = 1 }, "board size 1"},
		{func(r *sgf.GoRecord) { r.AddBlack[0] = gogame.At(9, 0) }, "AB stone"},
		{func(r *sgf.GoRecord) { r.Moves[0].Move = gogame.At(0, 9) }, "move 1: A10 is not on a 9x9 board"},
		{func(r *sgf.GoRecord) { r.Moves[0].Color = gogame.Empty }, "move 1: colour empty"},
		{func(r *sgf.GoRecord) { r.AddWhite = r.AddBlack[:1] }, "setup stone C3 given twice"},
	} {
		rec := sampleGo()
		tc.edit(rec)
		if err := sgf.WriteGo(&bytes.Buffer{}, rec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WriteGo: %v, want %q", err, tc.want)
		}
	}
}

// randomGoRecord plays a random game (playout moves, captures, passes,
// sometimes a fixed or free handicap) and returns it as a record with
// the game it came from.
func randomGoRecord(t *testing.T, rng *rand.Rand, size int) (*sgf.GoRecord, *gogame.Game) {
	t.Helper()
	g, _ := gogame.NewGame(gogame.Settings{Size: size, Komi: 6.5})
	rec := &sgf.GoRecord{Size: size, Komi: 6.5, Black: "b", White: "w", GameName: fmt.Sprint("random ", size)}
	switch rng.IntN(3) {
	case 0:
		if n := gogame.MaxFixedHandicap(size); n >= 2 {
			stones, err := g.SetFixedHandicap(2 + rng.IntN(n-1))
			if err != nil {
				t.Fatal(err)
			}
			rec.Handicap, rec.AddBlack = len(stones), stones
		}
	case 1:
		var stones []gogame.Move
		for _, i := range rng.Perm(size * size)[:2+rng.IntN(3)] {
			stones = append(stones, gogame.At(i%size, i/size))
		}
		if err := g.SetFreeHandicap(stones); err != nil {
			t.Fatal(err)
		}
		rec.Handicap, rec.AddBlack = len(stones), stones
	}
	p := g.Position()
	for !g.Over() && len(g.Moves()) < 3*size*size {
		c := g.ToPlay()
		m := p.PlayRandom(c, rng)
		if rng.IntN(30) == 0 {
			m = gogame.Pass
			p = g.Position()
			p.Pass()
		}
		if err := g.Play(c, m); err != nil {
			t.Fatal(err)
		}
		mv := sgf.GoMove{Color: c, Move: m}
		if rng.IntN(10) == 0 {
			mv.Comment = fmt.Sprintf("move %d ]\\", len(g.Moves()))
		}
		rec.Moves = append(rec.Moves, mv)
	}
	rec.Result = g.AreaScore().String()
	rec.FinalComment = "scored " + rec.Result
	return rec, g
}

// TestGoRandomRoundTrip writes and reads back random games and checks
// that they replay to the same position.
func TestGoRandomRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for size := gogame.MinSize; size <= gogame.MaxSize; size++ {
		rec, g := randomGoRecord(t, rng, size)
		var buf bytes.Buffer
		if err := sgf.WriteGo(&buf, rec); err != nil {
			t.Fatal(err)
		}
		back, err := sgf.ReadGo(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("size %d: %v\n%s", size, err, buf.String())
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("size %d: round trip differs:\n%s", size, buf.String())
		}
		again, err := back.Replay(false)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if !again.Board().Equal(g.Board()) || again.Over() != g.Over() {
			t.Fatalf("size %d: replay differs", size)
		}
	}
}

// TestGnuGoLoadsOurRecords writes random games and has GNU Go load each
// (`gnugo --infile FILE --mode gtp`): its stones and captures must be
// those of our replay.
func TestGnuGoLoadsOurRecords(t *testing.T) {
	peertest.GnuGo(t)
	rng := rand.New(rand.NewPCG(13, 14))
	sizes := []int{2, 3, 5, 7, 9, 9, 9, 13, 13, 19, 19}
	if testing.Short() {
		sizes = []int{5, 9, 13, 19}
	}
	dir := t.TempDir()
	for i, size := range sizes {
		rec, g := randomGoRecord(t, rng, size)
		path := filepath.Join(dir, fmt.Sprintf("game%d.sgf", i))
		var buf bytes.Buffer
		if err := sgf.WriteGo(&buf, rec); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		gg := peertest.StartGnuGo(t, "--infile", path)
		for _, c := range []gogame.Color{gogame.Black, gogame.White} {
			var ours []string
			for _, m := range g.Board().Stones(c) {
				ours = append(ours, m.String())
			}
			theirs := gg.Must("list_stones %v", c)
			if sorted(theirs) != sorted(strings.Join(ours, " ")) {
				t.Errorf("size %d, %v: GNU Go has %s, we %s\n%s", size, c, theirs, strings.Join(ours, " "), buf.String())
			}
			if n := gg.Must("captures %v", c); n != fmt.Sprint(g.Captured(c)) {
				t.Errorf("size %d: %v captured %s by GNU Go, %d by us", size, c, n, g.Captured(c))
			}
		}
		if got := gg.Must("query_boardsize"); got != fmt.Sprint(size) {
			t.Errorf("size %d: GNU Go's board is %s", size, got)
		}
	}
}

// TestReadGnuGoRecords has GNU Go write records now (a self-play game
// with --benchmark, and a position with printsgf), reads them, and checks
// our replay against GNU Go's own view of the same file.
func TestReadGnuGoRecords(t *testing.T) {
	bin := peertest.GnuGo(t)
	dir := t.TempDir()
	played := filepath.Join(dir, "played.sgf")
	cmd := exec.Command(bin, "--benchmark", "20", "--boardsize", "9", "--level", "1", "--seed", "7", "-o", played)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gnugo --benchmark: %v\n%s", err, out)
	}
	// A position with captures and a handicap, written by printsgf.
	gg := peertest.StartGnuGo(t, "--level", "1", "--seed", "3")
	gg.Must("boardsize 9")
	gg.Must("fixed_handicap 3")
	for range 8 {
		gg.Must("genmove white")
		gg.Must("genmove black")
	}
	position := filepath.Join(dir, "position.sgf")
	gg.Must("printsgf %s", position)
	for _, path := range []string{played, position} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := sgf.ReadGo(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v\n%s", path, err, data)
		}
		g, err := rec.Replay(false)
		if err != nil {
			t.Fatalf("%s: %v\n%s", path, err, data)
		}
		if len(rec.Moves) == 0 && len(rec.AddWhite) == 0 {
			t.Fatalf("%s: an empty record?\n%s", path, data)
		}
		view := peertest.StartGnuGo(t, "--infile", path)
		for _, c := range []gogame.Color{gogame.Black, gogame.White} {
			var ours []string
			for _, m := range g.Board().Stones(c) {
				ours = append(ours, m.String())
			}
			if theirs := view.Must("list_stones %v", c); sorted(theirs) != sorted(strings.Join(ours, " ")) {
				t.Errorf("%s, %v: GNU Go has %s, we %s", filepath.Base(path), c, theirs, strings.Join(ours, " "))
			}
		}
	}
}

// FuzzReadGo checks that ReadGo never panics, and that a record it reads
// writes and reads back the same, and replays the same if it replays.
func FuzzReadGo(f *testing.F) {
	for _, name := range []string{"gnugo-handicap-9x9.sgf", "gnugo-benchmark-13x13.sgf", "gnugo-printsgf-9x9.sgf"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var buf bytes.Buffer
	if err := sgf.WriteGo(&buf, sampleGo()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := sgf.ReadGo(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := sgf.WriteGo(&out, rec); err != nil {
			t.Fatalf("writing what we read: %v", err)
		}
		back, err := sgf.ReadGo(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("reading what we wrote: %v\n%s", err, out.String())
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("round trip differs:\n%+v\n%+v\n%s", rec, back, out.String())
		}
		g1, err1 := rec.Replay(true)
		g2, err2 := back.Replay(true)
		if (err1 == nil) != (err2 == nil) || err1 == nil && !g1.Board().Equal(g2.Board()) {
			t.Fatalf("replays differ: %v, %v", err1, err2)
		}
	})
}
