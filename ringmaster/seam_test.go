package ringmaster_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// TestV1DatabaseResumes takes a competition database written by schema
// version 1 (40 of 90 games played; testdata/v1/README.md says how it was
// made), lets today's ringmaster migrate it and finish the competition,
// twice from two copies. The 40 results v1 recorded come out unchanged
// (compared with v1quick.expected, what the v1 ringmaster itself got when
// it finished the same file), the 50 new games are each recorded once, and
// the two resumed runs agree game by game. (The new games are compared with
// each other, not with v1's: bgbot's play may have changed since.)
func TestV1DatabaseResumes(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "v1", "v1quick.expected"))
	if err != nil {
		t.Fatal(err)
	}
	v1 := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		v1[strings.SplitN(line, "|", 2)[0]] = line
	}
	var runs [2][]string
	for i := range runs {
		dir := t.TempDir()
		for _, f := range []string{"v1quick.toml", "v1quick.db"} {
			data, err := os.ReadFile(filepath.Join("testdata", "v1", f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before := readResults(t, filepath.Join(dir, "v1quick.db"))
		if len(before) != 40 {
			t.Fatalf("the v1 database holds %d results, want 40", len(before))
		}
		rm, err := ringmaster.New(filepath.Join(dir, "v1quick.toml"), games.All()...)
		if err != nil {
			t.Fatal(err)
		}
		status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: io.Discard})
		if err != nil || status != ringmaster.Finished {
			t.Fatalf("run: %v %v", status, err)
		}
		old := map[string]bool{}
		for _, r := range before {
			old[r.gameID] = true
		}
		for _, r := range readResults(t, rm.DBPath()) {
			line := fmt.Sprintf("%s|%s|%s|%s|%s|%d|%d|%s|%s", r.gameID, r.matchup, r.a, r.b, r.winner, r.pa, r.pb, r.result, r.detail)
			if old[r.gameID] && line != v1[r.gameID] {
				t.Errorf("a v1 result changed:\n got %s\nwant %s", line, v1[r.gameID])
			}
			runs[i] = append(runs[i], line)
		}
		if len(runs[i]) != len(v1) {
			t.Fatalf("%d results after the resumed run, want %d", len(runs[i]), len(v1))
		}
	}
	for i := range runs[0] {
		if runs[0][i] != runs[1][i] {
			t.Errorf("the two resumed runs differ:\n%s\n%s", runs[0][i], runs[1][i])
		}
	}
}

// TestGenericPackagesImportNoGame keeps the game seam honest: the generic
// ringmaster packages import no game's rules, formats, engines or
// protocol command set; only ringmaster/games/... do.
func TestGenericPackagesImportNoGame(t *testing.T) {
	generic := []string{"./", "./control", "./referee", "./store", "../competitions"}
	forbidden := []string{"/engine/", "/formats/", "/player/gnubg", "/protocol/bg", "/ringmaster/games"}
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, generic...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list gave too few packages: %v", deps)
	}
	for _, d := range deps {
		if !strings.HasPrefix(d, "github.com/gamemill/gamemill/") {
			continue
		}
		for _, f := range forbidden {
			if strings.Contains(d, f) {
				t.Errorf("a generic ringmaster package depends on %s", d)
			}
		}
	}
}
