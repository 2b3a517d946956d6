package gobot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/peertest"
)

// gtpPeer is an engine served by Serve over pipes, as a GUI talks to it.
type gtpPeer struct {
	t   *testing.T
	e   *Engine
	in  io.WriteCloser
	out *bufio.Reader
}

func startPeer(t *testing.T, e *Engine) *gtpPeer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, e, inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		if err := <-done; err != nil && ctx.Err() == nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &gtpPeer{t: t, e: e, in: inW, out: bufio.NewReader(outR)}
}

// Do sends a command and returns the response without '=' or '?', and
// whether it succeeded (the interface of peertest.GTP).
func (p *gtpPeer) Do(format string, args ...any) (string, bool) {
	p.t.Helper()
	cmd := fmt.Sprintf(format, args...)
	p.send(cmd)
	lines := p.response(cmd)
	resp := strings.Join(lines, "\n")
	return strings.TrimSpace(resp[1:]), resp[0] == '='
}

func (p *gtpPeer) Must(format string, args ...any) string {
	p.t.Helper()
	resp, ok := p.Do(format, args...)
	if !ok {
		p.t.Fatalf("%s: ? %s", fmt.Sprintf(format, args...), resp)
	}
	return resp
}

func (p *gtpPeer) send(line string) {
	p.t.Helper()
	if _, err := fmt.Fprintln(p.in, line); err != nil {
		p.t.Fatalf("%s: %v", line, err)
	}
}

// response reads lines up to the empty line that ends a response.
func (p *gtpPeer) response(cmd string) []string {
	p.t.Helper()
	var lines []string
	for {
		l, err := p.out.ReadString('\n')
		if err != nil {
			p.t.Fatalf("%s: %v", cmd, err)
		}
		l = strings.TrimRight(l, "\n")
		if l == "" {
			if len(lines) == 0 {
				p.t.Fatalf("%s: an empty line before the response", cmd)
			}
			return lines
		}
		lines = append(lines, l)
	}
}

// doer is a GTP engine a transcript runs on: gobot or GNU Go.
type doer interface {
	Do(format string, args ...any) (string, bool)
}

// transcript runs cmds and returns each response as "= text" or "? ",
// vertex lists sorted so that engines listing stones in another order
// compare equal. Failure texts differ between engines and are dropped.
func transcript(d doer, cmds []string) []string {
	var out []string
	for _, c := range cmds {
		resp, ok := d.Do("%s", c)
		if !ok {
			out = append(out, c+" -> ?")
			continue
		}
		if f := strings.Fields(resp); strings.HasPrefix(c, "list_stones") {
			slices.Sort(f)
			resp = strings.Join(f, " ")
		}
		out = append(out, c+" -> = "+strings.ToUpper(resp))
	}
	return out
}

// compareWithGnuGo runs cmds on gobot and on GNU Go and reports where
// they differ.
func compareWithGnuGo(t *testing.T, cmds []string) {
	t.Helper()
	ours := transcript(startPeer(t, newTestEngine(t, 50, 1, false)), cmds)
	theirs := transcript(peertest.StartGnuGo(t, "--level", "1"), cmds)
	for i := range cmds {
		if ours[i] != theirs[i] {
			t.Errorf("gobot %s, GNU Go %s", ours[i], theirs[i])
		}
	}
}

// undoTranscript: the moves of a controller that plays White twice; each
// undo takes back one play command, the implied pass with it.
var undoTranscript = []string{
	"boardsize 9", "clear_board",
	"play b e5", "play w j9", "play w d8",
	"undo", "list_stones black", "list_stones white",
	"undo", "undo", "list_stones black", "list_stones white", "undo",
}

// koTranscript: a ko is taken, undone and retaken; the ban on the
// immediate retake and the captures come back with each undo.
var koTranscript = []string{
	"boardsize 9", "clear_board",
	"play b d5", "play w g5", "play b e6", "play w f6", "play b e4", "play w f4",
	"play b c3", "play w e5", "play b f5", "play w e5",
	"list_stones white", "captures black",
	"play w a1", "play b a9", "play w e5", "list_stones black", "captures white",
	"undo", "list_stones black", "captures white",
	"undo", "undo", "play w e5",
	"undo", "list_stones white", "captures black",
}

