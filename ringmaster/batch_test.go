package ringmaster_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
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

// TestBatchedTurnStart: the backgammon referee asks an engine that knows
// genresign for its resignation and its cube decision in one batch at the
// start of a turn. The games, and a gencube failure (the doubler's
// forfeit, charged to gencube), come out the same batched, one command at
// a time, and from engines without genresign, whose cube decision is asked
// on its own.
func TestBatchedTurnStart(t *testing.T) {
	control := func(resigner, keys string) string {
		return fmt.Sprintf(`competition_type = "playoff"
game = "backgammon"
seed = 7

[players.doubler]
command = [%[1]q%[3]s, "--doubles"]
%[2]s

[players.taker]
command = [%[1]q%[3]s]
%[2]s

[players.failing]
command = [%[1]q%[3]s, "--cube-fails-after", "2"]
%[2]s

[[matchups]]
id = "cube"
players = ["doubler", "taker"]
number_of_games = 6

[[matchups]]
id = "fail"
players = ["failing", "taker"]
number_of_games = 2
`, fakeEngine, keys, resigner)
	}
	run := func(name, ctl string) []row {
		rm, err := ringmaster.New(writeControl(t, t.TempDir(), name, ctl), games.All()...)
		if err != nil {
			t.Fatal(err)
		}
		var errs strings.Builder
		status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: &errs})
		if err != nil || status != ringmaster.Finished {
			t.Fatalf("%s: %v %v\n%s", name, status, err, errs.String())
		}
		return readResults(t, rm.DBPath())
	}
	batched := run("batched.toml", control(`, "--resigner"`, ""))
	noPids := regexp.MustCompile(`\(pid \d+\)`)
	for name, ctl := range map[string]string{
		"one command at a time": control(`, "--resigner"`, "batch_commands = false"),
		"without genresign":     control("", ""),
	} {
		got := run(strings.ReplaceAll(name, " ", "-")+".toml", ctl)
		if noPids.ReplaceAllString(fmt.Sprint(got), "") != noPids.ReplaceAllString(fmt.Sprint(batched), "") {
			t.Errorf("%s: results differ from batched\n got %v\nwant %v", name, got, batched)
		}
	}
	doubled, failed := 0, 0
	for _, r := range batched {
		switch {
		case r.matchup == "cube" && (r.pa > 1 || r.pa < -1 || r.pb > 1 || r.pb < -1):
			doubled++
		case r.matchup == "fail" && r.winner == "taker" && strings.Contains(r.detail, "gencube") && strings.Contains(r.detail, "no cube today"):
			failed++
		}
	}
	if doubled == 0 || failed != 2 {
		t.Errorf("%d cube games played for more than one point (want some), %d forfeits on gencube (want 2):\n%v", doubled, failed, batched)
	}
}

// TestBatchedAliases: gtp_aliases apply to every command of a batch, and
// a failure names the command meant and the one sent.
func TestBatchedAliases(t *testing.T) {
	dir := t.TempDir()
	control := func(aliases string) string {
		return fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 7
komi = 0.5

[players.a]
command = [%[1]q]
gtp_aliases = %[2]s

[players.b]
command = [%[1]q]

[[matchups]]
id = "m"
players = ["a", "b"]
alternating = true
number_of_games = 2
`, fakeGo, aliases)
	}
	_, plain := runGo(t, dir, "plain.toml", control("{}"))
	// fakego answers gomill-genmove_ex like genmove, and knows no "place".
	_, aliased := runGo(t, dir, "aliased.toml", control(`{ genmove = "gomill-genmove_ex" }`))
	for id, want := range plain {
		if got := aliased[id]; got.result != want.result || sgfGame(t, got.sgf).moves != sgfGame(t, want.sgf).moves {
			t.Errorf("game %s: %s with genmove aliased, %s without", id, got.result, want.result)
		}
	}
	_, broken := runGo(t, dir, "broken.toml", control(`{ play = "place" }`))
	for id, g := range broken {
		if g.winner != "b" || g.ending != "forfeit" || !strings.Contains(g.detail, "play (sent as place)") {
			t.Errorf("game %s with play aliased to an unknown command: %s %s %q", id, g.winner, g.ending, g.detail)
		}
	}
}
