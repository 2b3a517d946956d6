package textboard

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/peertest"
)

var rules = backgammon.Rules{Variant: backgammon.Standard, Cube: true, Crawford: true}

func TestDrawOpening(t *testing.T) {
	s, err := gnubgid.DecodeState("4HPwATDgc/ABMA", "QYkqASAAIAAE", rules)
	if err != nil {
		t.Fatal(err)
	}
	got := Draw(s, [2]string{"gnubg", "root"})
	// As gnubg 1.07 prints it for `set matchid QYkqASAAIAAE`.
	want := ` GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                 Match ID   : QYkqASAAIAAE
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O: gnubg (Cube: 2)
 | X           O    |   | O              X |     2 points
 | X           O    |   | O              X |     
 | X           O    |   | O                |     
 | X                |   | O                |     
 | X                |   | O                |    
v|                  |BAR|                  |     9 points match
 | O                |   | X                |    
 | O                |   | X                |     
 | O           X    |   | X                |     
 | O           X    |   | X              O |     Rolled 52
 | O           X    |   | X              O |     4 points
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: root

`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// gnubgBoards lists setups whose `show board` output Draw must reproduce.
var gnubgBoards = [][]string{
	{"new session", "set turn 1"},
	{"new session", "set turn 0", "set dice 5 2"},
	{"new session", "set turn 0", "set cube value 4", "set cube owner 0", "double"},
	{"new session", "set turn 1", "set cube value 8", "set cube owner 1", "set dice 3 1"},
	{"new session", "set turn 1", "set dice 4 4", "resign single"},
	{"new session", "set turn 0", "resign backgammon"},
	{"new session", "set turn 1", "set board 4HPMwQCMz+AIIQ", "resign gammon"},
	{"new session", "set turn 1", "set board gx8AAOMfAAD4Aw"},
	{"new session", "set turn 0", "set board APD/A0D+DwAAAA", "set dice 6 6"},
	{"new session", "set turn 0", "set board BwAAuCAAAAAAAA", "set dice 2 1"},
	{"new session", "set turn 1", "set board CgAAEAEAAAAAAA", "set dice 6 1"},
	{"new session", "set turn 0", "set board 2x0AAOi2AQAAAA"},
	{"new session", "set turn 1", "set board 71YHAEDjeQ4AYA", "set cube value 2", "set cube owner 0"},
	// One checker a side (gnubg also draws a side with none while a game is
	// in progress; gnubgid.DecodeState refuses that state, as engines do).
	{"new match 3", "set turn 1", "set board AgAABAAAAAAAAA", "set cube value 2", "set cube owner 1", "set dice 1 1"},
	{"new match 1", "set turn 0", "set board 4HPMwQCMz+AIIQ"},
	{"new match 5", "set score 4 2", "set crawford on", "set turn 0", "set dice 6 1"},
	{"new match 5", "set score 4 1", "set crawford off", "set turn 1"},
	{"new match 7", "set score 2 3", "set turn 1", "set board 4HPMwQCMz+AIIQ", "double"},
	{"new match 7", "set score 1 6", "set crawford off", "set turn 0", "set board 2wEAgMC3gwMGAA", "set dice 3 2"},
	{"new match 11", "set score 10 9", "set crawford on", "set turn 1"},
}

// TestDrawLikeGnubg draws each position from the IDs gnubg prints and
// compares the whole drawing with gnubg's.
func TestDrawLikeGnubg(t *testing.T) {
	gnubg := peertest.Gnubg(t)
	for i, cmds := range gnubgBoards {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			want := gnubgBoard(t, gnubg, cmds)
			lines := strings.SplitN(want, "\n", 3)
			pos := strings.TrimPrefix(lines[0], " GNU Backgammon  Position ID: ")
			mid := strings.TrimPrefix(lines[1], "                 Match ID   : ")
			s, err := gnubgid.DecodeState(pos, mid, rules)
			if err != nil {
				t.Fatal(err)
			}
			if got := Draw(s, [2]string{"gnubg", "root"}); got != want {
				t.Errorf("%q:\ngot\n%s\nwant\n%s", cmds, got, want)
			}
		})
	}
}

// gnubgBoard runs commands, then `show board`, and returns the last board.
func gnubgBoard(t *testing.T, gnubg string, cmds []string) string {
	t.Helper()
	in := append([]string{"set player both human", "set auto roll off", "set automatic game off"}, cmds...)
	in = append(in, "show board")
	c := exec.Command(gnubg, "-t", "-q", "-r")
	c.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
	out, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	i := strings.LastIndex(s, " GNU Backgammon  Position ID:")
	if i < 0 {
		t.Fatalf("no board in gnubg output:\n%s", s)
	}
	s = s[i:]
	lines := strings.SplitAfter(s, "\n")
	if len(lines) < 16 {
		t.Fatalf("short board:\n%s", s)
	}
	return strings.Join(lines[:16], "")
}
