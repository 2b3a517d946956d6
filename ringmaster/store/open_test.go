package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A directory where the database cannot be created used to be reported as
// "not a Gamemill competition database". The reason is now given: a path
// under a regular file fails for root too.
func TestOpenSaysWhyItCannotCreate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), filepath.Join(file, "comp.db"))
	want := "cannot create the database in " + file + ": not a directory"
	if err == nil || errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), want) {
		t.Errorf("database under a regular file: %v\nwant it to say %q", err, want)
	}
}

func TestOpenSaysReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, where directory permissions do not stop a write; TestOpenSaysWhyItCannotCreate covers the message")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	_, err := Open(context.Background(), filepath.Join(dir, "comp.db"))
	want := "cannot create the database in " + dir + ": permission denied"
	if err == nil || errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), want) {
		t.Errorf("read-only directory: %v\nwant it to say %q", err, want)
	}
	// A database made before its directory became read-only.
	first, path := openTemp(t)
	first.Close() // checkpoints and removes the -wal and -shm files
	if err := os.Chmod(filepath.Dir(path), 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Dir(path), 0o755) })
	s, err := Open(context.Background(), path)
	if err == nil {
		s.Close()
		t.Errorf("opened a database in a read-only directory")
		return
	}
	if errors.Is(err, ErrNotOurs) || errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("database in a read-only directory: %v\nwant it to say permission denied", err)
	}
	t.Log(err)
}

// damagedDatabase writes a competition database with 400 games, then
// damages the page at the root of the named index, and returns the path.
func damagedDatabase(t *testing.T, index string) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "comp.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		if err := s.MarkRunning(ctx, GameStart{GameID: fmt.Sprintf("m%d_%03d", i%7, i), MatchupID: fmt.Sprintf("m%d", i%7),
			Number: i, PlayerA: "a", PlayerB: "b", RunID: 1}); err != nil {
			t.Fatal(err)
		}
	}
	var root, pageSize int
	if err := s.db.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", index).Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	s.Close() // checkpoints the WAL into the file
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := data[(root-1)*pageSize : root*pageSize]
	for i := 8; i < len(page); i++ {
		page[i] = 0xff
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A database with a damaged index was used without notice; the damage
// is now found at open, reported with how to recover, and the file left
// as it was.
func TestOpenRefusesDamagedDatabase(t *testing.T) {
	path := damagedDatabase(t, "games_matchup")
	before, _ := os.ReadFile(path)
	s, err := Open(context.Background(), path)
	if err == nil {
		s.Close()
		t.Fatal("a database with a damaged index was opened")
	}
	if !errors.Is(err, ErrDamaged) || errors.Is(err, ErrNotOurs) ||
		!strings.Contains(err.Error(), "quick_check") || !strings.Contains(err.Error(), "sqlite3 "+path+" .recover") {
		t.Errorf("damaged index: %v\nwant ErrDamaged, the quick_check's finding and how to recover", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the damaged file was changed")
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	// A damaged first page (the schema) is reported the same way, not as
	// a file that is not ours.
	data := slicesClone(before)
	for i := 100; i < 4096; i++ {
		data[i] = 0xee
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(context.Background(), path); err == nil {
		s.Close()
		t.Error("a database with a damaged schema page was opened")
	} else if !errors.Is(err, ErrDamaged) {
		t.Errorf("damaged schema page: %v, want ErrDamaged", err)
	}
}

func slicesClone(b []byte) []byte { return append([]byte(nil), b...) }

// The review's case: rows missing from an index (integrity_check's "row N
// missing from index"), made by hiding the index while rows are added.
func TestOpenRefusesIndexMissingRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "comp.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRunning(ctx, GameStart{GameID: "m_0", MatchupID: "m", PlayerA: "a", PlayerB: "b", RunID: 1}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	var text string
	var root int
	for _, step := range []func() error{
		func() error { _, err := raw.Exec("PRAGMA writable_schema = ON"); return err },
		func() error {
			return raw.QueryRow("SELECT sql, rootpage FROM sqlite_schema WHERE name = 'games_matchup'").Scan(&text, &root)
		},
		func() error { _, err := raw.Exec("DELETE FROM sqlite_schema WHERE name = 'games_matchup'"); return err },
		func() error { return raw.Close() },
		func() error { raw, err = sql.Open("sqlite", path); raw.SetMaxOpenConns(1); return err },
		func() error {
			_, err := raw.Exec(`INSERT INTO games(game_id, matchup_id, number, player_a, player_b, status, run_id, started_at)
				VALUES('m_1', 'm', 1, 'a', 'b', 'running', 1, 'now')`)
			return err
		},
		func() error { _, err := raw.Exec("PRAGMA writable_schema = ON"); return err },
		func() error {
			_, err := raw.Exec("INSERT INTO sqlite_schema(type, name, tbl_name, rootpage, sql) VALUES('index', 'games_matchup', 'games', ?, ?)", root, text)
			return err
		},
		func() error { return raw.Close() },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	s, err = Open(ctx, path)
	if err == nil {
		s.Close()
		t.Fatal("a database whose index misses a row was opened")
	}
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "games_matchup") {
		t.Errorf("index missing a row: %v\nwant ErrDamaged naming the index", err)
	}
	t.Log(err)
}
