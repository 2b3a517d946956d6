package backgammon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
)

// copyRecord puts testdata/match.mat at dir/records/match.mat, so that a
// positions file in dir names it by a relative path.
func copyRecord(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "match.mat"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "records"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records", "match.mat"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// moveAt finds game gi's n-th roll (from 1) in the record: the board it
// was played from, seen from the mover, and the state at its action.
func moveAt(t *testing.T, path string, gi, n int) (bg.Board, bg.State) {
	t.Helper()
	m, err := recordfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var board bg.Board
	var st bg.State
	seen := 0
	err = record.Walk(m, func(p *record.Position) error {
		if p.GameIndex == gi && p.Action.Kind == record.Move {
			if seen++; seen == n {
				board, st = p.Board, *p.State
			}
		}
		return nil
	})
	if err != nil || seen < n {
		t.Fatalf("game %d has %d moves (%v)", gi+1, seen, err)
	}
	return board, st
}

// TestPositionsFromRecord: a "RECORD GAME MOVE" line starts at the
// decision point of that move (the board it was played from, its player
// on roll, no dice, the cube as the turn found it), with the path relative
// to the positions file; it mixes with ID lines.
func TestPositionsFromRecord(t *testing.T) {
	dir := t.TempDir()
	copyRecord(t, dir)
	rec := filepath.Join(dir, "records", "match.mat")
	// Game 1's move 2 is alice's 12, after her double was taken (line 2
	// of the .mat): its decision point is before the double. Game 2's
	// move 9 is the fifth line's left move.
	text := "records/match.mat 1 2   # after a double\n" + trailingPosition + "\nrecords/match.mat\t2\t9\n"
	suite := filepath.Join(dir, "suite.txt")
	if err := os.WriteFile(suite, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPositions(suite)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.IDs) != 3 || p.IDs[1] != trailingPosition {
		t.Fatalf("read %v", p.IDs)
	}
	for i, c := range []struct{ game, move, cube int }{{1, 2, 1}, {2, 9, 1}} {
		id := p.IDs[2*i]
		board, st := moveAt(t, rec, c.game-1, c.move)
		at, err := record.DecodeStart(id, bg.Rules{Cube: true})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		pos, _, _ := strings.Cut(id, ":")
		if pos != gnubgid.EncodePosition(board) || at.Move != st.Move || at.Dice != [2]int{} ||
			at.CubeValue != c.cube || at.CubeOwner != -1 || at.Score != st.Score {
			t.Errorf("game %d move %d: %s decodes to mover %d cube %d owner %d score %v; want the move's board %s, mover %d, cube %d centred, score %v",
				c.game, c.move, id, at.Move, at.CubeValue, at.CubeOwner, at.Score, gnubgid.EncodePosition(board), st.Move, c.cube, st.Score)
		}
	}
	// The move after the double was played with the cube at 2: the
	// decision point is the turn's start, before the double.
	if _, st := moveAt(t, rec, 0, 2); st.CubeValue != 2 {
		t.Errorf("game 1 move 2 was played with the cube at %d, want 2 (the test's premise)", st.CubeValue)
	}
	// The suite's hash is that of its positions: an ID line naming the
	// same position gives the same suite.
	same, err := ReadPositions(strings.NewReader(strings.Join(p.IDs, "\n")+"\n"), filepath.Join(dir, "ids.txt"))
	if err != nil || same.Hash != p.Hash {
		t.Errorf("the same positions by ID: hash %v (%v), want %s", same, err, p.Hash)
	}
}

// TestPositionsFromRecordErrors: a bad record line is refused naming the
// positions file, its line and the field.
func TestPositionsFromRecordErrors(t *testing.T) {
	dir := t.TempDir()
	copyRecord(t, dir)
	for _, c := range []struct{ line, want string }{
		{"records/match.mat 1", `suite.txt:2: "records/match.mat 1": want POSITIONID:MATCHID or RECORD GAME MOVE`},
		{"records/match.mat x 3", `suite.txt:2: game "x": want a whole number from 1`},
		{"records/match.mat 0 3", `suite.txt:2: game "0": want a whole number from 1`},
		{"records/match.mat 1 -4", `suite.txt:2: move "-4": want a whole number from 2`},
		{"records/match.mat 1 1", `suite.txt:2: move "1": the opening roll has no position to decide before it`},
		{"records/match.mat 9 3", `suite.txt:2: game 9: record records/match.mat has 3 games`},
		{"records/match.mat 1 99", `suite.txt:2: move 99: game 1 of records/match.mat has 41 moves`},
		{"records/none.mat 1 3", `suite.txt:2: record records/none.mat: open ` + filepath.Join(dir, "records", "none.mat")},
		{"records/match.txt 1 3", `suite.txt:2: record records/match.txt: ` + filepath.Join(dir, "records", "match.txt") + `: unknown record format`},
	} {
		_, err := ReadPositions(strings.NewReader(trailingPosition+"\n"+c.line+"\n"), filepath.Join(dir, "suite.txt"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to hold %q", c.line, err, c.want)
		}
	}
}

// FuzzRecordLine: ParseRecordLine never panics, and what it accepts it
// writes back as a line that reads the same.
func FuzzRecordLine(f *testing.F) {
	for _, s := range []string{"games/a.mat 1 2", "a.sgf\t3\t40", "x.mat 0 2", "x.mat 1 1", "x.mat 1", "x.mat 1 2 3",
		"  padded.mat   2   7  ", "x.mat +1 02", "x.mat 1 99999999999999999999", "", "é.mat 1 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		l, err := ParseRecordLine(line)
		if err != nil {
			return
		}
		if l.Game < 1 || l.Move < 2 || l.Path == "" || strings.ContainsAny(l.Path, " \t\n") {
			t.Fatalf("%q read as %+v", line, l)
		}
		again, err := ParseRecordLine(l.String())
		if err != nil || again != l {
			t.Fatalf("%q read as %+v, written %q, read back %+v (%v)", line, l, l.String(), again, err)
		}
	})
}
