package ringmaster_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/internal/rmtest"
)

// tuneControl is a tuning competition against faketune's opponent, whose
// candidates beat it with probability p(x) (or p(x, y)), best at x = 0.3
// (y = 0.6). body holds the tuner's keys and [[parameters]] tables; two
// parameters pass --y.
func tuneControl(kind string, seed int, twoParams bool, body string) string {
	args := `"--x", "{x}"`
	if twoParams {
		args += `, "--y", "{y}"`
	}
	return fmt.Sprintf(`competition_type = %q
game = "backgammon"
seed = %d
cube = false
opponent = "opp"
record_games = false
%s
[players.opp]
command = [%q, "--opponent"]

[candidate]
command = [%q, %s]
`, kind, seed, body, fakeTune, fakeTune, args)
}

// tuneRun runs the competition at path in chunks of maxGames games each
// (-1: to the end) with parallel games at once, and returns the status of
// the last run and the JSON report's tuner section. A run that warns
// fails the test.
func tuneRun(t *testing.T, path string, parallel int, maxGames ...int) (ringmaster.RunStatus, map[string]any) {
	t.Helper()
	status, warned := rmtest.Run(t, path, parallel, maxGames...)
	if warned != "" {
		t.Error(warned)
	}
	return status, tunerJSON(t, path)
}

func tunerJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	var rep map[string]any
	rmtest.ShowJSON(t, path, &rep)
	tuner, ok := rep["tuner"].(map[string]any)
	if !ok {
		t.Fatalf("no tuner section in the JSON report: %v", rep)
	}
	return tuner
}

// Small tunes of each type, for the resume tests: 24 games each.
var smallTunes = map[string]string{
	"spsa": `iterations = 12
mode = "opponent"
[[parameters]]
code = "x"
start = 0.75
min = 0.0
max = 1.0
c_end = 0.1
r_end = 0.05
`,
	"mc_tuner": `number_of_games = 24
exploration_coefficient = 0.5
initial_visits = 2
initial_wins = 1
max_depth = 2
[[parameters]]
code = "x"
min = 0.0
max = 1.0
split = 3
`,
	"ce_tuner": `number_of_generations = 3
samples_per_generation = 4
batch_size = 2
elite_proportion = 0.5
step_size = 0.5
[[parameters]]
code = "x"
initial_mean = 0.7
initial_variance = 0.1
min = 0.0
max = 1.0
`,
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// tunerGamesScored counts a competition's tuner games with a score.
func tunerGamesScored(db string) int {
	if _, err := os.Stat(db); err != nil {
		return 0 // not created yet: opening it would create it
	}
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		return 0
	}
	defer conn.Close()
	var n int
	conn.QueryRow("SELECT COUNT(*) FROM tuner_games WHERE score IS NOT NULL").Scan(&n)
	return n
}

