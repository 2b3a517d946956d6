package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const quickControl = `competition_type = "playoff"
game = "backgammon"
number_of_games = 2
cube = false

[players.a]
kind = "builtin"
args = ["--level", "random"]

[players.b]
kind = "builtin"
args = ["--level", "random", "--seed", "2"]

[[matchups]]
players = ["a", "b"]
`

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out, errs strings.Builder
	code = run(context.Background(), args, devnull, &out, &errs)
	return code, out.String(), errs.String()
}

// TestFlagsPerCommand: one flag set for every command used to accept
// 'run --json' and 'show -j 4' silently; each command now has its own.
func TestFlagsPerCommand(t *testing.T) {
	dir := t.TempDir()
	ctl := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(ctl, []byte(quickControl), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", ctl, "--json"}, exitUsage, "unknown flag: --json"},
		{[]string{"show", ctl, "-j", "4"}, exitUsage, "unknown shorthand flag: 'j'"},
		{[]string{"run", ctl, "-g", "-5"}, exitUsage, "--max-games must be 0 or more"},
		{[]string{"run", ctl, "-j", "0"}, exitUsage, "--parallel must be between 1 and 1024"},
		{[]string{"run", ctl, "-j", "99999999999"}, exitUsage, "--parallel must be between 1 and 1024"},
		{[]string{"frobnicate", ctl}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"run", ctl, "--bogus"}, exitUsage, "ringmaster: run: unknown flag: --bogus\n\nusage: ringmaster run CONTROL.toml [flags]\n"},
		{[]string{"run", ctl, ctl}, exitUsage, "ringmaster: run: want 1 argument, got 2\n\nusage: ringmaster run CONTROL.toml [flags]"},
		{[]string{"run"}, exitUsage, "usage: ringmaster run CONTROL.toml"},
		{[]string{"show", ctl}, exitError, "no status file"},
		{[]string{"run", ctl, "-q"}, exitOK, ""},
		{[]string{"show", ctl, "--json"}, exitOK, ""},
		{[]string{"run", "--help"}, exitOK, ""},
		{[]string{"pool", ctl}, exitUsage, "usage: ringmaster pool A.toml B.toml [C.toml ...]"},
		{[]string{"compare", ctl, ctl, ctl}, exitUsage, "usage: ringmaster compare A.toml B.toml [flags]"},
		{[]string{"pool", ctl, ctl, "--json"}, exitError, "c.toml given twice"},
	} {
		code, _, errs := runMain(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("ringmaster %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.want)
		}
	}
	// Help goes to stdout, the command's description first.
	for _, args := range [][]string{{"run", "--help"}, {"help", "run"}} {
		code, out, errs := runMain(t, args...)
		if code != exitOK || !strings.HasPrefix(out, "Play the competition") || !strings.Contains(out, "usage: ringmaster run CONTROL.toml [flags]") || !strings.Contains(out, "--max-games") || errs != "" {
			t.Errorf("ringmaster %q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

// TestIncompleteRunFails: a run that leaves games unplayed after repeated
// void attempts used to exit 0.
func TestIncompleteRunFails(t *testing.T) {
	dir := t.TempDir()
	ctl := filepath.Join(dir, "void.toml")
	// An engine that passes the startup check, then never starts again:
	// every attempt at every game is void, and no player is to blame for
	// it (an engine that fails during a game forfeits the game it voided
	// before, so it cannot leave games unplayed).
	script := filepath.Join(dir, "quitter.sh")
	if err := os.WriteFile(script, []byte(`#!/bin/sh
if [ -e "$0.started" ]; then exit 3; fi
touch "$0.started"
while read -r cmd rest; do
	case $cmd in
	protocol_version) printf '= 2\n\n' ;;
	name) printf '= quitter\n\n' ;;
	version) printf '= 1\n\n' ;;
	set_game) printf '=\n\n' ;;
	quit) printf '=\n\n'; exit 0 ;;
	*) exit 3 ;;
	esac
done
`), 0o755); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(quickControl, "[players.b]\nkind = \"builtin\"\nargs = [\"--level\", \"random\", \"--seed\", \"2\"]",
		"[players.b]\ncommand = [\""+script+"\"]", 1)
	if err := os.WriteFile(ctl, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runMain(t, "run", ctl, "-q")
	if code != exitError || !strings.Contains(errs, "left unplayed after repeated void attempts") {
		t.Errorf("a run with every game void: exit %d, stderr %q", code, errs)
	}
}
