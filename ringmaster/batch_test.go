package ringmaster_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// TestBatchCommands: the Go referee sends the commands it knows ahead (the
// setup, a move to tell with the next genmove) in one write unless a
// player says batch_commands = false. A deterministic engine plays the same
// games either way; an engine that takes only the first command of each
// read fails when batched and plays the same games one command at a time.
func TestBatchCommands(t *testing.T) {
	dir := t.TempDir()
	control := func(flags, keys string) string {
		return fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 7
komi = 0.5

[players.a]
command = [%[1]q%[2]s]
timeout = "1s"
%[3]s

[players.b]
command = [%[1]q, "--gomill"%[2]s]
timeout = "1s"
%[3]s

[[matchups]]
id = "m"
players = ["a", "b"]
alternating = true
number_of_games = 4
`, fakeGo, flags, keys)
	}
	_, batched := runGo(t, dir, "batched.toml", control("", ""))
	if len(batched) != 4 {
		t.Fatalf("%d games, want 4", len(batched))
	}
	for name, ctl := range map[string]string{
		"unbatched":            control("", "batch_commands = false"),
		"one command per read": control(`, "--one-line-reads"`, "batch_commands = false"),
	} {
		_, got := runGo(t, dir, strings.ReplaceAll(name, " ", "-")+".toml", ctl)
		for id, want := range batched {
			g := got[id]
			if g.winner != want.winner || g.result != want.result || g.moves != want.moves || sgfGame(t, g.sgf).moves != sgfGame(t, want.sgf).moves {
				t.Errorf("%s: game %s %s %s %d moves, batched %s %s %d moves", name, id, g.winner, g.result, g.moves, want.winner, want.result, want.moves)
			}
		}
	}

	// Batched, the engine reading one command at a time never answers the
	// rest of its setup: the game is void, the error naming the commands.
	ctl := writeControl(t, dir, "fragile.toml", control(`, "--one-line-reads"`, ""))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, MaxVoids: 1,
		Display: io.Discard, Errors: io.Discard})
	if err != nil || status != ringmaster.Incomplete || len(readGoResults(t, rm.DBPath())) != 0 {
		t.Fatalf("fragile engine batched: %v %v, want an incomplete run with no result", status, err)
	}
	log, err := os.ReadFile(rm.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `gtp commands "clear_board", "komi", "list_commands": no response within 1s`) {
		t.Errorf("log does not name the unanswered setup commands:\n%s", log)
	}
}
