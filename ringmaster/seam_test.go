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
// and compares every result with what the version 1 ringmaster itself got
// when it finished the same database: no result lost or changed, and the
// 50 new games the same games.
func TestV1DatabaseResumes(t *testing.T) {
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
	var got []string
	for _, r := range readResults(t, rm.DBPath()) {
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%d|%d|%s|%s", r.gameID, r.matchup, r.a, r.b, r.winner, r.pa, r.pb, r.result, r.detail))
	}
	want, err := os.ReadFile(filepath.Join("testdata", "v1", "v1quick.expected"))
	if err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
	if len(got) != len(wantLines) {
		t.Fatalf("%d results after the resumed run, want %d", len(got), len(wantLines))
	}
	for i := range got {
		if got[i] != wantLines[i] {
			t.Errorf("result %d:\n got %s\nwant %s", i, got[i], wantLines[i])
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
