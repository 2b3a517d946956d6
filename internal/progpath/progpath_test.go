package progpath

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "gm-progpath-test")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got, err := Find("gm-progpath-test"); err != nil || got != prog {
		t.Errorf("Find on PATH = %q, %v", got, err)
	}
	if got, err := Find("./relative/prog"); err != nil || got != "./relative/prog" {
		t.Errorf("a path is kept: %q, %v", got, err)
	}
	if _, err := Find("gm-no-such-program"); err == nil || !strings.Contains(err.Error(), GamesDir) {
		t.Errorf("missing program: %v", err)
	}
	if _, err := Find(""); err == nil {
		t.Error("empty name accepted")
	}
	// Debian's games directory is searched after PATH, which here holds
	// only dir: a peer installed there is still found.
	for _, peer := range []string{"gnubg", "gnugo"} {
		want := filepath.Join(GamesDir, peer)
		if _, err := os.Stat(want); err != nil {
			continue
		}
		if got, err := Find(peer); err != nil || got != want {
			t.Errorf("Find(%s) = %q, %v; want %s", peer, got, err, want)
		}
	}
}
