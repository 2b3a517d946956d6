// Package rmtest holds what the ringmaster's competition tests share:
// control-file tables of built-in bgbot players, and running a
// competition and reading its JSON report as a user would.
package rmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// botArgs are the arguments of the built-in players Bots knows besides
// randN: deterministic, and fast enough for many games.
var botArgs = map[string][]string{
	"net":       {"--level", "net"},
	"heuristic": {"--level", "heuristic"},
	"noisy":     {"--level", "net", "--noise", "0.3", "--seed", "3"},
}

// Bots returns [players.CODE] tables of built-in bgbot players for a
// backgammon control file: "net" (the network), "heuristic", "noisy" (the
// network with noise 0.3, seed 3) and "randN" (random moves, seed N). An
// unknown code fails t.
func Bots(t testing.TB, codes ...string) string {
	t.Helper()
	var b strings.Builder
	for _, code := range codes {
		args, ok := botArgs[code]
		if n, isRand := strings.CutPrefix(code, "rand"); isRand {
			if _, err := strconv.Atoi(n); err == nil {
				args, ok = []string{"--level", "random", "--seed", n}, true
			}
		}
		if !ok {
			t.Fatalf("rmtest.Bots: no built-in player %q", code)
		}
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = strconv.Quote(a)
		}
		fmt.Fprintf(&b, "[players.%s]\nkind = \"builtin\"\nargs = [%s]\n", code, strings.Join(quoted, ", "))
	}
	return b.String()
}

// Load makes a ringmaster of the control file at path with every game.
func Load(t testing.TB, path string) *ringmaster.Ringmaster {
	t.Helper()
	rm, err := ringmaster.New(path, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	return rm
}

// Run runs the competition at path once for each entry of maxGames (at
// most that many games; -1 to the end), each time afresh as a user's
// `ringmaster run` would, with parallel games at once. It fails t on a
// run's error and returns the last run's status and what the runs
// warned of.
func Run(t testing.TB, path string, parallel int, maxGames ...int) (ringmaster.RunStatus, string) {
	t.Helper()
	var status ringmaster.RunStatus
	var warned strings.Builder
	for _, n := range maxGames {
		var display, errs strings.Builder
		var err error
		status, err = Load(t, path).Run(context.Background(), ringmaster.RunOptions{Parallel: parallel, MaxGames: n, Quiet: true,
			Display: &display, Errors: &errs})
		if err != nil {
			t.Fatalf("run (max games %d): %v\n%s", n, err, errs.String())
		}
		if errs.Len() > 0 {
			fmt.Fprintf(&warned, "run (max games %d) warned:\n%s", n, errs.String())
		}
	}
	return status, warned.String()
}

// ShowJSON decodes the competition's `show --json` report into v.
func ShowJSON(t testing.TB, path string, v any) {
	t.Helper()
	var js strings.Builder
	if err := Load(t, path).ShowJSON(context.Background(), &js); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(js.String()), v); err != nil {
		t.Fatalf("show --json: %v\n%s", err, js.String())
	}
}
