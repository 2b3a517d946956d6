package sgf_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/record/recordtest"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/peertest"
)

// TestSGFMatchesMat reads the same matches as gnubg saved them in both
// formats and compares the records action by action.
func TestSGFMatchesMat(t *testing.T) {
	for _, name := range []string{"gnubg-3pt-match", "gnubg-7pt-cube"} {
		t.Run(name, func(t *testing.T) {
			s := recordtest.Replayed(t, recordtest.Load(t, sgf.Read, filepath.Join("testdata", name+".sgf")))
			m := recordtest.Replayed(t, recordtest.Load(t, mat.Read, filepath.Join("testdata", name+".mat")))
			if d := record.Diff(s, m); d != "" {
				t.Errorf("sgf and mat differ: %s", d)
			}
			n := 0
			for _, g := range s.Games {
				n += len(g.Actions)
			}
			if n < 100 {
				t.Errorf("only %d actions", n)
			}
		})
	}
}

func TestReadGnubgSGF(t *testing.T) {
	m := recordtest.Replayed(t, recordtest.Load(t, sgf.Read, "testdata/gnubg-3pt-match.sgf"))
	if m.Players != [2]string{"engineA", "engineB"} || m.MatchLength != 3 || m.Date != "2026-11-21" {
		t.Errorf("header: %q %d %q", m.Players, m.MatchLength, m.Date)
	}
	if g := m.Games[2]; !g.Crawford || g.ScoreBefore != [2]int{1, 2} || g.Result != backgammon.Gammon {
		t.Errorf("game 3: %+v", g)
	}
	if g := m.Games[0]; g.End != backgammon.GameResigned {
		t.Errorf("game 1 should be resigned (RE[W+1R]): %+v", g)
	}
	// Hits on the way are marked from the board: game 1, B[64ydag] is bar/21 24/18.
	if a := m.Games[0].Actions[3]; a.Move != "bar/21 24/18" || a.Player != 1 {
		t.Errorf("game 1 action 4 = %v", a)
	}

	tags := recordtest.Replayed(t, recordtest.Load(t, sgf.Read, "testdata/gnubg-nackgammon-tags.sgf"))
	want := backgammon.Rules{Variant: backgammon.Nackgammon, MatchLength: 5, Crawford: true}
	if tags.Rules != want || tags.Event != "My Event" || tags.Round != "3" || tags.Place != "Somewhere" || tags.Comment != `a "quoted" comment` {
		t.Errorf("tags: %+v", tags)
	}
	if g := tags.Games[0]; len(g.Actions) != 2 || g.Actions[1].Kind != record.Roll || g.Actions[1].Dice != [2]int{5, 3} {
		t.Errorf("unfinished game: %v", g.Actions)
	}

	money := recordtest.Load(t, sgf.Read, "testdata/gnubg-money-beaver.sgf")
	if a := money.Games[0].Actions[3]; a.Kind != record.Beaver || a.Player != 0 || !money.Rules.Beavers || !money.Rules.Jacoby {
		t.Errorf("beaver: %v, rules %+v", a, money.Rules)
	}
}

