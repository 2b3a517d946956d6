package ringmaster_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// runRestart plays a backgammon playoff between players a and b (each
// "command" plus its player keys) and returns the ringmaster.
func runRestart(t *testing.T, a, b string, number int, parallel int) *ringmaster.Ringmaster {
	t.Helper()
	ctl := fmt.Sprintf(`competition_type = "playoff"
game = "backgammon"
seed = 11
cube = false

[players.a]
%s

[players.b]
%s

[[matchups]]
id = "m"
players = ["a", "b"]
number_of_games = %d
`, a, b, number)
	rm, err := ringmaster.New(writeControl(t, t.TempDir(), "kept.toml", ctl), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var errs strings.Builder
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: parallel, MaxGames: -1, Quiet: true,
		Display: &strings.Builder{}, Errors: &errs, MaxVoids: 2})
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v\n%s", status, err, errs.String())
	}
	if _, err := os.Stat(rm.EnginesPath()); !os.IsNotExist(err) {
		t.Errorf("%s left after the run (%v): kept engines not closed", rm.EnginesPath(), err)
	}
	return rm
}

// launches counts the engine processes each player's games started, by
// the line fakebg writes to stderr as it starts (the startup checks' aside).
func launches(t *testing.T, rm *ringmaster.Ringmaster) map[string]int {
	t.Helper()
	log, err := os.ReadFile(rm.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, m := range regexp.MustCompile(`engine\[(\w+) [^\]]*\]: fakebg: game "([^"]*)"`).FindAllStringSubmatch(string(log), -1) {
		if m[2] != "startup-check" {
			n[m[1]]++
		}
	}
	return n
}

// TestKeptEnginesPlayAsFresh: a deterministic engine kept between games
// (restart never or on_error) plays the same games as fresh processes,
// with one process per player and worker slot.
func TestKeptEnginesPlayAsFresh(t *testing.T) {
	const n = 10
	fresh := runRestart(t, fmt.Sprintf("command = [%q]", fakeEngine), fmt.Sprintf("command = [%q, \"--doubles\"]", fakeEngine), n, 2)
	want := readResults(t, fresh.DBPath())
	if len(want) != n {
		t.Fatalf("%d results, want %d", len(want), n)
	}
	if got := launches(t, fresh); got["a"] != n || got["b"] != n {
		t.Errorf("per_game: launches %v, want %d each", got, n)
	}
	for _, mode := range []string{"never", "on_error"} {
		rm := runRestart(t, fmt.Sprintf("command = [%q]\nrestart = %q", fakeEngine, mode),
			fmt.Sprintf("command = [%q, \"--doubles\"]\nrestart = %q", fakeEngine, mode), n, 2)
		if got := readResults(t, rm.DBPath()); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("restart %s: results differ from fresh engines'\n got %v\nwant %v", mode, got, want)
		}
		if got := launches(t, rm); got["a"] < 1 || got["a"] > 2 || got["b"] < 1 || got["b"] > 2 {
			t.Errorf("restart %s: launches %v, want one or two (one per worker slot) each", mode, got)
		}
	}
}

// TestKeptEngineCrashRestartsOnlyIt: an engine that crashes in a game is
// replaced for the next; its opponent's kept engine plays on.
func TestKeptEngineCrashRestartsOnlyIt(t *testing.T) {
	const n = 6
	for _, mode := range []string{"never", "on_error"} {
		rm := runRestart(t, fmt.Sprintf("command = [%q]\nrestart = %q", fakeEngine, mode),
			fmt.Sprintf("command = %q\nrestart = %q", fakeEngine+" --mode crash --after 40", mode), n, 1)
		if got := len(readResults(t, rm.DBPath())); got != n {
			t.Errorf("restart %s: %d results, want %d", mode, got, n)
		}
		log, _ := os.ReadFile(rm.LogPath())
		if !strings.Contains(string(log), "aborting game due to error") {
			t.Fatalf("restart %s: the crashing engine never crashed:\n%s", mode, log)
		}
		got := launches(t, rm)
		if got["a"] != 1 {
			t.Errorf("restart %s: the engine that never crashed was launched %d times, want 1", mode, got["a"])
		}
		if got["b"] < 2 {
			t.Errorf("restart %s: the crashing engine was launched %d times, want a new one after each crash", mode, got["b"])
		}
	}
}

// TestKeptEngineCPUPerGame: a kept engine's CPU is counted in the game
// that used it: its start-up in its first game, nothing of it in later
// ones.
func TestKeptEngineCPUPerGame(t *testing.T) {
	const startup = 300 * time.Millisecond
	player := fmt.Sprintf("command = [%q, \"--burn-start\", %q]\nrestart = \"never\"", fakeEngine, startup.String())
	rm := runRestart(t, player, player, 4, 1)
	db, err := sql.Open("sqlite", rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT game_id, cpu_a, cpu_b FROM games WHERE status = 'done' ORDER BY game_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	for ; rows.Next(); i++ {
		var id string
		var cpu [2]float64
		if err := rows.Scan(&id, &cpu[0], &cpu[1]); err != nil {
			t.Fatal(err)
		}
		for seat, c := range cpu {
			d := time.Duration(c * float64(time.Second))
			if i == 0 && d < startup-20*time.Millisecond {
				t.Errorf("game %s seat %d: cpu %v, want the start-up's %v at least", id, seat, d, startup)
			}
			if i > 0 && d >= startup/2 {
				t.Errorf("game %s seat %d: cpu %v: a kept engine's earlier CPU counted again", id, seat, d)
			}
		}
	}
	if i != 4 {
		t.Errorf("%d results, want 4", i)
	}
}
