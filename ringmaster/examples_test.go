package ringmaster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// TestQuickExample runs the README's main job (examples/quick.toml, built-in
// bots only) from a copy, through the real ringmaster binary.
func TestQuickExample(t *testing.T) {
	data, err := os.ReadFile("../examples/quick.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctl := writeControl(t, dir, "quick.toml", string(data))
	out, err := exec.Command(ringmasterBin, "run", ctl, "-j", "2").CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	results := readResults(t, filepath.Join(dir, "quick.db"))
	if len(results) != 90 {
		t.Errorf("%d results, want 90", len(results))
	}
	for _, r := range results {
		if r.result == "forfeit" || r.winner == "" {
			t.Errorf("built-in bots should play clean games: %+v", r)
		}
		if _, err := os.Stat(filepath.Join(dir, "quick.games", r.gameID+".mat")); err != nil {
			t.Errorf("no .mat record for %s: %v", r.gameID, err)
		}
	}
	if !strings.Contains(string(out), "95% interval") || !strings.Contains(string(out), "heuristic v random (40/40 games)") {
		t.Errorf("the final report is missing:\n%s", out)
	}
	js, err := exec.Command(ringmasterBin, "show", ctl, "--json").Output()
	if err != nil {
		t.Fatalf("show --json: %v", err)
	}
	var rep ringmaster.JSONReport
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatalf("show --json: %v\n%s", err, js)
	}
	if len(rep.Matchups) != 3 || rep.Matchups[1].Played != 40 || rep.Matchups[1].Wins[0]+rep.Matchups[1].Wins[1] != 40 ||
		rep.Matchups[0].PointsPerGame == nil || rep.Matchups[0].PointsPerGame.Low > rep.Matchups[0].PointsPerGame.Value {
		t.Errorf("JSON report %+v", rep)
	}
}

// TestGnubgPlayer plays a short competition between bgbot and GNU
// Backgammon through its external interface: money games with the cube and
// a 3-point match, every decision validated by the referee.
func TestGnubgPlayer(t *testing.T) {
	bin := peertest.Gnubg(t)
	dir := t.TempDir()
	ctl := writeControl(t, dir, "g.toml", `competition_type = "playoff"
game = "backgammon"
seed = 4
dice = "paired"

[players.bgbot]
kind = "builtin"
args = ["--level", "net"]

[players.gnubg]
kind = "gnubg"
command = [`+"\""+bin+"\""+`]
plies = 0

[[matchups]]
id = "money"
players = ["bgbot", "gnubg"]
number_of_games = 4

[[matchups]]
id = "match"
players = ["gnubg", "bgbot"]
number_of_games = 2
match_length = 3
`)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var errs strings.Builder
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Display: io.Discard, Errors: &errs})
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v\n%s", status, err, errs.String())
	}
	results := readResults(t, rm.DBPath())
	if len(results) != 6 {
		t.Fatalf("%d results, want 6", len(results))
	}
	for _, r := range results {
		if r.result == "forfeit" || r.result == "unknown" {
			t.Errorf("game %s: %s (%s)", r.gameID, r.result, r.detail)
		}
	}
	// Every record the ringmaster wrote imports into gnubg, to the same score.
	for _, r := range results {
		if r.matchup != "match" {
			continue
		}
		path := filepath.Join(rm.GamesDir(), r.gameID+".mat")
		out := peertest.RunGnubg(t, "import mat "+path+"\nshow score\n")
		// Our detail reads "W won the 3-point match 3-1 in 4 games".
		var winner string
		var ws, ls, games int
		if _, err := fmt.Sscanf(r.detail, "%s won the 3-point match %d-%d in %d game", &winner, &ws, &ls, &games); err != nil {
			t.Fatalf("detail %q: %v", r.detail, err)
		}
		loser := r.a
		if loser == winner {
			loser = r.b
		}
		want := fmt.Sprintf("The score (after %d games) is: ", games)
		if games == 1 {
			want = "The score (after 1 game) is: " // gnubg's singular
		}
		text := out
		i := strings.Index(text, want)
		if i < 0 {
			t.Errorf("gnubg did not import %s:\n%s", path, out)
			continue
		}
		line, _, _ := strings.Cut(text[i:], "\n")
		for _, part := range []string{fmt.Sprintf("%s %d", winner, ws), fmt.Sprintf("%s %d", loser, ls)} {
			if !strings.Contains(line, part) {
				t.Errorf("%s: gnubg says %q; want %q", path, line, part)
			}
		}
	}
}

// TestExamplesLoad keeps every example control file valid, and runs the
// all-play-all example (built-in players only) to the end.
func TestExamplesLoad(t *testing.T) {
	files, err := filepath.Glob("../examples/*.toml")
	if err != nil || len(files) < 4 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		if _, err := ringmaster.New(f, games.All()...); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	data, err := os.ReadFile("../examples/allplayall.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctl := writeControl(t, dir, "allplayall.toml", string(data))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: io.Discard}); err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v", status, err)
	}
	if n := len(readResults(t, rm.DBPath())); n != 120 {
		t.Errorf("%d results, want 120 (6 pairs x 20 rounds)", n)
	}
	report, _ := os.ReadFile(rm.ReportPath())
	if !strings.Contains(string(report), "Bradley-Terry ratings") || !strings.Contains(string(report), "A net ") {
		t.Errorf("all-play-all report lacks the grid or ratings:\n%s", report)
	}
}