func TestUndo(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 50, 1, false))
	got := transcript(p, undoTranscript)
	want := []string{
		"boardsize 9 -> = ", "clear_board -> = ",
		"play b e5 -> = ", "play w j9 -> = ", "play w d8 -> = ",
		"undo -> = ", "list_stones black -> = E5", "list_stones white -> = J9",
		"undo -> = ", "undo -> = ", "list_stones black -> = ", "list_stones white -> = ", "undo -> ?",
	}
	if !slices.Equal(got, want) {
		t.Errorf("transcript:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestUndoKo(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 50, 1, false))
	got := transcript(p, koTranscript)
	for i, want := range map[int]string{
		11: "play w e5 -> ?", // the ko
		12: "list_stones white -> = F4 F6 G5",
		13: "captures black -> = 1",
		16: "play w e5 -> = ", // after the threats
		17: "list_stones black -> = A9 C3 D5 E4 E6",
		18: "captures white -> = 1",
		19: "undo -> = ",
		20: "list_stones black -> = A9 C3 D5 E4 E6 F5",
		21: "captures white -> = 0",
		24: "play w e5 -> ?", // the ban is back
		26: "list_stones white -> = E5 F4 F6 G5",
		27: "captures black -> = 0",
	} {
		if got[i] != want {
			t.Errorf("%s, want %s", got[i], want)
		}
	}
}

func TestUndoAsGnuGo(t *testing.T) {
	compareWithGnuGo(t, undoTranscript)
	compareWithGnuGo(t, koTranscript)
}

// TestUndoGenmove: undo takes back genmove too, and a failed play
// leaves nothing to undo.
func TestUndoGenmove(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 50, 1, false))
	p.Must("boardsize 9")
	p.Must("play b e5")
	if _, ok := p.Do("play b e5"); ok {
		t.Fatal("play b e5 twice succeeded")
	}
	v := p.Must("genmove w")
	if got := p.Must("list_stones white"); got != v {
		t.Fatalf("after genmove w %s: white stones %q", v, got)
	}
	p.Must("undo")
	if got := p.Must("list_stones white"); got != "" {
		t.Errorf("after undo of genmove: white stones %q", got)
	}
	p.Must("undo")
	if _, ok := p.Do("undo"); ok {
		t.Error("a third undo succeeded")
	}
}