// TestTuneResumeMatchesUninterrupted plays a small tune of each type
// through the ringmaster with faketune subprocesses, one game at a time:
// uninterrupted; stopped by max-games after 5, 12 and 13 games and
// resumed; and killed with SIGKILL in the middle of a game and resumed.
// Each must end in exactly the tuner state (the whole JSON section) of the
// uninterrupted run. A run with two games at a time, stopped and resumed,
// must finish the same number of games. -short tries spsa only.
func TestTuneResumeMatchesUninterrupted(t *testing.T) {
	kinds := []string{"spsa", "mc_tuner", "ce_tuner"}
	if testing.Short() {
		kinds = kinds[:1]
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			ctl := tuneControl(kind, 3, false, smallTunes[kind])
			whole := writeControl(t, t.TempDir(), "tune.toml", ctl)
			status, want := tuneRun(t, whole, 1, -1)
			if status != ringmaster.Finished {
				t.Fatalf("uninterrupted run: status %v, want finished", status)
			}
			if n := tunerGamesScored(strings.TrimSuffix(whole, ".toml") + ".db"); n != 24 {
				t.Fatalf("uninterrupted run scored %d games, want 24", n)
			}

			chunks := writeControl(t, t.TempDir(), "tune.toml", ctl)
			if _, got := tuneRun(t, chunks, 1, 5, 7, 1, -1); jsonText(t, got) != jsonText(t, want) {
				t.Errorf("stopped and resumed:\n%s\nuninterrupted:\n%s", jsonText(t, got), jsonText(t, want))
			}

			killed := writeControl(t, t.TempDir(), "tune.toml", ctl)
			cmd := exec.Command(ringmasterBin, "run", killed, "-q", "-j", "1")
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			db := strings.TrimSuffix(killed, ".toml") + ".db"
			landed := false
			for !landed {
				select {
				case <-done:
					t.Fatalf("the run finished before it could be killed (%d games scored):\n%s", tunerGamesScored(db), out.String())
				case <-time.After(5 * time.Millisecond):
					if tunerGamesScored(db) >= 9 {
						cmd.Process.Signal(syscall.SIGKILL)
						<-done
						landed = true
					}
				}
			}
			if _, got := tuneRun(t, killed, 1, -1); jsonText(t, got) != jsonText(t, want) {
				t.Errorf("killed and resumed:\n%s\nuninterrupted:\n%s", jsonText(t, got), jsonText(t, want))
			}

			parallel := writeControl(t, t.TempDir(), "tune.toml", ctl)
			if status, _ := tuneRun(t, parallel, 2, 7, -1); status != ringmaster.Finished {
				t.Errorf("two at a time: status %v, want finished", status)
			}
			if n := tunerGamesScored(strings.TrimSuffix(parallel, ".toml") + ".db"); n != 24 {
				t.Errorf("two at a time: %d games scored, want 24", n)
			}
		})
	}
}

// optimumTunes are tunes against faketune's opponent whose best
// parameters must come within tolerance of the optimum (x = 0.3, y =
// 0.6) in every coordinate. The tolerances hold with a margin over the
// worst of 40 seeds of the same tunes simulated in-process with the same
// win chances (in brackets).
var optimumTunes = []struct {
	name, kind string
	two        bool
	games      int
	tolerance  float64
	body       string
}{
	{"spsa x", "spsa", false, 600, 0.1, // (0.062)
		`iterations = 300
mode = "opponent"
[[parameters]]
code = "x"
start = 0.6
min = 0.0
max = 1.0
c_end = 0.1
r_end = 0.1
`},
	{"spsa x y", "spsa", true, 1000, 0.17, // (0.108, 0.121)
		`iterations = 500
mode = "opponent"
[[parameters]]
code = "x"
start = 0.45
min = 0.0
max = 1.0
c_end = 0.1
r_end = 0.1
[[parameters]]
code = "y"
start = 0.45
min = 0.0
max = 1.0
c_end = 0.1
r_end = 0.1
`},
	{"mc_tuner x", "mc_tuner", false, 500, 0.12, // (0.080)
		`number_of_games = 500
exploration_coefficient = 0.5
initial_visits = 2
initial_wins = 1
max_depth = 2
[[parameters]]
code = "x"
min = 0.0
max = 1.0
split = 5
`},
	{"mc_tuner x y", "mc_tuner", true, 800, 0.17, // (0.089, 0.122)
		`number_of_games = 800
exploration_coefficient = 0.5
initial_visits = 2
initial_wins = 1
max_depth = 2
[[parameters]]
code = "x"
min = 0.0
max = 1.0
split = 3
[[parameters]]
code = "y"
min = 0.0
max = 1.0
split = 3
`},
	{"ce_tuner x", "ce_tuner", false, 720, 0.25, // (0.186)
		`number_of_generations = 12
samples_per_generation = 10
batch_size = 6
elite_proportion = 0.3
step_size = 0.4
[[parameters]]
code = "x"
initial_mean = 0.6
initial_variance = 0.05
min = 0.0
max = 1.0
`},
	{"ce_tuner x y", "ce_tuner", true, 960, 0.25, // (0.119, 0.190)
		`number_of_generations = 12
samples_per_generation = 10
batch_size = 8
elite_proportion = 0.3
step_size = 0.4
[[parameters]]
code = "x"
initial_mean = 0.5
initial_variance = 0.05
min = 0.0
max = 1.0
[[parameters]]
code = "y"
initial_mean = 0.4
initial_variance = 0.05
min = 0.0
max = 1.0
`},
}

