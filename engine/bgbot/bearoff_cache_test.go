package bgbot

import (
	"os"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// TestCachedBearoff checks the cache's life: the first call builds and
// writes the file, the next reads it back unchanged, and a damaged or
// wrong-sized file is reported, built again and replaced.
func TestCachedBearoff(t *testing.T) {
	dir := t.TempDir() + "/cache" // not there yet: the first call makes it
	var warnings []error
	warn := func(err error) { warnings = append(warnings, err) }
	built, err := CachedBearoff(dir, 6, warn)
	if err != nil {
		t.Fatal(err)
	}
	path := BearoffCacheFile(dir, 6)
	first, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no cache file after the first call: %v", err)
	}
	read, err := CachedBearoff(dir, 6, warn)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Fatalf("warnings on a fresh cache: %v", warnings)
	}
	if again, _ := os.Stat(path); !again.ModTime().Equal(first.ModTime()) {
		t.Error("the second call wrote the cache again instead of reading it")
	}
	var b backgammon.Board
	b[backgammon.OnRoll][0], b[backgammon.OnRoll][4] = 2, 2
	b[backgammon.Opponent][2], b[backgammon.Opponent][5] = 1, 3
	pb, okb := built.Probs(&b)
	pr, okr := read.Probs(&b)
	if !okb || !okr || pb != pr {
		t.Fatalf("read back %v (%v), built %v (%v)", pr, okr, pb, okb)
	}

	// A damaged file: warned about, rebuilt, replaced with a good one.
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := CachedBearoff(dir, 6, warn)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := again.Probs(&b); p != pb {
		t.Errorf("after a damaged cache: %v, want %v", p, pb)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), path) {
		t.Errorf("warnings after a damaged cache: %v, want one naming %s", warnings, path)
	}
	if _, err := ReadBearoffFile(path); err != nil {
		t.Errorf("the damaged cache was not replaced: %v", err)
	}

	// A file of another size under the name: replaced too.
	small, err := NewBearoff(3)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeBearoffCache(dir, path, small); err != nil {
		t.Fatal(err)
	}
	if db, err := CachedBearoff(dir, 6, nil); err != nil || db.Checkers != 6 {
		t.Fatalf("wrong-sized cache: %v, %v", db, err)
	}
	if db, err := ReadBearoffFile(path); err != nil || db.Checkers != 6 {
		t.Errorf("wrong-sized cache not replaced: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("cache directory holds %d entries, want the one file (temporary files left behind?)", len(entries))
	}

	// No directory: built, nothing written, no warning.
	if db, err := CachedBearoff("", 4, warn); err != nil || db.Checkers != 4 {
		t.Errorf("without a cache: %v, %v", db, err)
	}
	if len(warnings) != 1 {
		t.Errorf("warnings: %v", warnings)
	}
}

// TestCachedBearoffUnwritable: a cache that cannot be written still gives
// the database, with a warning.
func TestCachedBearoffUnwritable(t *testing.T) {
	file := t.TempDir() + "/file"
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var warned error
	db, err := CachedBearoff(file+"/sub", 4, func(err error) { warned = err })
	if err != nil || db == nil || db.Checkers != 4 {
		t.Fatalf("got %v, %v", db, err)
	}
	if warned == nil {
		t.Error("no warning for a cache directory under a plain file")
	}
}