func randomMatches(t testing.TB) map[string]*record.Match {
	t.Helper()
	out := recordtest.Matches(t, [2]string{"Alice [A]", "Bob: Two"})
	m, err := recordtest.RandomMatch(13, [2]string{"Alice [A]", "Bob: Two"},
		backgammon.Rules{Variant: backgammon.Nackgammon, MatchLength: 5, Crawford: true, Cube: true}, recordtest.Options{DoubleP: 0.05, DropP: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	out["nackgammon"] = m
	return out
}

func TestRoundTrip(t *testing.T) {
	for _, f := range []string{"gnubg-3pt-match.sgf", "gnubg-7pt-cube.sgf", "gnubg-nackgammon-tags.sgf"} {
		t.Run(f, func(t *testing.T) {
			recordtest.RoundTrip(t, recordtest.Replayed(t, recordtest.Load(t, sgf.Read, filepath.Join("testdata", f))), sgf.Write, sgf.Read)
		})
	}
	for name, m := range randomMatches(t) {
		t.Run(name, func(t *testing.T) {
			m.Event, m.Date, m.Comment, m.Games[0].Actions[0].Comment = "Ev]ent", "2025-01-02", "two\nlines \\ here", "opening [comment]"
			recordtest.RoundTrip(t, m, sgf.Write, sgf.Read)
		})
	}
}

func TestReadErrors(t *testing.T) {
	const root = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford]\n"
	for _, tc := range []struct{ name, in, want string }{
		{"go", "(;GM[1])", "line 1, column 2: GM[1] is not backgammon"},
		{"no length", "(;GM[6];W[31hefe])", "line 1, column 2: no match length"},
		{"bad move letters", root + ";W[31h]\n)", "line 2, column 1: move W[31h]: want up to four"},
		{"bad point", root + ";W[31h!]\n)", "line 2, column 1: move W[31h!]: bad point letter"},
		{"bad dice", root + ";B[71hefe]\n)", "line 2, column 1: move B[71hefe]: want two dice"},
		{"move from off", root + ";B[31zefe]\n)", "line 2, column 1: move B[31zefe]: a checker cannot move from off"},
		{"both colours", root + ";B[double]W[take]\n)", "line 2, column 1: both W and B"},
		{"setup point", root + ";AB[aa]\n;W[31hefe])", "line 2, column 1: AB: bad point \"aa\""},
		{"setup after a move", root + ";W[31hefe]\n;AB[a]\n)", "line 3, column 1: setup property AB after the game's first action"},
		{"cube value", root + ";CV[3]\n;W[31hefe])", "line 2, column 1: CV: want a power of two"},
		{"cube owner", root + ";CP[x]\n;W[31hefe])", "line 2, column 1: CP: want c, w or b"},
		{"setup player", root + ";PL[X]AE[a:y]AW[a]AB[x]\n;W[31hefe])", "line 2, column 1: PL[X]: want W or B"},
		{"setup checkers", root + ";AE[a:y]AW[a:x]\n;W[31hefe])", "line 3, column 1: set-up position:"},
		{"bad result", "(;GM[6]MI[length:1]RE[X+1])", "line 1, column 2: result RE[X+1]"},
		{"bad MI", "(;GM[6]MI[length:x])", "line 1, column 2: MI length"},
		{"game number", "(;GM[6]MI[length:1][game:3])", "MI game:3 in game tree 1"},
		{"DI without PL", root + ";DI[31]\n)", "line 2, column 1: DI without PL"},
		{"length changes", root + ")(;GM[6]MI[length:5][game:1])", "line 2, column 3: match length 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sgf.Read(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestGnubgLoadsOurSGF writes SGF files, has gnubg load them and export
// them as .mat and save them as SGF again, and checks that gnubg saw the
// same games move by move.
func TestGnubgLoadsOurSGF(t *testing.T) {
	ms := randomMatches(t)
	delete(ms, "money jacoby beavers unfinished") // gnubg's beavers differ from ours
	delete(ms, "cubeless hypergammon")            // gnubg's .mat export knows only standard backgammon
	ms["gnubg 3pt"] = recordtest.Replayed(t, recordtest.Load(t, sgf.Read, "testdata/gnubg-3pt-match.sgf"))
	ms["gnubg 7pt"] = recordtest.Replayed(t, recordtest.Load(t, sgf.Read, "testdata/gnubg-7pt-cube.sgf"))
	for name, m := range ms {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ours, backMat, backSGF := filepath.Join(dir, "ours.sgf"), filepath.Join(dir, "back.mat"), filepath.Join(dir, "back.sgf")
			var buf bytes.Buffer
			if err := sgf.Write(&buf, m); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(ours, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			out := peertest.RunGnubg(t, "set display off\nload match "+ours+"\nexport match mat "+backMat+"\nsave match "+backSGF+"\n")
			for _, f := range []string{backMat, backSGF} {
				if _, err := os.Stat(f); err != nil {
					t.Fatalf("gnubg wrote nothing: %v\n%s", err, out)
				}
			}
			gotSGF := recordtest.Replayed(t, recordtest.Load(t, sgf.Read, backSGF))
			if !m.Rules.Crawford {
				// gnubg keeps its own Crawford setting when RU omits Crawford.
				gotSGF.Rules.Crawford = false
			}
			if d := record.Diff(m, gotSGF); d != "" {
				t.Errorf("gnubg's SGF differs: %s", d)
			}
			if m.Rules.Variant != backgammon.Standard {
				return
			}
			gotMat := recordtest.Replayed(t, recordtest.Load(t, mat.Read, backMat))
			if d := record.DiffGames(m, gotMat); d != "" {
				t.Errorf("gnubg's .mat differs: %s", d)
			}
		})
	}
}

// TestSetUpPositions reads a game gnubg saved after setting a position up
// (set board, set turn, set cube value and owner; testdata/
// gnubg-setup-7pt.sgf): the game starts there (Game.Start) and replays to
// gnubg's result, and writing it gives gnubg's own setup nodes, which read
// back the same.
func TestSetUpPositions(t *testing.T) {
	const file = "testdata/gnubg-setup-7pt.sgf"
	m := recordtest.Replayed(t, recordtest.Load(t, sgf.Read, file))
	g := m.Games[0]
	at, err := record.DecodeStart(g.Start, m.Rules)
	if err != nil {
		t.Fatalf("start %q: %v", g.Start, err)
	}
	if pos := gnubgid.EncodePosition(at.Board); pos != "73YLAABtuYEBYA" || at.Move != 1 || at.CubeValue != 2 || at.CubeOwner != 1 || m.MatchLength != 7 {
		t.Errorf("start %s: position %s, player %d on roll, cube %d owned by %d, match to %d; want 73YLAABtuYEBYA, 1, 2, 1, 7",
			g.Start, pos, at.Move, at.CubeValue, at.CubeOwner, m.MatchLength)
	}
	if g.Winner != 0 || g.Points != 4 || g.End != backgammon.GameResigned || len(g.Actions) < 10 {
		t.Errorf("game: %d actions, won by %d for %d (%v); want W+4R", len(g.Actions), g.Winner, g.Points, g.End)
	}
	var buf bytes.Buffer
	if err := sgf.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var setup []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, ";PL[B]AE") || strings.HasPrefix(line, ";CV") || strings.HasPrefix(line, ";CP") {
			setup = append(setup, line)
		}
	}
	if want := strings.Join(setup, "\n"); len(setup) != 3 || !strings.Contains(buf.String(), "\n"+want+"\n") {
		t.Errorf("written:\n%s\nwant gnubg's setup nodes:\n%s", buf.String(), want)
	}
	again := recordtest.Replayed(t, recordtest.Load(t, sgf.Read, writeTemp(t, buf.Bytes())))
	if again.Games[0].Start != g.Start || !reflect.DeepEqual(again.Games[0].Actions, g.Actions) {
		t.Errorf("read back: start %s, %d actions; want %s, %d", again.Games[0].Start, len(again.Games[0].Actions), g.Start, len(g.Actions))
	}
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.sgf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
