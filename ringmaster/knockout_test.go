package ringmaster_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/internal/rmtest"
)

// knockoutControl: six bgbot settings in a bracket of 3-point matches with
// paired dice, two games a match; seeds 1 and 2 get byes.
func knockoutControl(t testing.TB) string {
	return `
competition_type = "knockout"
game = "backgammon"
seed = 17
match_length = 3
dice = "paired"
number_of_games = 2
competitors = ["net", "heuristic", "noisy", "rand1", "rand2", "rand3"]

` + rmtest.Bots(t, "net", "heuristic", "noisy", "rand1", "rand2", "rand3")
}

func runKnockout(t *testing.T, dir string, maxGames []int, parallel int) (ringmaster.RunStatus, []row, map[string]any) {
	t.Helper()
	path := writeControl(t, dir, "ko.toml", knockoutControl(t))
	status, _ := rmtest.Run(t, path, parallel, maxGames...)
	var rep map[string]any
	rmtest.ShowJSON(t, path, &rep)
	return status, readResults(t, rmtest.Load(t, path).DBPath()), rep
}

// TestKnockoutPlaysItsBracket runs a bracket to its winner and checks
// that a run stopped mid-round and resumed plays the same games with the
// same results as a run never stopped.
func TestKnockoutPlaysItsBracket(t *testing.T) {
	status, whole, rep := runKnockout(t, t.TempDir(), []int{-1}, 2)
	if status != ringmaster.Finished {
		t.Fatalf("status %v, want finished", status)
	}
	contest, _ := rep["contest"].(map[string]any)
	winner, _ := contest["winner"].(string)
	if winner == "" {
		t.Fatalf("no winner in the JSON report: %v", rep["contest"])
	}
	matchups := map[string]bool{}
	for _, r := range whole {
		matchups[r.matchup] = true
	}
	// Six players: round 1 has two matches (seeds 3-6), then two
	// semi-finals and the final; each match 2 games or more on a tie.
	for _, id := range []string{"r1m2", "r1m4", "r2m1", "r2m2", "r3m1"} {
		if !matchups[id] {
			t.Errorf("no games of matchup %s; played %v", id, matchups)
		}
	}
	if matchups["r1m1"] || matchups["r1m3"] {
		t.Error("a bye was played")
	}
	resumed := t.TempDir()
	status, parts, _ := runKnockout(t, resumed, []int{1, 2, 3, -1}, 1)
	if status != ringmaster.Finished {
		t.Fatalf("resumed status %v, want finished", status)
	}
	if fmt.Sprint(parts) != fmt.Sprint(whole) {
		t.Errorf("stopped and resumed:\n%v\nuninterrupted:\n%v", parts, whole)
	}
}

func gauntletControl(t testing.TB) string {
	return `
competition_type = "gauntlet"
game = "backgammon"
seed = 23
match_length = 3
dice = "paired"
number_of_games = 4
challengers = ["net", "heuristic"]
opponents = ["rand1", "rand2", "rand3"]

` + rmtest.Bots(t, "net", "heuristic", "rand1", "rand2", "rand3")
}

// TestGauntletAndKnockoutSurviveSIGKILL kills a `ringmaster run` of each
// type with SIGKILL once some games are stored, resumes it, and compares
// the stored results with a run never killed: the same games with the
// same results, nothing lost and nothing played twice.
func TestGauntletAndKnockoutSurviveSIGKILL(t *testing.T) {
	for _, tc := range []struct{ name, control string }{{"gauntlet", gauntletControl(t)}, {"knockout", knockoutControl(t)}} {
		t.Run(tc.name, func(t *testing.T) {
			whole := writeControl(t, t.TempDir(), "c.toml", tc.control)
			if out, err := exec.Command(ringmasterBin, "run", whole, "-q", "-j", "1").CombinedOutput(); err != nil {
				t.Fatalf("uninterrupted run: %v\n%s", err, out)
			}
			want := readResults(t, strings.TrimSuffix(whole, ".toml")+".db")

			killed := writeControl(t, t.TempDir(), "c.toml", tc.control)
			db := strings.TrimSuffix(killed, ".toml") + ".db"
			cmd := exec.Command(ringmasterBin, "run", killed, "-q", "-j", "1")
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			for killedAt := false; !killedAt; {
				select {
				case <-done:
					t.Fatalf("the run finished before it could be killed:\n%s", out.String())
				case <-time.After(5 * time.Millisecond):
					if countResults(db) >= 3 {
						cmd.Process.Signal(syscall.SIGKILL)
						<-done
						killedAt = true
					}
				}
			}
			if n := countResults(db); n >= len(want) {
				t.Fatalf("killed after %d of %d games: nothing left to resume", n, len(want))
			}
			if out, err := exec.Command(ringmasterBin, "run", killed, "-q", "-j", "1").CombinedOutput(); err != nil {
				t.Fatalf("resumed run: %v\n%s", err, out)
			}
			if got := readResults(t, db); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("killed and resumed:\n%v\nnever killed:\n%v", got, want)
			}
		})
	}
}

// TestKnockoutChecksByePlayers: the top seed of a three-player bracket
// has a bye, and its engine fails at start-up; the run refuses to start,
// naming it, rather than playing the first round and failing at the final.
func TestKnockoutChecksByePlayers(t *testing.T) {
	path := writeControl(t, t.TempDir(), "bye.toml", `competition_type = "knockout"
game = "backgammon"
number_of_games = 2
competitors = ["top", "b", "c"]

[players.top]
command = ["sh", "-c", "echo no engine here >&2; exit 3"]
[players.b]
kind = "builtin"
[players.c]
kind = "builtin"
`)
	rm := rmtest.Load(t, path)
	var display, errs strings.Builder
	_, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, Display: &display, Errors: &errs})
	if err == nil || !strings.Contains(err.Error(), "player top failed startup check") {
		t.Errorf("run with a broken bye player: %v, want a failed startup check of top", err)
	}
	if n := countResults(rm.DBPath()); n != 0 {
		t.Errorf("%d games played before the check failed", n)
	}
}
