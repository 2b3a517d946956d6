package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyseCommand runs 'ringmaster analyse' on a played competition:
// text, JSON, its own flags, and exit status 3 when interrupted.
func TestAnalyseCommand(t *testing.T) {
	dir := t.TempDir()
	ctl := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(ctl, []byte(quickControl), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runMain(t, "analyse", ctl); code != exitError || !strings.Contains(errs, "no status file") {
		t.Errorf("analyse before run: exit %d, %s", code, errs)
	}
	if code, _, errs := runMain(t, "run", ctl, "-q"); code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyse", ctl, "-j", "0"}, "--parallel must be between 1 and 64"},
		{[]string{"analyse", ctl, "--max-games", "3"}, "unknown flag: --max-games"},
		{[]string{"analyse", ctl, "--judge", "gnubg:x"}, "--judge: judge \"gnubg:x\": the depth after ':' must be a whole number"},
		{[]string{"analyse", ctl, "--judge", "gnubg:1", "--plies", "1"}, "--judge gnubg:1 names its depth: leave out --plies"},
	} {
		if code, _, errs := runMain(t, tc.args...); code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %s; want %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
	if code, _, errs := runMain(t, "analyse", ctl, "--plies", "7"); code != exitError || !strings.Contains(errs, "bgbot judge: depth 7 out of range") {
		t.Errorf("--plies 7: exit %d, %s", code, errs)
	}
	if code, _, errs := runMain(t, "analyse", ctl, "--judge", "nosuch"); code != exitError || !strings.Contains(errs, `no judge "nosuch" (the judges: bgbot, gnubg)`) {
		t.Errorf("--judge nosuch: exit %d, %s", code, errs)
	}
	if code, _, errs := runMain(t, "analyse", ctl, "--matchup", "nope"); code != exitError || !strings.Contains(errs, `matchup "nope" is not in c`) {
		t.Errorf("--matchup nope: exit %d, %s", code, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut strings.Builder
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	if code := run(ctx, []string{"analyse", ctl}, devnull, &out, &errOut); code != exitInterrupted {
		t.Errorf("interrupted analyse: exit %d, %s", code, errOut.String())
	}
	code, stdout, errs := runMain(t, "analyse", ctl, "-j", "2")
	if code != exitOK || !strings.Contains(stdout, "c: 2 games analysed by bgbot 0-ply (2 now)") ||
		strings.Count(errs, " analysed (") != 2 {
		t.Errorf("analyse: exit %d\n%s\n%s", code, stdout, errs)
	}
	code, stdout, errs = runMain(t, "analyse", ctl, "--json", "-q")
	var js struct {
		Analysed int              `json:"games_analysed"`
		Now      int              `json:"analysed_now"`
		Players  []map[string]any `json:"players"`
	}
	if code != exitOK || errs != "" || json.Unmarshal([]byte(stdout), &js) != nil || js.Analysed != 2 || js.Now != 0 ||
		len(js.Players) != 2 || js.Players[0]["name"] != "a" {
		t.Errorf("analyse --json: exit %d, %+v\n%s\n%s", code, js, stdout, errs)
	}

	// A game whose record cannot be replayed is listed, the others are
	// reported, and the exit status says that not all were judged.
	db, err := sql.Open("sqlite", filepath.Join(dir, "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(`UPDATE records SET text = 'not a record' WHERE game_id = (SELECT MIN(game_id) FROM records)`)
	if n, _ := res.RowsAffected(); err != nil || n == 0 {
		t.Fatalf("spoiling a record: %v (%d rows)", err, n)
	}
	code, stdout, errs = runMain(t, "analyse", ctl, "--plies", "1", "-q")
	if code != exitError || !strings.Contains(stdout, "c: 1 game analysed by bgbot 1-ply") ||
		!strings.Contains(errs, "1 of 2 games could not be judged") {
		t.Errorf("analyse with a spoilt record: exit %d\n%s\n%s", code, stdout, errs)
	}
}

// TestRatingsCommand: 'ringmaster ratings' takes one or more control
// files and its own flags.
func TestRatingsCommand(t *testing.T) {
	dir := t.TempDir()
	var ctls []string
	for _, name := range []string{"c1.toml", "c2.toml"} {
		ctl := filepath.Join(dir, name)
		if err := os.WriteFile(ctl, []byte(strings.Replace(quickControl, "number_of_games = 2", "number_of_games = 6", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runMain(t, "run", ctl, "-q"); code != exitOK {
			t.Fatalf("run: exit %d, %s", code, errs)
		}
		ctls = append(ctls, ctl)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ratings"}, "usage: ringmaster ratings CONTROL.toml [CONTROL.toml ...]"},
		{[]string{"ratings", ctls[0], "--format", "xml"}, `--format must be text, csv or json, got "xml"`},
		{[]string{"ratings", ctls[0], "--anchor", "a"}, `--anchor must be CODE=RATING, got "a"`},
		{[]string{"ratings", ctls[0], "--anchor", "a=x"}, `--anchor must be CODE=RATING`},
		{[]string{"ratings", ctls[0], "--prior", "-1"}, "--prior must be a number >= 0"},
		{[]string{"show", ctls[0], ctls[1]}, "usage: ringmaster show CONTROL.toml [flags]"},
		{[]string{"ratings", ctls[0], "--json", "--csv"}, "give one output format: --json or --csv"},
		{[]string{"ratings", ctls[0], "--json", "--format", "csv"}, "give one output format"},
	} {
		if code, _, errs := runMain(t, tc.args...); code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %s; want %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
	code, stdout, errs := runMain(t, append([]string{"ratings", "--prior", "1", "--anchor", "a=1500", "--json"}, ctls...)...)
	var js struct {
		Games   int `json:"games"`
		Merged  []struct{ Player string }
		Players []struct {
			Player string  `json:"player"`
			Rating float64 `json:"rating"`
		} `json:"players"`
	}
	if code != exitOK || json.Unmarshal([]byte(stdout), &js) != nil || js.Games != 12 || len(js.Players) != 2 || len(js.Merged) != 2 {
		t.Fatalf("ratings --json: exit %d, %+v\n%s\n%s", code, js, stdout, errs)
	}
	for _, p := range js.Players {
		if p.Player == "a" && p.Rating != 1500 {
			t.Errorf("anchored a: %+v", p)
		}
	}
	if code, stdout, _ := runMain(t, "ratings", ctls[0], "--prior", "1", "--csv"); code != exitOK || !strings.HasPrefix(stdout, "rank,player,rating") {
		t.Errorf("csv: exit %d\n%s", code, stdout)
	}
	// The deprecated --format still works, with a notice on stderr.
	if code, stdout, errs := runMain(t, "ratings", ctls[0], "--prior", "1", "--format", "csv"); code != exitOK || !strings.HasPrefix(stdout, "rank,player,rating") || !strings.Contains(errs, "--format has been deprecated") {
		t.Errorf("--format csv: exit %d\n%s\n%s", code, stdout, errs)
	}
	// report --json prints what show --json prints.
	_, shown, _ := runMain(t, "show", ctls[0], "--json")
	if code, reported, errs := runMain(t, "report", ctls[0], "--json"); code != exitOK || reported != shown || !strings.HasPrefix(reported, "{") {
		t.Errorf("report --json: exit %d, %q (stderr %q); want show --json's %q", code, reported, errs, shown)
	}
}
