package ringmaster_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// These tests each cover a finding of the hostile review (issue
// "Hardening"); each failed on the code before its fix.

func fakeControl(numberOfGames int, extraPlayer, extraTop string) string {
	return fmt.Sprintf(`competition_type = "playoff"
game = "backgammon"
number_of_games = %d
%s
[players.a]
command = [%q]
%s
[players.b]
command = [%q]

[[matchups]]
id = "ab"
players = ["a", "b"]
`, numberOfGames, extraTop, fakeEngine, extraPlayer, fakeEngine)
}

func quietRun(t *testing.T, rm *ringmaster.Ringmaster, parallel int) (ringmaster.RunStatus, error) {
	t.Helper()
	return rm.Run(context.Background(), ringmaster.RunOptions{Parallel: parallel, MaxGames: -1, Quiet: true,
		Display: io.Discard, Errors: io.Discard})
}

// The run lock used to live on CODE.log: deleting the log during a run let
// a second run start beside the first, and reset delete the database under
// it. It is now on the database itself.
func TestLockSurvivesDeletedLog(t *testing.T) {
	dir := t.TempDir()
	// Each game takes a second to start, so that the first run is still
	// going while the second and reset each retry the lock for 2 s.
	ctl := writeControl(t, dir, "lock.toml", strings.Replace(fakeControl(8, "", ""), `players = ["a", "b"]`, `players = ["a", "slow"]`, 1)+
		"\n[players.slow]\ncommand = [\""+fakeEngine+"\", \"--slow-start\", \"1s\"]\n")
	first, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := quietRun(t, first, 1)
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if data, _ := os.ReadFile(first.LogPath()); strings.Contains(string(data), "starting game") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run did not start a game")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := os.Remove(first.LogPath()); err != nil {
		t.Fatal(err)
	}
	second, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, second, 1); !errors.Is(err, ringmaster.ErrAlreadyRunning) {
		t.Errorf("a second run with the log deleted: %v, want ErrAlreadyRunning", err)
	}
	if err := second.Reset(); !errors.Is(err, ringmaster.ErrAlreadyRunning) {
		t.Errorf("reset during a run: %v, want ErrAlreadyRunning", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("first run: %v", err)
	}
	if n := len(readResults(t, first.DBPath())); n != 8 {
		t.Errorf("%d results after the first run, want 8", n)
	}
	if err := second.Reset(); err != nil {
		t.Errorf("reset after the run: %v", err)
	}
	if _, err := os.Stat(first.DBPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("reset left the database: %v", err)
	}
}

// Changing what a matchup's games mean after some are played used to be
// accepted, pooling money games with 5-point matches.
func TestChangedSettingsRefused(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "change.toml", fakeControl(2, "", ""))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{strings.Replace(fakeControl(4, "", ""), `players = ["a", "b"]`, "players = [\"a\", \"b\"]\nmatch_length = 5", 1),
			"change.toml:14: matchups[0].match_length: changed since matchup ab's 2 results were played (they were played with match_length = 0; the control file now says match_length = 5)"},
		{fakeControl(4, "", "seed = 9"), "change.toml:4: seed: changed"},
		{fakeControl(4, "", "cube = false"), "change.toml:4: cube: changed"},
		{fakeControl(4, "", "variant = \"nackgammon\""), "change.toml:4: variant: changed"},
	} {
		writeControl(t, dir, "change.toml", tc.text)
		rm, err := ringmaster.New(ctl, games.All()...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = quietRun(t, rm, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "new id") {
			t.Errorf("error %v\nwant it to contain %q and how to start a new matchup id", err, tc.want)
		}
	}
	// More games under the same settings are fine.
	writeControl(t, dir, "change.toml", fakeControl(4, "", ""))
	rm, err = ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Errorf("more games, same settings: %v", err)
	}
	if n := len(readResults(t, rm.DBPath())); n != 4 {
		t.Errorf("%d results, want 4", n)
	}
}

