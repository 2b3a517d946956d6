package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/buildtest"
	"github.com/gamemill/gamemill/internal/peertest"
)

var bgtool string

func TestMain(m *testing.M) {
	buildtest.Main(m, map[string]*string{".": &bgtool})
}

func runTool(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bgtool, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

func TestBoard(t *testing.T) {
	out, errOut, code := runTool(t, "board", "4HPwATDgc/ABMA", "QYkqASAAIAAA")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		" GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n",
		"                 Match ID   : QYkqASAAIAAA\n",
		"O: gnubg (Cube: 2)", "Rolled 52", "9 points match",
		"Pips: O 167, X 167\n", "Turn: X (root) to move 52\n",
		"Score: O 2, X 4 in a 9-point match\n", "Cube: 2, owned by O (gnubg)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = runTool(t, "board", "--name0", "alice", "--name1", "bob", "4HPwATDgc/ABMA")
	if code != 0 || !strings.Contains(out, "O: alice") || !strings.Contains(out, "X: bob") || !strings.Contains(out, "(Cube: 1)") ||
		!strings.Contains(out, "Turn: X (bob) to double or roll") || !strings.Contains(out, "(money)") {
		t.Errorf("default match ID: exit %d\n%s", code, out)
	}
}

func TestBoardJSON(t *testing.T) {
	out, errOut, code := runTool(t, "board", "--json", "4HPMwQCMz+AIIQ", "cBHgACAAGAAE")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var b boardOutput
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	if b.PositionID != "4HPMwQCMz+AIIQ" || b.MatchID != "cBHgACAAGAAE" || b.MatchLength != 7 || b.Score != [2]int{2, 3} ||
		!b.Doubled || b.Move != 1 || b.Turn != 0 || b.Decision != "take" || b.CubeOwner != -1 || b.GameState != "playing" {
		t.Errorf("%+v", b)
	}
	board, _ := gnubgid.DecodePosition(b.PositionID)
	for i := 0; i < 25; i++ {
		if b.Points[1][i] != int(board[backgammon.OnRoll][i]) || b.Points[0][i] != int(board[backgammon.Opponent][i]) {
			t.Fatalf("points %v, board %v", b.Points, board)
		}
	}
	if b.Pips[1] != board.Pips(backgammon.OnRoll) || b.Pips[0] != board.Pips(backgammon.Opponent) {
		t.Errorf("pips %v", b.Pips)
	}
}

func TestMoves(t *testing.T) {
	out, errOut, code := runTool(t, "moves", "4HPwATDgc/ABMA", "52")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	start := backgammon.Standard.StartBoard()
	ms, _ := backgammon.LegalMoves(start, 5, 2)
	if len(lines) != len(ms) {
		t.Fatalf("%d lines, %d legal moves", len(lines), len(ms))
	}
	found := false
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 2 {
			t.Fatalf("line %q", l)
		}
		if f[0] == "13/11 13/8" {
			found = true
			// The opponent is now on roll: the mover's checkers are side 0.
			b, err := gnubgid.DecodePosition(f[1])
			if err != nil {
				t.Fatal(err)
			}
			if b[backgammon.Opponent][12] != 3 || b[backgammon.Opponent][10] != 1 || b[backgammon.Opponent][7] != 4 ||
				b[backgammon.OnRoll] != start[backgammon.OnRoll] {
				t.Errorf("13/11 13/8 gives %v", b)
			}
		}
	}
	if !found {
		t.Errorf("no 13/11 13/8 in\n%s", out)
	}
	out, _, code = runTool(t, "moves", "--json", "4HPwATDgc/ABMA", "66")
	var mo movesOutput
	if err := json.Unmarshal([]byte(out), &mo); code != 0 || err != nil || mo.Dice != [2]int{6, 6} || len(mo.Moves) == 0 {
		t.Errorf("json: exit %d %v %+v", code, err, mo)
	}
	// A closed board and a checker on the bar: no legal move, one empty line.
	blocked := backgammon.Board{}
	blocked[backgammon.Opponent] = [25]int8{0: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 12: 3}
	blocked[backgammon.OnRoll] = [25]int8{24: 1, 5: 14}
	out, _, code = runTool(t, "moves", gnubgid.EncodePosition(blocked), "33")
	if code != 0 || out != "\t"+gnubgid.EncodePosition(blocked.Swap())+"\n" {
		t.Errorf("blocked: exit %d %q", code, out)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: bgtool"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"board"}, 2, "want 1 to 2 arguments"},
		{[]string{"board", "--bogus", "4HPwATDgc/ABMA"}, 2, "unknown flag: --bogus\n\nusage: bgtool board POSITION_ID [MATCH_ID] [flags]"},
		{[]string{"moves", "4HPwATDgc/ABMA"}, 2, "want 2 arguments, got 1\n\nusage: bgtool moves POSITION_ID DICE"},
		{[]string{"board", "4HPwATDgc/AB"}, 1, "want 14 characters"},
		{[]string{"board", "4HPwATDgc/ABMA", "cAkA*AAAAAAA"}, 1, "character 5 '*'"},
		{[]string{"board", "AAAAAAAAAAAAAA"}, 1, "a side has no checkers left"},
		{[]string{"board", "--variant", "chess", "4HPwATDgc/ABMA"}, 2, "unknown variant"},
		{[]string{"moves", "4HPwATDgc/ABMA", "72"}, 1, `dice "72"`},
		{[]string{"moves", "//////////////", "52"}, 1, "more than 15"},
	} {
		out, errOut, code := runTool(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("bgtool %q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errOut, c.code, c.want)
		}
	}
	for _, args := range [][]string{{"--help"}, {"board", "--help"}, {"moves", "-h"}} {
		out, _, code := runTool(t, args...)
		if code != 0 || !strings.Contains(out, "usage: bgtool") {
			t.Errorf("bgtool %q: exit %d\n%s", args, code, out)
		}
	}
}

// TestBoardLikeGnubg compares bgtool's drawing with gnubg's `show board`.
func TestBoardLikeGnubg(t *testing.T) {
	gnubg := peertest.Gnubg(t)
	for _, cmds := range [][]string{
		{"new match 7", "set score 2 3", "set turn 1", "set board 4HPMwQCMz+AIIQ", "double"},
		{"new session", "set turn 0", "set board BwAAuCAAAAAAAA", "set dice 2 1"},
		{"new match 5", "set score 4 2", "set crawford on", "set turn 0", "set dice 6 1"},
		{"new session", "set turn 1", "set board gx8AAOMfAAD4Aw", "set cube value 4", "set cube owner 1"},
	} {
		in := append([]string{"set player both human", "set auto roll off", "set automatic game off"}, cmds...)
		c := exec.Command(gnubg, "-t", "-q", "-r")
		c.Stdin = strings.NewReader(strings.Join(append(in, "show board"), "\n") + "\n")
		raw, err := c.Output()
		if err != nil {
			t.Fatal(err)
		}
		s := string(raw)
		s = s[strings.LastIndex(s, " GNU Backgammon  Position ID:"):]
		want := strings.Join(strings.SplitAfter(s, "\n")[:16], "")
		lines := strings.Split(want, "\n")
		pos := strings.TrimPrefix(lines[0], " GNU Backgammon  Position ID: ")
		mid := strings.TrimPrefix(lines[1], "                 Match ID   : ")
		out, errOut, code := runTool(t, "board", pos, mid)
		if code != 0 {
			t.Fatalf("%s %s: exit %d: %s", pos, mid, code, errOut)
		}
		if !strings.HasPrefix(out, want) {
			t.Errorf("%q:\nbgtool:\n%s\ngnubg:\n%s", cmds, out, want)
		}
	}
}

// TestMovesEval checks --eval: every move gets the network's equity, best
// first; the bot knows the textbook opening plays.
func TestMovesEval(t *testing.T) {
	for dice, best := range map[string]string{"31": "8/5 6/5", "42": "8/4 6/4", "65": "24/13"} {
		out, errOut, code := runTool(t, "moves", "--eval", "4HPwATDgc/ABMA", dice)
		if code != 0 {
			t.Fatalf("moves --eval %s: exit %d: %s", dice, code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if first := strings.Split(lines[0], "\t"); first[0] != best || len(first) != 3 {
			t.Errorf("opening %s: best move %q, want %q", dice, lines[0], best)
		}
		prev := 2.0
		for _, l := range lines {
			f := strings.Split(l, "\t")
			eq, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil || eq > prev || eq < -3 || eq > 3 {
				t.Errorf("opening %s: line %q out of order or not an equity", dice, l)
			}
			prev = eq
		}
	}
	out, _, code := runTool(t, "moves", "--eval", "--json", "4HPwATDgc/ABMA", "21")
	if code != 0 || !strings.Contains(out, `"equity"`) || !strings.Contains(out, `"probs"`) {
		t.Errorf("moves --eval --json: exit %d\n%s", code, out)
	}
}

// TestUsageListsEveryCommand: bgtool's usage names each of its commands.
func TestUsageListsEveryCommand(t *testing.T) {
	for _, c := range program(io.Discard, io.Discard).Commands {
		if !strings.Contains(usage, "\n  "+c.Name+" ") {
			t.Errorf("the usage does not list %s", c.Name)
		}
	}
}
