package ringmaster_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/internal/rmtest"
)

const editedControl = `competition_type = "playoff"
game = "backgammon"
seed = 9
record_games = false

[players.net]
kind = "builtin"
args = ["--level", "heuristic", "--seed", "1"]

[players.rival]
kind = "builtin"
args = ["--level", "ARGS"]

[[matchups]]
id = "m"
players = ["net", "rival"]
number_of_games = GAMES
`

// TestEditedPlayerIsRecorded edits a player's definition between two
// runs, as gomill allows: the second run says in the log which player
// changed and how, plays on, and every game records the definition it
// was played with, so that show --json and the report say what each
// player was in which games.
func TestEditedPlayerIsRecorded(t *testing.T) {
	dir := t.TempDir()
	control := func(args, n string) string {
		return strings.NewReplacer("ARGS", args, "GAMES", n).Replace(editedControl)
	}
	path := writeControl(t, dir, "edit.toml", control(`random", "--seed", "2`, "2"))
	run := func() string {
		t.Helper()
		_, warned := rmtest.Run(t, path, 1, -1)
		return warned
	}
	if warned := run(); warned != "" {
		t.Errorf("first run warned: %s", warned)
	}
	writeControl(t, dir, "edit.toml", control(`random", "--seed", "3`, "4"))
	warned := run()
	want := "player rival: its definition changed since its last game (m_1): Args differ"
	logText, err := os.ReadFile(strings.TrimSuffix(path, ".toml") + ".log")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warned, want) || !strings.Contains(string(logText), want) {
		t.Errorf("second run's warnings %q and log lack %q", warned, want)
	}
	if strings.Contains(warned, "player net") {
		t.Errorf("the unchanged player is reported as changed: %s", warned)
	}

	var rep struct {
		Players []struct {
			Code       string `json:"code"`
			Definition struct {
				Args []string
			} `json:"definition"`
			Games     int    `json:"games"`
			FirstGame string `json:"first_game"`
			LastGame  string `json:"last_game"`
		} `json:"players"`
	}
	rmtest.ShowJSON(t, path, &rep)
	var got []string
	for _, p := range rep.Players {
		got = append(got, p.Code+" "+strings.Join(p.Definition.Args, " ")+" "+p.FirstGame+".."+p.LastGame+" "+strings.Repeat("#", p.Games))
	}
	wantPlayers := []string{
		"net --level heuristic --seed 1 m_0..m_3 ####",
		"rival --level random --seed 2 m_0..m_1 ##",
		"rival --level random --seed 3 m_2..m_3 ##",
	}
	if strings.Join(got, "\n") != strings.Join(wantPlayers, "\n") {
		t.Errorf("show --json players:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantPlayers, "\n"))
	}
	var report strings.Builder
	if err := rmtest.Load(t, path).Show(context.Background(), &report); err != nil {
		t.Fatal(err)
	}
	wantLine := "player rival played under 2 definitions: 2 games from m_0 to m_1; then 2 games from m_2 to m_3 (Args changed)\n"
	if !strings.Contains(report.String(), wantLine) {
		t.Errorf("the report lacks %q:\n%s", wantLine, report.String())
	}
}