func TestPlaceFreeHandicap(t *testing.T) {
	e := newTestEngine(t, 50, 1, false)
	for _, c := range []struct {
		size, n int
		want    string
	}{
		{19, 2, "D4 Q16"},
		{19, 4, "D4 Q16 D16 Q4"},
		{19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"},
		{9, 5, "C3 G7 C7 G3 E5"},
		{13, 4, "D4 K10 D10 K4"},
	} {
		if err := e.SetSize(c.size); err != nil {
			t.Fatal(err)
		}
		ms, err := e.PlaceFreeHandicap(c.n)
		if err != nil {
			t.Fatal(err)
		}
		if got := vertices(ms); got != c.want {
			t.Errorf("%dx%d, %d stones: %s, want %s", c.size, c.size, c.n, got, c.want)
		}
	}
	// More stones than the fixed layout has: distinct points, off the
	// first two lines while there is room.
	for _, c := range []struct{ size, n, edge int }{{19, 20, 2}, {19, 25, 2}, {9, 12, 2}, {7, 6, 2}, {5, 3, 1}, {9, 80, 0}} {
		e.SetSize(c.size)
		ms, err := e.PlaceFreeHandicap(c.n)
		if err != nil {
			t.Fatalf("%dx%d, %d stones: %v", c.size, c.size, c.n, err)
		}
		if len(ms) != c.n {
			t.Fatalf("%dx%d, %d stones: got %d", c.size, c.size, c.n, len(ms))
		}
		if err := gogame.CheckFreeHandicap(c.size, ms); err != nil {
			t.Errorf("%dx%d, %d stones: %v", c.size, c.size, c.n, err)
		}
		for _, m := range ms {
			if min(m.Col(), m.Row(), c.size-1-m.Col(), c.size-1-m.Row()) < c.edge {
				t.Errorf("%dx%d, %d stones: %v within %d lines of the edge", c.size, c.size, c.n, m, c.edge)
			}
		}
		if e.Game().ToPlay() != white {
			t.Errorf("%dx%d: %v to play after the handicap", c.size, c.size, e.Game().ToPlay())
		}
	}
	if _, err := e.PlaceFreeHandicap(2); err == nil {
		t.Error("a handicap on a board with stones")
	}
	e.Clear()
	for _, n := range []int{-1, 0, 1, 81} {
		if _, err := e.PlaceFreeHandicap(n); err == nil {
			t.Errorf("9x9: %d stones accepted", n)
		}
	}
}

// TestPlaceFreeHandicapAsGnuGo: the same commands succeed and fail on
// both engines, each places the stones it names, and White moves next.
// (The points differ: GNU Go searches for them, gobot takes the star
// points.)
func TestPlaceFreeHandicapAsGnuGo(t *testing.T) {
	for _, d := range []struct {
		name string
		d    doer
	}{{"gobot", startPeer(t, newTestEngine(t, 50, 1, false))}, {"GNU Go", peertest.StartGnuGo(t, "--level", "1")}} {
		for _, size := range []int{9, 19} {
			mustDo(t, d.d, "boardsize %d", size)
			if _, ok := d.d.Do("place_free_handicap 1"); ok {
				t.Errorf("%s: place_free_handicap 1 succeeded", d.name)
			}
			for _, n := range []int{2, 4, 9} {
				mustDo(t, d.d, "clear_board")
				placed := strings.Fields(mustDo(t, d.d, "place_free_handicap %d", n))
				stones := strings.Fields(mustDo(t, d.d, "list_stones black"))
				slices.Sort(placed)
				slices.Sort(stones)
				if len(placed) != n || !slices.Equal(placed, stones) {
					t.Errorf("%s %dx%d: placed %v, black stones %v", d.name, size, size, placed, stones)
				}
				if _, ok := d.d.Do("place_free_handicap 2"); ok {
					t.Errorf("%s: a second handicap succeeded", d.name)
				}
				if v := mustDo(t, d.d, "genmove w"); slices.Contains(placed, strings.ToUpper(v)) {
					t.Errorf("%s: White played on a handicap stone %s", d.name, v)
				}
			}
		}
	}
}

func mustDo(t *testing.T, d doer, format string, args ...any) string {
	t.Helper()
	resp, ok := d.Do(format, args...)
	if !ok {
		t.Fatalf("%s: ? %s", fmt.Sprintf(format, args...), resp)
	}
	return resp
}

const koGameSGF = "(;FF[4]GM[1]SZ[9]KM[6.5];B[ee];W[dd];B[de];W[ed];B[fd];W[ce];B[cd];W[be];B[dc];W[ec];B[bd];W[ae];B[fc];W[gd];B[fe])"

const handicapSGF = "(;FF[4]GM[1]SZ[9]KM[0.5]HA[2]AB[cg][gc];W[ee];B[ec])"

// loadsgfTranscript loads a game at several points, by move number and
// by vertex, and undoes a loaded move.
func loadsgfTranscript(dir string) []string {
	game, hcap := filepath.Join(dir, "game.sgf"), filepath.Join(dir, "handicap.sgf")
	return []string{
		"loadsgf " + game, "list_stones black", "list_stones white",
		"loadsgf " + game + " 3", "list_stones black", "list_stones white",
		"loadsgf " + game + " 8", "list_stones black", "list_stones white",
		"loadsgf " + game + " F5", "list_stones black", "list_stones white",
		"loadsgf " + game, "undo", "undo", "list_stones black", "list_stones white",
		"loadsgf " + hcap, "list_stones black", "list_stones white",
		"loadsgf " + hcap + " 2", "list_stones black",
		"loadsgf " + filepath.Join(dir, "missing.sgf"),
	}
}

func writeSGFs(t *testing.T) string {
	dir := t.TempDir()
	for name, text := range map[string]string{"game.sgf": koGameSGF, "handicap.sgf": handicapSGF} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadSGF(t *testing.T) {
	dir := writeSGFs(t)
	p := startPeer(t, newTestEngine(t, 50, 1, false))
	got := transcript(p, loadsgfTranscript(dir))
	for i, want := range map[int]string{
		0:  "= WHITE",
		3:  "= BLACK",
		4:  "= E5",
		5:  "= D6",
		9:  "= BLACK", // F5 (fe) is the last move: all before it
		18: "= C3 E7 G7",
		19: "= E5",
		20: "= BLACK",
		21: "= C3 G7",
		22: "?",
	} {
		if !strings.HasSuffix(got[i], " -> "+strings.TrimSpace(want)) {
			t.Errorf("%s, want %s", got[i], want)
		}
	}
	if p.e.komi != 0.5 || p.e.Size() != 9 {
		t.Errorf("after the handicap record: komi %v, size %d", p.e.komi, p.e.Size())
	}
	if _, err := p.e.LoadSGF(filepath.Join(dir, "game.sgf"), "0"); err == nil {
		t.Error("loadsgf FILE 0 succeeded")
	}
}

func TestLoadSGFAsGnuGo(t *testing.T) {
	compareWithGnuGo(t, loadsgfTranscript(writeSGFs(t)))
}

// TestPrintSGF: printsgf's record, loaded again, gives the same game;
// printsgf FILE writes the same text.
func TestPrintSGF(t *testing.T) {
	dir := writeSGFs(t)
	p := startPeer(t, newTestEngine(t, 50, 1, false))
	p.Must("loadsgf %s", filepath.Join(dir, "handicap.sgf"))
	p.Must("play w d4")
	p.Must("genmove b")
	text := p.Must("printsgf")
	rec, err := sgf.ReadGo(strings.NewReader(text))
	if err != nil {
		t.Fatalf("printsgf: %v\n%s", err, text)
	}
	if rec.Handicap != 2 || rec.Komi != 0.5 || len(rec.Moves) != 4 || vertices(rec.AddBlack) != "C3 G7" {
		t.Errorf("printsgf: %+v", rec)
	}
	path := filepath.Join(dir, "out.sgf")
	p.Must("printsgf %s", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(data)) != text {
		t.Errorf("printsgf FILE wrote\n%s\nprintsgf answered\n%s", data, text)
	}
	q := startPeer(t, newTestEngine(t, 50, 1, false))
	if got := q.Must("loadsgf %s", path); got != colorName(p.e.Game().ToPlay()) {
		t.Errorf("loadsgf of printsgf's file: %s to play", got)
	}
	if !q.e.Game().Board().Equal(p.e.Game().Board()) {
		t.Errorf("loadsgf of printsgf's file: the board differs")
	}
}

// TestRegGenmove: reg_genmove names a legal move and leaves the game as
// it was.
func TestRegGenmove(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 100, 1, false))
	p.Must("boardsize 9")
	p.Must("play b e5")
	// (Black, out of turn, may pass: White's implied pass leaves Black
	// ahead on the count.)
	for _, c := range []string{"w", "b"} {
		v := p.Must("reg_genmove %s", c)
		m, err := gogame.ParseVertex(v, 9)
		if err != nil || (c == "w" && m == gogame.Pass) {
			t.Fatalf("reg_genmove %s: %q", c, v)
		}
		if got := p.e.Game().MoveCount(); got != 1 {
			t.Errorf("reg_genmove %s: %d moves in the game", c, got)
		}
		if p.e.Game().ToPlay() != white {
			t.Errorf("reg_genmove %s: %v to play", c, p.e.Game().ToPlay())
		}
		if got := p.Must("list_stones white"); got != "" {
			t.Errorf("reg_genmove %s: white stones %q", c, got)
		}
	}
	p.Must("undo")
	if _, ok := p.Do("undo"); ok {
		t.Error("reg_genmove left a move to undo")
	}
}