// TestTunersFindOptimum runs each tuner through the ringmaster, two games
// at a time, against faketune, whose candidates win with a known
// probability p(x) or p(x, y), and checks the tuner's best parameters
// against the optimum.
func TestTunersFindOptimum(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 4,580 games")
	}
	for _, tc := range optimumTunes {
		t.Run(tc.name, func(t *testing.T) {
			path := writeControl(t, t.TempDir(), "tune.toml", tuneControl(tc.kind, 1, tc.two, tc.body))
			status, tuner := tuneRun(t, path, 2, -1)
			if status != ringmaster.Finished {
				t.Fatalf("status %v, want finished", status)
			}
			if n := tunerGamesScored(strings.TrimSuffix(path, ".toml") + ".db"); n != tc.games {
				t.Errorf("%d games played, want %d", n, tc.games)
			}
			best, _ := tuner["best"].(map[string]any)
			want := map[string]float64{"x": 0.3}
			if tc.two {
				want["y"] = 0.6
			}
			for code, opt := range want {
				got, ok := best[code].(float64)
				if !ok || math.Abs(got-opt) > tc.tolerance {
					t.Errorf("best %s = %v, want within %g of %g", code, best[code], tc.tolerance, opt)
				} else {
					t.Logf("best %s = %.3f (optimum %g)", code, got, opt)
				}
			}
		})
	}
}

// TestTuneReportsCandidates checks that the reports say who each
// candidate was: the full text report lists every candidate with its
// parameters, the JSON report has them under contest.candidates beside
// the tuner section, and no matchup table stands for the tuning games.
func TestTuneReportsCandidates(t *testing.T) {
	path := writeControl(t, t.TempDir(), "tune.toml", tuneControl("spsa", 5, false, smallTunes["spsa"]))
	_, tuner := tuneRun(t, path, 2, -1)
	if tuner["type"] != "spsa" || tuner["best"] == nil || tuner["parameters"] == nil {
		t.Errorf("tuner section %v: want type spsa, best and parameters", tuner)
	}
	report, err := os.ReadFile(strings.TrimSuffix(path, ".toml") + ".report")
	if err != nil {
		t.Fatal(err)
	}
	text := string(report)
	for _, want := range []string{"iter: 12/12", "Best parameters: x:", "24 games issued, 24 candidates", "  i1+ ", "  i12- "} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "missing from control file") {
		t.Errorf("the tuning games show as a matchup:\n%s", text)
	}
	var rep struct {
		Contest struct {
			Issued     int `json:"games_issued"`
			Candidates []struct {
				Name   string            `json:"name"`
				Params map[string]string `json:"params"`
				Games  int               `json:"games"`
				Score  float64           `json:"score"`
			} `json:"candidates"`
		} `json:"contest"`
		Matchups []any `json:"matchups"`
		Players  []struct {
			Code       string `json:"code"`
			Definition struct {
				Command []string
			} `json:"definition"`
			Games int `json:"games"`
		} `json:"players"`
	}
	rmtest.ShowJSON(t, path, &rep)
	if rep.Contest.Issued != 24 || len(rep.Contest.Candidates) != 24 || len(rep.Matchups) != 0 {
		t.Fatalf("issued %d, %d candidates, %d matchups: want 24, 24, 0", rep.Contest.Issued, len(rep.Contest.Candidates), len(rep.Matchups))
	}
	// Each candidate was made for its game; the store keeps the
	// definition it played with, its x among its arguments.
	defs := map[string]string{}
	for _, p := range rep.Players {
		defs[p.Code] = fmt.Sprintf("%s in %d games", strings.Join(p.Definition.Command[1:], " "), p.Games)
	}
	if want := "--opponent in 24 games"; defs["opp"] != want {
		t.Errorf("the opponent's recorded definition: %q, want %q", defs["opp"], want)
	}
	total := 0.0
	for _, c := range rep.Contest.Candidates {
		if c.Params["x"] == "" || c.Games != 1 {
			t.Errorf("candidate %+v: want its x and one game", c)
		}
		if want := "--x " + c.Params["x"] + " in 1 games"; defs[c.Name] != want {
			t.Errorf("candidate %s's recorded definition: %q, want %q", c.Name, defs[c.Name], want)
		}
		total += c.Score
	}
	if total < 0 || total > 24 {
		t.Errorf("candidates' scores add up to %v", total)
	}
}

