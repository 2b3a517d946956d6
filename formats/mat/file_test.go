package mat_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record/recordtest"
)

// WriteFile creates the folders on the way, writes what Write writes and
// replaces an older file; a record that cannot be written leaves the
// older file as it was and no temporary file beside it.
func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records", "2026", "match.mat")
	m := recordtest.Replayed(t, recordtest.Load(t, mat.Read, "testdata/gnubg-3pt-match.mat"))
	if err := mat.WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := recordtest.Replayed(t, recordtest.Load(t, mat.Read, path))
	if !reflect.DeepEqual(got.Games, m.Games) || got.Players != m.Players {
		t.Errorf("read back %+v\nwant %+v", got, m)
	}

	other := recordtest.Replayed(t, recordtest.Load(t, mat.Read, "testdata/gnubg-7pt-cube.mat"))
	if err := mat.WriteFile(path, other); err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(second) == string(first) {
		t.Error("the older file was not replaced")
	}

	// gnubg's beaver file does not replay, so Write fails partway.
	broken := recordtest.Load(t, mat.Read, "testdata/gnubg-money-beaver.mat")
	if err := mat.WriteFile(path, broken); err == nil {
		t.Fatal("a record that does not replay: no error")
	}
	if after, err := os.ReadFile(path); err != nil || string(after) != string(second) {
		t.Errorf("after a failed write the file is %d bytes (%v), want the %d before", len(after), err, len(second))
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want the record alone", len(entries))
	}

	blocked := filepath.Join(path, "below-a-file.mat")
	if err := mat.WriteFile(blocked, m); err == nil {
		t.Error("a folder that cannot be made: no error")
	}
}
