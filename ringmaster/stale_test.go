package ringmaster

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/player"
)

// CODE.engines lists the engines launched and not closed, from the
// journal a run appends to, from the one JSON array older runs wrote, and
// past a line cut short.
func TestRunningEngines(t *testing.T) {
	a := `{"pgid":10,"start":5,"boot":"b","token":"ta"}`
	b := `{"pgid":11,"start":6,"boot":"b","token":"tb","cgroup":"/sys/fs/cgroup/gamemill-engine-tb"}`
	c := `{"pgid":12,"start":7,"boot":"b","token":"tc"}`
	recA := player.Record{PGID: 10, Start: 5, Boot: "b", Token: "ta"}
	recC := player.Record{PGID: 12, Start: 7, Boot: "b", Token: "tc"}
	tests := []struct {
		name, data string
		want       []player.Record
	}{
		{"journal", strings.Join([]string{a, b, `{"pgid":11,"token":"tb","closed":true}`, c}, "\n") + "\n", []player.Record{recA, recC}},
		{"all closed", a + "\n" + `{"pgid":10,"token":"ta","closed":true}` + "\n", nil},
		{"cut short", a + "\n" + c + "\n" + `{"pgid":13,"sta`, []player.Record{recA, recC}},
		{"array", "[" + a + "," + c + "]", []player.Record{recA, recC}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		got, err := runningEngines([]byte(tc.data))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	if _, err := runningEngines([]byte("[{")); err == nil {
		t.Error("a damaged array was read")
	}
}

// The registry's file lists what runs and goes when nothing does.
func TestEngineRegistryJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.engines")
	r := &engineRegistry{path: path}
	r.mu.Lock()
	r.running = map[string]bool{"ta": true, "tb": true}
	r.appendLocked(journalLine{Record: player.Record{PGID: 10, Token: "ta"}})
	r.appendLocked(journalLine{Record: player.Record{PGID: 11, Token: "tb"}})
	r.appendLocked(journalLine{Record: player.Record{PGID: 10, Token: "ta"}, Closed: true})
	r.mu.Unlock()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runningEngines(data)
	if err != nil || len(got) != 1 || got[0].Token != "tb" {
		t.Fatalf("running %+v, %v; want tb alone", got, err)
	}
	r.mu.Lock()
	r.removeLocked()
	r.mu.Unlock()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("journal left after the last engine closed: %v", err)
	}
}

func FuzzRunningEngines(f *testing.F) {
	f.Add([]byte(`{"pgid":10,"start":5,"boot":"b","token":"ta"}` + "\n" + `{"pgid":10,"token":"ta","closed":true}` + "\n"))
	f.Add([]byte(`[{"pgid":10,"token":"ta"}]`))
	f.Add([]byte("{\n\n}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		records, err := runningEngines(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, r := range records {
			if r.Token != "" && seen[r.Token] && !strings.HasPrefix(strings.TrimSpace(string(data)), "[") {
				t.Fatalf("token %q listed twice", r.Token)
			}
			seen[r.Token] = true
		}
	})
}