// --parallel had no bound: a huge value spun for minutes ignoring signals.
func TestParallelBounded(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "par.toml", fakeControl(2, "", ""))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 99999999999); err == nil || !strings.Contains(err.Error(), "more than the most") {
		t.Errorf("-j 99999999999: %v", err)
	}
	start := time.Now()
	if _, err := quietRun(t, rm, ringmaster.MaxParallel); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(rm.LogPath())
	if !strings.Contains(string(log), "2 worker(s)") {
		t.Errorf("workers not bounded by the games left; log:\n%s", log)
	}
	t.Logf("-j %d with 2 games: %v", ringmaster.MaxParallel, time.Since(start))
}

// An engine's stderr used to reach CODE.log without a cap (1.56 GB in
// 10.8 s), and its lines could pass for the ringmaster's.
func TestEngineStderrCapped(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "spew.toml", strings.Replace(fakeControl(2, "", ""), "command = [\""+fakeEngine+"\"]\n\n[players.b]",
		"command = [\""+fakeEngine+"\", \"--spew\", \"200000\"]\nstderr_limit = 50000\n\n[players.b]", 1))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(rm.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	text := string(log)
	if len(text) > 2*(2*50000)+20000 {
		t.Errorf("log is %d bytes with stderr_limit 50000 and 2 games", len(text))
	}
	if strings.Count(text, "stderr limit reached") != 2 {
		t.Errorf("the limit is not reported once per game:\n%s", tail(text, 2000))
	}
	if !strings.Contains(text, "game ab_1: ") || !strings.Contains(text, "run 1 finished") {
		t.Errorf("the ringmaster's own events were lost:\n%s", tail(text, 2000))
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "\x1b") || strings.Contains(line, "\r") {
			t.Errorf("a control character reached the log: %q", line)
		}
		if strings.Contains(line, "forged") && !strings.Contains(line, "engine[a ") {
			t.Errorf("an engine line without its tag: %q", line)
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// Record files used to be written in place after the commit: a kill could
// leave an empty .mat. Report now rewrites any missing or damaged record
// from the database.
func TestReportRebuildsRecords(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "rec.toml", fakeControl(2, "", ""))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	mat := filepath.Join(rm.GamesDir(), "ab_0.mat")
	sgf := filepath.Join(rm.GamesDir(), "ab_1.sgf")
	want, err := os.ReadFile(mat)
	if err != nil || len(want) == 0 {
		t.Fatalf("record %s: %v", mat, err)
	}
	wantSGF, _ := os.ReadFile(sgf)
	if err := os.WriteFile(mat, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(sgf); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := rm.Report(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(mat)
	gotSGF, _ := os.ReadFile(sgf)
	if string(got) != string(want) || string(gotSGF) != string(wantSGF) {
		t.Errorf("records not rebuilt: .mat %d bytes (want %d), .sgf %d bytes (want %d)", len(got), len(want), len(gotSGF), len(wantSGF))
	}
	if !strings.Contains(out.String(), "rewrote 2 record file(s)") {
		t.Errorf("report does not say what it rewrote:\n%s", out.String())
	}
}

// An engine child that calls setsid used to escape the process-group kill
// and outlive the game and the ringmaster. After a SIGKILL of the
// ringmaster, the next run finds what the dead run's engines left
// (CODE.engines) and stops it.
func TestNextRunStopsEnginesOfADeadRun(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "orphan.pid")
	ctl := writeControl(t, dir, "dead.toml", strings.Replace(fakeControl(4, "", ""), "command = [\""+fakeEngine+"\"]\n\n[players.b]",
		"command = [\""+fakeEngine+"\", \"--setsid-child\", \""+pidFile+"\", \"--slow-start\", \"3s\"]\n\n[players.b]", 1))
	cmd := exec.Command(ringmasterBin, "run", ctl, "-q")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0; {
		if data, err := os.ReadFile(pidFile); err == nil {
			fmt.Sscan(string(data), &pid)
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the engine never started its child")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(strings.TrimSuffix(ctl, ".toml") + ".engines"); err != nil {
		t.Errorf("no engine list while the run is going: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	time.Sleep(200 * time.Millisecond)
	if err := syscall.Kill(pid, 0); err != nil {
		t.Logf("the setsid child is already gone (%v): the engine's cgroup took it", err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	// The next run (which plays no game: -g 0) stops it.
	out, err := exec.Command(ringmasterBin, "run", ctl, "-q", "-g", "0").CombinedOutput()
	if err != nil {
		t.Fatalf("next run: %v\n%s", err, out)
	}
	for deadline := time.Now().Add(5 * time.Second); ; {
		if err := syscall.Kill(pid, 0); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dead run's setsid child %d still runs after the next run started", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(strings.TrimSuffix(ctl, ".toml") + ".engines"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the engine list outlived the clean-up: %v", err)
	}
}

// Engine names used to be printed verbatim: a 1 MB name made a 1 MB report,
// control characters included.
func TestEngineNamesSanitised(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "loud.sh")
	// ASCII control characters break the protocol's framing; C1 controls
	// (U+009B is a terminal's CSI) pass it.
	name := strings.Repeat("N", 5000) + "\u009b2J"
	if err := os.WriteFile(script, []byte("#!/bin/sh\nwhile read -r cmd rest; do case $cmd in\n"+
		"protocol_version) printf '= 2\\n\\n' ;;\nname) printf '= "+name+"\\n\\n' ;;\nversion) printf '= 1\u0085x\\n\\n' ;;\n"+
		"quit) printf '=\\n\\n'; exit 0 ;;\n*) printf '=\\n\\n' ;;\nesac; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctl := writeControl(t, dir, "loud.toml", strings.Replace(fakeControl(2, "", ""), "command = [\""+fakeEngine+"\"]\n\n[players.b]",
		"command = [\""+script+"\"]\n\n[players.b]", 1))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := rm.Show(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 2000 || strings.ContainsAny(out.String(), "\u009b\u0085") {
		t.Errorf("report of %d bytes, or with control characters:\n%q", out.Len(), out.String())
	}
	if !strings.Contains(out.String(), "player a: NNNN") {
		t.Errorf("the engine's name is missing:\n%s", out.String())
	}
}

// luck_adjust = true ends each run by analysing its new games, and the
// report gives luck-adjusted points per game beside the raw ones.
func TestLuckAdjust(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "luck.toml", `competition_type = "playoff"
game = "backgammon"
seed = 3
luck_adjust = true
match_length = 3
dice = "paired"

[players.net]
kind = "builtin"
args = ["--level", "net"]

[players.heur]
kind = "builtin"
args = ["--level", "heuristic"]

[[matchups]]
id = "m"
players = ["net", "heur"]
number_of_games = 6
`)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := rm.Show(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "luck-adjusted match points/match (+1 win, -1 loss) for net: ") ||
		!strings.Contains(out.String(), "(6 of 6 games analysed)") {
		t.Errorf("no luck-adjusted figure in the report:\n%s", out.String())
	}
	var js strings.Builder
	if err := rm.ShowJSON(context.Background(), &js); err != nil || !strings.Contains(js.String(), `"luck_adjusted_points_per_game"`) {
		t.Errorf("show --json lacks luck_adjusted_points_per_game (%v)", err)
	}
	// A game without analysis refuses the setting at the start of a run.
	goctl := writeControl(t, dir, "goluck.toml", "competition_type = \"playoff\"\ngame = \"go\"\nboard_size = 5\nkomi = 0.5\nluck_adjust = true\n"+
		"[players.a]\ncommand = \"a\"\n[players.b]\ncommand = \"b\"\n[[matchups]]\nplayers = [\"a\", \"b\"]\nnumber_of_games = 2\n")
	grm, err := ringmaster.New(goctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, grm, 1); err == nil || !strings.Contains(err.Error(), "luck_adjust: analysis not available for go") {
		t.Errorf("luck_adjust under go: %v", err)
	}
}