// TestTuneRefusesChangedTemplate resumes a tune whose [candidate]
// template changed after games were played: the run must stop with a
// message naming a stored game rather than play on with other players.
func TestTuneRefusesChangedTemplate(t *testing.T) {
	dir := t.TempDir()
	ctl := tuneControl("spsa", 2, false, smallTunes["spsa"])
	path := writeControl(t, dir, "tune.toml", ctl)
	tuneRun(t, path, 1, 4)
	writeControl(t, dir, "tune.toml", ctl+"environ = {TUNE = \"changed\"}\n")
	var display, errs strings.Builder
	_, err := rmtest.Load(t, path).Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, Display: &display, Errors: &errs})
	if err == nil || !strings.Contains(err.Error(), "game tune_00000") || !strings.Contains(err.Error(), "template changed") {
		t.Fatalf("resume with a changed template: %v, want a refusal naming game tune_00000", err)
	}
	if n := tunerGamesScored(strings.TrimSuffix(path, ".toml") + ".db"); n != 4 {
		t.Errorf("%d games scored after the refusal, want the 4 played before it", n)
	}
}

// TestTuneLuckAdjusted scores a backgammon tune by luck-adjusted results:
// each game's score, as stored and given to the tuner, is the candidate's
// share (1+x)/2 of its judged luck-adjusted result x, not clipped, so
// that a tune of two candidates both judged to lose by more than a game
// still sees which lost by less.
func TestTuneLuckAdjusted(t *testing.T) {
	path := writeControl(t, t.TempDir(), "luck.toml", `competition_type = "spsa"
game = "backgammon"
seed = 3
match_length = 1
opponent = "net"
mode = "opponent"
luck_adjusted = true
iterations = 4

[players.net]
kind = "builtin"
args = ["--level", "net"]

[candidate]
kind = "builtin"
args = ["--level", "net", "--noise", "{noise}"]

[[parameters]]
code = "noise"
start = 0.5
min = 0.0
max = 1.0
c_end = 0.05
r_end = 0.2
`)
	if status, _ := tuneRun(t, path, 2, -1); status != ringmaster.Finished {
		t.Fatalf("status %v, want finished", status)
	}
	db, err := sql.Open("sqlite", strings.TrimSuffix(path, ".toml")+".db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT t.game_id, t.score, CASE WHEN g.player_a = 'net' THEN s.value_b ELSE s.value_a END
		FROM tuner_games t JOIN games g ON g.game_id = t.game_id
		JOIN analysis_stats s ON s.game_id = t.game_id AND s.judge_spec = 'bgbot:0' AND s.name = 'luck_adjusted_points'
		WHERE g.ending IN ('normal', 'resignation')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n, outside := 0, 0
	for rows.Next() {
		var id string
		var score, x float64
		if err := rows.Scan(&id, &score, &x); err != nil {
			t.Fatal(err)
		}
		n++
		if math.Abs(score-(1+x)/2) > 1e-12 {
			t.Errorf("game %s: score %v, want (1+x)/2 = %v for the candidate's luck-adjusted result %v", id, score, (1+x)/2, x)
		}
		if score < 0 || score > 1 {
			outside++
		}
	}
	if n != 8 {
		t.Errorf("%d judged games with a score, want 8", n)
	}
	if outside == 0 {
		t.Error("no luck-adjusted share fell outside [0,1]: the test no longer shows that shares are not clipped")
	}
}
