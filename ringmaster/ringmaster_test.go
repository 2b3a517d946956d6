package ringmaster_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/internal/buildtest"
	"github.com/gamemill/gamemill/internal/syncbuf"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	_ "modernc.org/sqlite"
)

// binaries built once for all tests: the scripted fake engine and the
// ringmaster command itself (for the kill test).
var fakeEngine, fakeGo, fakeTune, ringmasterBin, gobotBin string

func TestMain(m *testing.M) {
	buildtest.Main(m, map[string]*string{"./testdata/fakebg": &fakeEngine, "./testdata/fakego": &fakeGo, "../cmd/gobot": &gobotBin, "./testdata/faketune": &fakeTune,
		"../cmd/ringmaster": &ringmasterBin})
}

func writeControl(t testing.TB, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type row struct {
	gameID, matchup, a, b, winner, result, detail string
	pa, pb                                        int
}

func readResults(t testing.TB, dbPath string) []row {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT game_id, matchup_id, player_a, player_b, COALESCE(winner, ''), points_a, points_b, result, detail FROM game_results ORDER BY game_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.gameID, &r.matchup, &r.a, &r.b, &r.winner, &r.pa, &r.pb, &r.result, &r.detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// countResults is how many results db holds, or -1 while it cannot be
// read (not yet created, or its schema not yet made).
func countResults(dbPath string) int {
	if _, err := os.Stat(dbPath); err != nil {
		return -1
	}
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		return -1
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM game_results").Scan(&n); err != nil {
		return -1
	}
	return n
}

// TestMisbehavingEngines runs a good engine against engines that crash,
// hang, write garbage or huge lines, answer illegal moves or failures, or
// start slowly: each gets its documented forfeit or void and the run goes
// on. The crashing engine voids each game once; crashing again in the
// replay is its forfeit.
func TestMisbehavingEngines(t *testing.T) {
	dir := t.TempDir()
	var ctl strings.Builder
	fmt.Fprintf(&ctl, "competition_type = \"playoff\"\ngame = \"backgammon\"\nseed = 5\nnumber_of_games = 2\n\n")
	fmt.Fprintf(&ctl, "[players.good]\ncommand = [%q]\ntimeout = \"5s\"\n\n", fakeEngine)
	modes := []struct{ code, args string }{
		{"crash", "--mode crash --after 3"},
		{"hang", "--mode hang --after 3"},
		{"garbage", "--mode garbage --after 3"},
		{"huge", "--mode huge --after 3"},
		{"illegal", "--mode illegal --after 3"},
		{"fail", "--mode fail --after 3"},
		{"slow", "--slow-start 700ms"},
	}
	for _, m := range modes {
		// Only the hanging engine needs a short timeout; the others get room
		// for a loaded machine.
		timeout := "5s"
		if m.code == "hang" {
			timeout = "1500ms"
		}
		fmt.Fprintf(&ctl, "[players.%s]\ncommand = %q\ntimeout = %q\n\n", m.code, fakeEngine+" "+m.args, timeout)
	}
	for _, m := range modes {
		fmt.Fprintf(&ctl, "[[matchups]]\nid = %q\nplayers = [\"good\", %q]\n\n", m.code, m.code)
	}
	path := writeControl(t, dir, "misbehave.toml", ctl.String())
	rm, err := ringmaster.New(path, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var display, errs strings.Builder
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Display: &display, Errors: &errs, MaxVoids: 2})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	if status != ringmaster.Finished {
		t.Errorf("status %v, want finished: the crashing engine forfeits the games it voids twice", status)
	}
	results := readResults(t, rm.DBPath())
	byMatchup := map[string][]row{}
	for _, r := range results {
		byMatchup[r.matchup] = append(byMatchup[r.matchup], r)
	}
	if n := len(byMatchup["crash"]); n != 2 {
		t.Errorf("crash: %d results, want 2 (forfeits after one void each)", n)
	}
	for _, r := range byMatchup["crash"] {
		if r.winner != "good" || r.result != "forfeit" || !strings.Contains(r.detail, "second void of this game by crash") {
			t.Errorf("crash: result %+v, want a forfeit for a second void", r)
		}
	}
	for _, mode := range []string{"hang", "garbage", "huge", "illegal", "fail"} {
		rs := byMatchup[mode]
		if len(rs) != 2 {
			t.Errorf("%s: %d results, want 2", mode, len(rs))
			continue
		}
		for _, r := range rs {
			if r.winner != "good" || r.result != "forfeit" || !strings.Contains(r.detail, "forfeit by "+mode) {
				t.Errorf("%s: result %+v, want a forfeit by %s", mode, r, mode)
			}
		}
	}
	for _, r := range byMatchup["slow"] {
		if r.result == "forfeit" {
			t.Errorf("slow start within the timeout forfeited: %+v", r)
		}
	}
	if len(byMatchup["slow"]) != 2 {
		t.Errorf("slow: %d results, want 2", len(byMatchup["slow"]))
	}
	log, _ := os.ReadFile(rm.LogPath())
	if !strings.Contains(string(log), `engine[good hang_0]: fakebg: game "hang_0" slot "`) {
		t.Errorf("engines did not get GAMEMILL_GAME_ID and GAMEMILL_SLOT, or their stderr is not in the log")
	}
	if !strings.Contains(string(log), "game crash_0 -- aborting game due to error") {
		t.Errorf("the log does not explain the void game:\n%s", log)
	}
	voids, _ := filepath.Glob(filepath.Join(rm.VoidDir(), "crash_*.sgf"))
	if len(voids) != 2 {
		t.Errorf("%d void records, want 2 (2 games, 1 void attempt each): %v", len(voids), voids)
	} else if data, _ := os.ReadFile(voids[0]); !strings.Contains(string(data), "void: ") || !strings.Contains(string(data), "GM[6]") {
		t.Errorf("void record lacks the reason or is not backgammon SGF:\n%s", data)
	}
	report, err := os.ReadFile(rm.ReportPath())
	if err != nil || !strings.Contains(string(report), "void game attempt") || !strings.Contains(string(report), "forfeit hang_0") {
		t.Errorf("report misses voids or forfeits (%v):\n%s", err, report)
	}
}

