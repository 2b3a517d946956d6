// Package mattest holds the test helpers that check a .mat file against
// GNU Backgammon itself.
package mattest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/record/recordtest"
	"github.com/gamemill/gamemill/internal/peertest"
)

// GnubgReexport has gnubg import the .mat file path and export it again,
// and returns gnubg's export, replayed. settings are gnubg commands run
// before the import (e.g. "set jacoby off"). The test fails when gnubg
// writes nothing; without gnubg it is skipped (or fails under
// GAMEMILL_REQUIRE_PEERS=1).
func GnubgReexport(t testing.TB, path string, settings ...string) *record.Match {
	t.Helper()
	peertest.Gnubg(t)
	back := filepath.Join(t.TempDir(), "back.mat")
	script := "set display off\n"
	for _, s := range settings {
		script += s + "\n"
	}
	script += "import mat " + path + "\nexport match mat " + back + "\n"
	out := peertest.RunGnubg(t, script)
	if _, err := os.Stat(back); err != nil {
		t.Fatalf("gnubg exported nothing: %v\n%s", err, out)
	}
	return recordtest.Replayed(t, recordtest.Load(t, mat.Read, back))
}
