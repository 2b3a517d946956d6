package ringmaster_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/peertest"
)

// TestGomillParity runs one small Go competition twice, by gomill 0.8.3's
// ringmaster and by ours, with the same GNU Go players and settings, and
// checks that every game is the same move for move with the same result.
// It needs gomill's source (GAMEMILL_GOMILL_SRC, a checkout of
// mattheww/gomill at gomill-0.8.3) and Python 2.7 (GAMEMILL_PYTHON2,
// default "python2"); docs/go.md shows a run.
func TestGomillParity(t *testing.T) {
	src := os.Getenv("GAMEMILL_GOMILL_SRC")
	if src == "" {
		t.Skip("set GAMEMILL_GOMILL_SRC to a gomill 0.8.3 checkout to compare with gomill's ringmaster")
	}
	python := os.Getenv("GAMEMILL_PYTHON2")
	if python == "" {
		python = "python2"
	}
	gnugo := peertest.GnuGo(t)
	const games = 10
	dir := t.TempDir()
	// A fixed engine seed: gomill has no per-game seed, and GNU Go then
	// plays each colour the same way in every game of a run.
	engine := func(level int) string {
		return fmt.Sprintf("%s --mode gtp --chinese-rules --level %d --seed 5", gnugo, level)
	}
	ctl := fmt.Sprintf(`competition_type = 'playoff'
board_size = 9
komi = 7.5
players = {
    'l0': Player(%q),
    'l1': Player(%q),
}
matchups = [Matchup('l0', 'l1', alternating=True, number_of_games=%d)]
`, engine(0), engine(1), games)
	if err := os.WriteFile(filepath.Join(dir, "gm.ctl"), []byte(ctl), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", "import sys; sys.argv=['ringmaster','gm.ctl','run','-q']; from gomill import ringmaster_command_line as r; r.main()")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONPATH="+src)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gomill's ringmaster: %v\n%s", err, out)
	}
	toml := fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 9
komi = 7.5

[players.l0]
command = %q

[players.l1]
command = %q

[[matchups]]
players = ["l0", "l1"]
alternating = true
number_of_games = %d
`, engine(0), engine(1), games)
	_, ours := runGo(t, dir, "gm.toml", toml)
	for i := 0; i < games; i++ {
		id := fmt.Sprintf("0_%d", i)
		theirs, err := os.ReadFile(filepath.Join(dir, "gm.games", id+".sgf"))
		if err != nil {
			t.Fatalf("gomill's record of %s: %v", id, err)
		}
		gm := sgfGame(t, string(theirs))
		us := sgfGame(t, ours[id].sgf)
		if gm.moves != us.moves || gm.black != us.black {
			t.Errorf("game %s differs:\n gomill %+v\n ours   %+v", id, gm, us)
		}
		t.Logf("game %s: gomill %s %s %d moves, ours %s %s %d moves", id, gm.black, gm.result, len(gm.moves), us.black, us.result, len(us.moves))
		if gm.result != us.result {
			t.Errorf("game %s: gomill's result %s, ours %s", id, gm.result, us.result)
		}
	}
}

type sgfSummary struct{ black, result, moves string }

func sgfGame(t *testing.T, text string) sgfSummary {
	t.Helper()
	trees, err := sgf.Parse([]byte(text))
	if err != nil || len(trees) == 0 {
		t.Fatalf("parse SGF: %v", err)
	}
	nodes := trees[0].MainLine()
	var s sgfSummary
	s.black, _ = nodes[0].Value("PB")
	s.result, _ = nodes[0].Value("RE")
	var moves []string
	for _, n := range nodes[1:] {
		for _, c := range []string{"B", "W"} {
			if vs := n.Values(c); vs != nil {
				v := ""
				if len(vs) > 0 {
					v = vs[0]
				}
				if v == "tt" {
					v = ""
				}
				moves = append(moves, c+"["+v+"]")
			}
		}
	}
	s.moves = strings.Join(moves, "")
	return s
}