// TestTimeLeft: with --time 10, a genmove after time_left b 3 0 (sudden
// death, 3 s left) answers well within the 3 s, and each colour's clock
// is its own: time_left for White does not give Black more time.
func TestTimeLeft(t *testing.T) {
	e, err := New(Config{Time: 10 * time.Second, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := startPeer(t, e)
	p.Must("boardsize 19")
	p.Must("time_settings 3 0 0")
	p.Must("time_left b 3 0")
	p.Must("time_left w 600 0")
	start := time.Now()
	p.Must("genmove b")
	if d := time.Since(start); d > time.Second {
		t.Errorf("genmove b with 3 s left took %v", d)
	}
}

// TestClockWithoutTimeLeft: under time_settings alone gobot counts its
// own time; over a whole sudden-death game at 2 s a side with --time 1 it
// stays inside its main time, and clear_board starts the clock again.
func TestClockWithoutTimeLeft(t *testing.T) {
	a, b := newTestEngine(t, 0, 1, true), newTestEngine(t, 0, 2, true)
	for _, e := range []*Engine{a, b} {
		e.cfg.Time, e.cfg.Playouts = time.Second, 0
		e.SetTime(2*time.Second, 0, 0)
	}
	fresh := a.moveBudget(black)
	selfPlay(t, a, b, 120)
	defer func() {
		// A new game starts with the whole clock again.
		a.Clear()
		if got := a.moveBudget(black); got != fresh {
			t.Errorf("after clear_board: budget %v, want %v", got, fresh)
		}
	}()
	for _, e := range []*Engine{a, b} {
		t.Logf("spent %v", e.spent[black]+e.spent[white])
		if e.spent[black]+e.spent[white] >= 2*time.Second {
			t.Errorf("spent %v of a 2 s clock", e.spent[black]+e.spent[white])
		}
	}
}

// TestGoGuiAnalyzeCommands: GoGui's start (protocol_version, name,
// version, list_commands, gogui-analyze_commands), then each analyze
// command as GoGui sends it, %m replaced by the colour to move.
func TestGoGuiAnalyzeCommands(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 200, 1, false))
	for _, c := range []string{"protocol_version", "name", "version"} {
		p.Must("%s", c)
	}
	known := strings.Fields(p.Must("list_commands"))
	list := strings.Split(p.Must("gogui-analyze_commands"), "\n")
	for _, c := range []string{"boardsize 9", "clear_board", "komi 6.5", "play b e5", "play w c3"} {
		p.Must("%s", c)
	}
	if len(list) < 3 {
		t.Fatalf("gogui-analyze_commands: %q", list)
	}
	for _, line := range list {
		parts := strings.Split(line, "/")
		if len(parts) != 3 {
			t.Fatalf("analyze command %q: want type/label/command", line)
		}
		typ, cmd := parts[0], strings.ReplaceAll(parts[2], "%m", "b")
		if name := strings.Fields(cmd)[0]; !slices.Contains(known, name) {
			t.Errorf("%s is not in list_commands", name)
		}
		resp := p.Must("%s", cmd)
		switch typ {
		case "dboard":
			rows := strings.Split(resp, "\n")
			if len(rows) != 9 {
				t.Fatalf("%s: %d rows", cmd, len(rows))
			}
			for _, r := range rows {
				f := strings.Fields(r)
				if len(f) != 9 {
					t.Fatalf("%s: row %q", cmd, r)
				}
				for _, v := range f {
					if x, err := strconv.ParseFloat(v, 64); err != nil || x < -1 || x > 1 {
						t.Fatalf("%s: value %q", cmd, v)
					}
				}
			}
			// E5, Black's central stone, leans Black; C3, White's, White.
			if x, _ := strconv.ParseFloat(strings.Fields(rows[4])[4], 64); x <= 0 {
				t.Errorf("%s: E5 %v", cmd, x)
			}
			if x, _ := strconv.ParseFloat(strings.Fields(rows[6])[2], 64); x >= 0 {
				t.Errorf("%s: C3 %v", cmd, x)
			}
		case "var":
			g := p.e.Game()
			c := black
			pos := g.Position()
			for _, v := range strings.Fields(resp) {
				m, err := gogame.ParseVertex(v, 9)
				if err != nil {
					t.Fatalf("%s: %q", cmd, resp)
				}
				if err := pos.Play(c, m); err != nil {
					t.Fatalf("%s: %q: %v", cmd, resp, err)
				}
				c = c.Opponent()
			}
		case "gfx":
			if !strings.HasPrefix(resp, "VAR b ") || !strings.Contains(resp, "\nLABEL ") || !strings.Contains(resp, "\nTEXT black ") {
				t.Errorf("%s: %q", cmd, resp)
			}
		default:
			t.Errorf("analyze type %s not checked", typ)
		}
		if g := p.e.Game(); g.MoveCount() != 2 {
			t.Errorf("%s changed the game", cmd)
		}
	}
}
