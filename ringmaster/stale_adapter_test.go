package ringmaster

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gamemill/gamemill/player"
)

// recordedAdapter is a player that runs a subprocess of its own behind
// another face than player.Process (as an agent does) and gives its
// Record.
type recordedAdapter struct{ rec player.Record }

func (recordedAdapter) Do(context.Context, string, ...string) (string, error) { return "", nil }
func (recordedAdapter) Close() error                                          { return nil }
func (recordedAdapter) CPUTime() time.Duration                                { return 0 }
func (a recordedAdapter) Record() player.Record                               { return a.rec }

// An adapter that gives its process's Record is listed while it runs, so
// that the next run stops what it leaves if this one is killed, and taken
// off the list when it is closed.
func TestEngineRegistryListsAdapters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.engines")
	r := &engineRegistry{path: path}
	rec := player.Record{PGID: 4242, Start: 7, Boot: "b", Token: "agent-token"}
	p := r.track(recordedAdapter{rec: rec})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the adapter was not listed: %v", err)
	}
	if got, err := runningEngines(data); err != nil || len(got) != 1 || got[0] != rec {
		t.Fatalf("running %+v, %v; want %+v", got, err, rec)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("list left after the adapter closed: %v", err)
	}
}
