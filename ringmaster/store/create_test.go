package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// createLoopEnv makes the test binary a child that creates databases
// new-0.db, new-1.db, ... in the named directory until it is killed.
const createLoopEnv = "GAMEMILL_STORE_CREATE_LOOP"

func TestMain(m *testing.M) {
	if dir := os.Getenv(createLoopEnv); dir != "" {
		for i := 0; ; i++ {
			s, err := Open(context.Background(), filepath.Join(dir, fmt.Sprintf("new-%d.db", i)))
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			s.Close()
		}
	}
	os.Exit(m.Run())
}

// A process killed while it creates a database must leave no empty or
// half-made CODE.db behind, which every later open would refuse as not
// ours, so that a run killed in its first moments can be resumed. A
// child creating databases one after another is killed with SIGKILL
// twenty times; every database left at its path must open, at the
// current version.
func TestKilledCreationLeavesNoHalfDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("kills twenty child processes")
	}
	dir := t.TempDir()
	for kill := range 20 {
		sub := filepath.Join(dir, fmt.Sprint(kill))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), createLoopEnv+"="+sub)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once it has made at least one database, at a moment
		// that moves through the creation of the next.
		for {
			if _, err := os.Stat(filepath.Join(sub, "new-0.db")); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Duration(kill) * 300 * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()
		if stderr.Len() > 0 {
			t.Fatalf("the child failed: %s", stderr.String())
		}
		entries, err := os.ReadDir(sub)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".db") {
				continue
			}
			s, err := Open(context.Background(), filepath.Join(sub, e.Name()))
			if err != nil {
				t.Fatalf("after kill %d: %v", kill, err)
			}
			var version int
			s.db.QueryRow("PRAGMA user_version").Scan(&version)
			s.Close()
			if version != SchemaVersion {
				t.Fatalf("after kill %d: %s at version %d, want %d", kill, e.Name(), version, SchemaVersion)
			}
		}
	}
}
