package mat_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/mat/mattest"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/record/recordtest"
)

func TestReadGnubgMatch(t *testing.T) {
	m := recordtest.Replayed(t, recordtest.Load(t, mat.Read, "testdata/gnubg-3pt-match.mat"))
	if m.Players != [2]string{"engineA", "engineB"} || m.MatchLength != 3 || m.Date != "2026-11-21" {
		t.Errorf("header: %q %d %q", m.Players, m.MatchLength, m.Date)
	}
	if m.Rules != record.DefaultRules(3) {
		t.Errorf("rules %+v", m.Rules)
	}
	if len(m.Games) != 3 || m.FinalScore() != [2]int{3, 2} {
		t.Fatalf("%d games, final score %v", len(m.Games), m.FinalScore())
	}
	g1, g2, g3 := m.Games[0], m.Games[1], m.Games[2]
	if a := g1.Actions[0]; a.Player != 0 || a.Dice != [2]int{2, 1} || a.Move != "24/23 13/11" {
		t.Errorf("first action %v", a)
	}
	if g1.Winner != 0 || g1.Points != 1 || g1.End != backgammon.GameResigned {
		t.Errorf("game 1 result: %+v", g1)
	}
	if a := g1.Actions[len(g1.Actions)-2]; a.Kind != record.Resign || a.Player != 1 || a.Level != backgammon.Single {
		t.Errorf("game 1 resignation: %v", a)
	}
	if g2.Winner != 1 || g2.Points != 2 || g2.Result != backgammon.Single || g2.ScoreBefore != [2]int{1, 0} {
		t.Errorf("game 2 result: %+v", g2)
	}
	if a := g2.Actions[13]; a.Kind != record.Double || a.Player != 1 || a.Cube != 2 {
		t.Errorf("game 2 action 14: %v", a)
	}
	if a := g2.Actions[14]; a.Kind != record.Take || a.Player != 0 {
		t.Errorf("game 2 action 14: %v", a)
	}
	if !g3.Crawford || g3.Winner != 0 || g3.Points != 2 || g3.Result != backgammon.Gammon || g3.End != backgammon.GameOver {
		t.Errorf("game 3: %+v", g3)
	}
}

func TestRoundTripGnubgFiles(t *testing.T) {
	for _, f := range []string{"gnubg-3pt-match.mat", "gnubg-7pt-cube.mat", "gnubg-nackgammon-tags.mat"} {
		t.Run(f, func(t *testing.T) {
			recordtest.RoundTrip(t, recordtest.Replayed(t, recordtest.Load(t, mat.Read, filepath.Join("testdata", f))), mat.Write, mat.Read)
		})
	}
}

func randomMatches(t testing.TB) map[string]*record.Match {
	return recordtest.Matches(t, [2]string{"Alice", "Bob Two"})
}

func TestRoundTripRandom(t *testing.T) {
	for name, m := range randomMatches(t) {
		t.Run(name, func(t *testing.T) {
			m.Event, m.Date, m.Comment = "Test event", "2025-01-02", "line one\nline two"
			recordtest.RoundTrip(t, m, mat.Write, mat.Read)
		})
	}
}