const killControl = `competition_type = "playoff"
game = "backgammon"
seed = 77
dice = "paired"

[players.p1]
command = [%[1]q]

[players.p2]
command = [%[1]q, "--doubles"]

[[matchups]]
id = "money"
players = ["p1", "p2"]
number_of_games = 120

[[matchups]]
id = "match"
players = ["p2", "p1"]
number_of_games = 20
match_length = 3
`

// TestKillAndResume kills the ringmaster with SIGKILL at ten random moments
// and restarts it each time; the final results must be exactly those of a
// run never killed: every game once, the same outcomes.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test skipped in -short mode")
	}
	refDir, killDir := t.TempDir(), t.TempDir()
	ref := writeControl(t, refDir, "k.toml", fmt.Sprintf(killControl, fakeEngine))
	killed := writeControl(t, killDir, "k.toml", fmt.Sprintf(killControl, fakeEngine))
	if out, err := exec.Command(ringmasterBin, "run", ref, "-q", "-j", "2").CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	want := readResults(t, filepath.Join(refDir, "k.db"))
	if len(want) != 140 {
		t.Fatalf("reference run has %d results, want 140", len(want))
	}
	kills := killRuns(t, killed, 10)
	t.Logf("%d of 10 kills landed while the ringmaster was running", kills)
	if kills < 5 {
		t.Errorf("only %d kills landed mid-run: the test did not exercise resume", kills)
	}
	got := readResults(t, filepath.Join(killDir, "k.db"))
	if len(got) != len(want) {
		t.Fatalf("after %d kills: %d results, want %d", kills, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("game %s differs after kills:\n got  %+v\n want %+v", want[i].gameID, got[i], want[i])
		}
	}
}

// TestSecondRunRefused starts a long run and checks that a second run of
// the same competition is refused while the first holds it, and that stop
// ends the first one gracefully with exit status 0.
func TestSecondRunRefused(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "two.toml", strings.Replace(fmt.Sprintf(killControl, fakeEngine), "number_of_games = 120", "number_of_games = 4000", 1))
	first := exec.Command(ringmasterBin, "run", ctl, "-q")
	var firstOut strings.Builder
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	// Wait until the first run has recorded a game, so it holds the lock.
	db := filepath.Join(dir, "two.db")
	for i := 0; i < 200; i++ {
		if countResults(db) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, err := exec.Command(ringmasterBin, "run", ctl, "-q").CombinedOutput()
	if code := exitCode(err); code != 1 || !strings.Contains(string(out), "already running") {
		t.Errorf("second run: exit %d, output %q; want 1 and 'already running'", code, out)
	}
	if out, err := exec.Command(ringmasterBin, "show", ctl).CombinedOutput(); err != nil || !strings.Contains(string(out), "/4000 games)") {
		t.Errorf("show during a run: %v\n%s", err, out)
	}
	if out, err := exec.Command(ringmasterBin, "stop", ctl).CombinedOutput(); err != nil {
		t.Fatalf("stop: %v %s", err, out)
	}
	if err := first.Wait(); err != nil {
		t.Errorf("stopped run: %v\n%s", err, firstOut.String())
	}
	if n := len(readResults(t, db)); n == 0 || n >= 4020 {
		t.Errorf("stopped run recorded %d games", n)
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// TestExitCodes checks the documented exit statuses of the command: 2 for
// usage errors, 1 for errors (a control file error names file, line and
// key), 3 for a run interrupted by SIGINT, whose games the next run
// finishes, each id once.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := writeControl(t, dir, "bad.toml", "competition_type = \"playoff\"\ngame = \"backgammon\"\nnumber_of_games = 2\n\n[players.a]\ncommand = \"x\"\nsurprise = 1\n")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage"},
		{[]string{"frobnicate", bad}, 2, `unknown command "frobnicate"`},
		{[]string{"run", bad, "--parallel", "0"}, 2, "--parallel"},
		{[]string{"run", bad}, 1, "bad.toml:7: players.a.surprise"},
		{[]string{"show", filepath.Join(dir, "missing.toml")}, 1, "missing.toml"},
		{[]string{"--help"}, 0, "usage"},
	}
	for _, c := range cases {
		out, err := exec.Command(ringmasterBin, c.args...).CombinedOutput()
		if code := exitCode(err); code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("ringmaster %q: exit %d, output %q; want %d and %q", c.args, code, out, c.code, c.want)
		}
	}

	ctl := writeControl(t, dir, "int.toml", fmt.Sprintf(killControl, fakeEngine))
	defer func() {
		out, err := exec.Command(ringmasterBin, "reset", ctl).CombinedOutput()
		if err != nil {
			t.Errorf("reset: %v %s", err, out)
		}
		out, err = exec.Command(ringmasterBin, "show", ctl).CombinedOutput()
		if exitCode(err) != 1 || !strings.Contains(string(out), "no status file") {
			t.Errorf("show after reset: exit %d %q", exitCode(err), out)
		}
		for _, leftover := range []string{"int.db", "int.log", "int.report", "int.games"} {
			if _, err := os.Stat(filepath.Join(dir, leftover)); err == nil {
				t.Errorf("reset left %s", leftover)
			}
		}
	}()
	cmd := exec.Command(ringmasterBin, "run", ctl, "-q", "-j", "2")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "int.db")
	for i := 0; i < 200; i++ {
		if countResults(db) > 2 {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	if code := exitCode(cmd.Wait()); code != 3 {
		t.Fatalf("interrupted run: exit %d, want 3", code)
	}
	before := len(readResults(t, db))
	if out, err := exec.Command(ringmasterBin, "run", ctl, "-q", "-j", "2").CombinedOutput(); err != nil {
		t.Fatalf("resumed run: %v\n%s", err, out)
	}
	after := readResults(t, db)
	seen := map[string]bool{}
	for _, r := range after {
		if seen[r.gameID] {
			t.Errorf("game %s recorded twice", r.gameID)
		}
		seen[r.gameID] = true
	}
	if len(after) != 140 || before >= 140 {
		t.Errorf("interrupted at %d results, finished with %d; want fewer than 140, then 140", before, len(after))
	}
}

// TestLiveDisplay checks the full-screen view: games in progress, the
// results so far and recent results.
func TestLiveDisplay(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "live.toml", strings.Replace(fmt.Sprintf(killControl, fakeEngine), "number_of_games = 120", "number_of_games = 300", 1))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var display syncbuf.Buffer
	if _, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Live: true, Display: &display, Errors: io.Discard}); err != nil {
		t.Fatal(err)
	}
	text := display.String()
	for _, want := range []string{"games in progress:", "(Ctrl-X or 'ringmaster stop'", "= Results =", "game money_", "points/game for p1"} {
		if !strings.Contains(text, want) {
			t.Errorf("live display lacks %q", want)
		}
	}
}

// TestSPRTStopsMatchup runs a strong engine against a weak one with a
// sequential test: the matchup stops long before its planned games, with
// pairs whole, and the report states the decision.
func TestSPRTStopsMatchup(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "sprt.toml", `competition_type = "playoff"
game = "backgammon"
seed = 8
cube = false
dice = "paired"
sprt = { elo0 = 0, elo1 = 50 }

[players.net]
kind = "builtin"
args = ["--level", "net"]

[players.rand]
kind = "builtin"
args = ["--level", "random"]

[[matchups]]
id = "m"
players = ["net", "rand"]
number_of_games = 1000
`)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: io.Discard})
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v", status, err)
	}
	results := readResults(t, rm.DBPath())
	if n := len(results); n >= 200 || n%2 != 0 {
		t.Errorf("%d games played: the test should stop early with whole pairs", n)
	}
	report, _ := os.ReadFile(rm.ReportPath())
	if !strings.Contains(string(report), "accepted H1 (net - rand = 50 Elo)") {
		t.Errorf("report lacks the decision:\n%s", report)
	}
}

// TestProtocolLogs checks --log-protocol: one transcript per game with both
// players' commands and responses.
func TestProtocolLogs(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "pl.toml", strings.Replace(strings.Replace(fmt.Sprintf(killControl, fakeEngine), "number_of_games = 120", "number_of_games = 2", 1), "number_of_games = 20", "number_of_games = 0", 1))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, LogProtocol: true, Display: io.Discard, Errors: io.Discard}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"money_0", "money_1"} {
		data, err := os.ReadFile(filepath.Join(rm.ProtocolDir(), id+".log"))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, want := range []string{">> p1: set_game standard 0 jacoby", ">> p2: set_position ", ">> p1: genmove", "<< p2: = "} {
			if !strings.Contains(text, want) {
				t.Errorf("%s transcript lacks %q", id, want)
			}
		}
	}
}