// A money session's cube limit survives the round trip as a header tag.
func TestRoundTripCubeLimit(t *testing.T) {
	m, err := recordtest.RandomMatch(17, [2]string{"Alice", "Bob"}, backgammon.Rules{Cube: true, Jacoby: true, CubeLimit: 4},
		recordtest.Options{Games: 4, DoubleP: 0.5, DropP: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := mat.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `; [MaxCube "4"]`) {
		t.Errorf("no MaxCube tag in:\n%s", buf.String()[:min(buf.Len(), 400)])
	}
	back, err := mat.Read(strings.NewReader(buf.String()))
	if err != nil || back.Rules.CubeLimit != 4 {
		t.Fatalf("read back cube limit %v, %v; want 4", back, err)
	}
	recordtest.RoundTrip(t, m, mat.Write, mat.Read)
}

func TestGnubgBeaverFileIsInconsistent(t *testing.T) {
	// gnubg 1.07 exports "Beavers => 4" and "Wins 4 points" but counts the
	// game as 2 points in the next game's score line.
	m := recordtest.Load(t, mat.Read, "testdata/gnubg-money-beaver.mat")
	if !m.Rules.Beavers || m.MatchLength != 0 {
		t.Errorf("rules %+v, length %d", m.Rules, m.MatchLength)
	}
	err := record.Replay(m)
	if err == nil || !strings.Contains(err.Error(), "game 2: recorded score before the game 0-2") {
		t.Errorf("got %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	head := " 3 point match\n\n Game 1\n a : 0     b : 0\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "line 0: no \"N point match\""},
		{"no length", " Game 1\n", "line 1: game before"},
		{"bad length", " 99999999 point match\n", "line 1: match length"},
		{"junk before game", " 3 point match\n hello\n", "line 2: unexpected line"},
		{"no player line", " 3 point match\n Game 1\n  1) 52: 13/8\n", "line 3: want the player line"},
		{"bad dice", head + "  1) 72: 13/8\n", "line 5, column 6: unexpected \"72:\""},
		{"bad move", head + "  1) 52: 13/8 x/y\n", "line 5, column 10: move"},
		{"bad cube", head + "  1)  Doubles => x\n", "line 5, column 18: cube value"},
		{"three entries", head + "  1) 52: 13/8 Takes Drops\n", "line 5, column 21: more than two"},
		{"bad wins", head + "      Wins some points\n", "line 5, column 12: points"},
		{"after result", head + "      Wins 1 point\n  2) 52: 13/8\n", "line 6, column 6: action after"},
		{"game order", head + " Game 3\n", "line 5: game 3 follows game 1"},
		{"bad variation", "; [Variation \"Chess\"]\n", "line 1, column 15: unknown variation"},
		{"bad on/off", "; [Jacoby \"Maybe\"]\n", "line 1, column 12: tag Jacoby"},
		{"bad max cube", "; [MaxCube \"48\"]\n", "line 1, column 13: tag MaxCube: want a power of two"},
		{"other players", head + "      Wins 1 point\n Game 2\n c : 1   b : 0\n", "line 7: players"},
		{"long line", " 3 point match\n" + strings.Repeat("x", 70000) + "\n", "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mat.Read(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestGnubgImportsOurMat writes .mat files, has gnubg import them and export
// them again, and checks that gnubg saw the same games move by move (the
// moves compared as the positions they reach, in canonical notation).
func TestGnubgImportsOurMat(t *testing.T) {
	ms := randomMatches(t)
	delete(ms, "money jacoby beavers unfinished") // gnubg's beavers differ from ours; it keeps no Jacoby setting in .mat
	delete(ms, "no crawford")                     // .mat cannot tell gnubg the Crawford rule is off
	delete(ms, "cubeless hypergammon")            // gnubg's .mat import knows only standard backgammon
	ms["gnubg 3pt"] = recordtest.Replayed(t, recordtest.Load(t, mat.Read, "testdata/gnubg-3pt-match.mat"))
	ms["gnubg 7pt"] = recordtest.Replayed(t, recordtest.Load(t, mat.Read, "testdata/gnubg-7pt-cube.mat"))
	for name, m := range ms {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ours := filepath.Join(dir, "ours.mat")
			var buf bytes.Buffer
			if err := mat.Write(&buf, m); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(ours, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got := mattest.GnubgReexport(t, ours, "set jacoby off")
			if d := record.DiffGames(m, got); d != "" {
				t.Errorf("gnubg's export differs: %s", d)
			}
			if got.Players != m.Players || got.MatchLength != m.MatchLength {
				t.Errorf("gnubg's export: players %q length %d", got.Players, got.MatchLength)
			}
		})
	}
}
