package store

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "comp.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestGameLifecycleSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	run, err := s.StartRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"0_0", "0_1", "0_2"} {
		if err := s.MarkRunning(ctx, GameStart{GameID: id, MatchupID: "0", PlayerA: "a", PlayerB: "b", RunID: run}); err != nil {
			t.Fatal(err)
		}
	}
	res := GameResult{GameID: "0_1", Winner: "a", Result: "gammon", Ending: EndNormal, Detail: "a won a gammon",
		A: Side{Points: 2, CPU: 1500 * time.Millisecond, Decisions: 30}, B: Side{Points: -2},
		Stats:   map[string][2]int{"doubles": {1, 0}, "takes": {0, 1}},
		Records: map[string]string{"mat": "mat text", "sgf": "(;GM[6])"}}
	if err := s.Finish(ctx, res); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, res); err == nil {
		t.Error("a game finished twice was accepted")
	}
	if err := s.MarkRunning(ctx, GameStart{GameID: "0_1", MatchupID: "0", PlayerA: "a", PlayerB: "b", RunID: run}); err == nil {
		t.Error("a finished game was marked running again")
	}
	s.Close()

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	finished, running, err := s.GameIDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(finished, ",") != "0_1" || strings.Join(running, ",") != "0_0,0_2" {
		t.Errorf("after reopen: finished %v running %v", finished, running)
	}
	results, err := s.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Winner != "a" || results[0].A.Points != 2 || results[0].B.Points != -2 ||
		results[0].A.CPU != 1500*time.Millisecond || results[0].Stats["doubles"] != [2]int{1, 0} ||
		results[0].Stats["takes"] != [2]int{0, 1} || results[0].Ending != EndNormal {
		t.Errorf("results after reopen: %+v", results)
	}
	var winner, result string
	var pa, pb int
	if err := s.db.QueryRow("SELECT winner, points_a, points_b, result FROM game_results WHERE game_id = '0_1'").Scan(&winner, &pa, &pb, &result); err != nil {
		t.Fatal(err)
	}
	if winner != "a" || pa != 2 || pb != -2 || result != "gammon" {
		t.Errorf("game_results view: %s %d %d %s", winner, pa, pb, result)
	}
	recs, err := s.Records(ctx, "0_1")
	if err != nil || recs["mat"] != "mat text" || recs["sgf"] != "(;GM[6])" || len(recs) != 2 {
		t.Errorf("records: %q %v", recs, err)
	}
	var mode string
	s.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal mode %q, want wal", mode)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("opening a newer schema: %v", err)
	}
}

// copyFile copies a committed database so that a test never changes it.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// openMigrated copies the committed database fixture (under ../testdata),
// checks that it is at schema version from, and opens it, which migrates
// it to the current version.
func openMigrated(t *testing.T, fixture string, from int) *Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), filepath.Base(fixture))
	copyFile(t, filepath.Join("..", "testdata", fixture), path)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var version int
	raw.QueryRow("PRAGMA user_version").Scan(&version)
	raw.Close()
	if version != from {
		t.Fatalf("the fixture is at version %d, want %d", version, from)
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.db.QueryRow("PRAGMA user_version").Scan(&version)
	if version != SchemaVersion {
		t.Errorf("user_version %d after migration, want %d", version, SchemaVersion)
	}
	return s
}

// winnersOf lists results as "ID:WINNER ", in order.
func winnersOf(results []GameResult) string {
	w := ""
	for _, r := range results {
		w += r.GameID + ":" + r.Winner + " "
	}
	return w
}

// v1Row is what version 1 kept of a finished game, read with version 1's
// own columns.
type v1Row struct {
	id, winner, result, detail, mat, sgf             string
	pa, pb, level, scoreA, scoreB, games, moves      int
	doublesA, takesB, dropsB, gammonsA, backgammonsB int
	cpuA, cpuB                                       float64
}

// TestMigrateV1 opens a database written by schema version 1 (made by the
// ringmaster before the game seam; see ../testdata/v1/README.md) and checks
// that every figure it held is found after the migration, in the view, the
// games table, game_stats or records.
func TestMigrateV1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	copyFile(t, filepath.Join("..", "testdata", "v1", "v1quick.db"), path)

	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var before []v1Row
	rows, err := raw.Query(`SELECT game_id, COALESCE(winner, ''), result, detail, record_mat, record_sgf, points_a, points_b,
		level, score_a, score_b, games_played, moves, doubles_a, takes_b, drops_b, gammons_a, backgammons_b, cpu_a, cpu_b
		FROM games WHERE status = 'done' ORDER BY game_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r v1Row
		if err := rows.Scan(&r.id, &r.winner, &r.result, &r.detail, &r.mat, &r.sgf, &r.pa, &r.pb, &r.level, &r.scoreA, &r.scoreB,
			&r.games, &r.moves, &r.doublesA, &r.takesB, &r.dropsB, &r.gammonsA, &r.backgammonsB, &r.cpuA, &r.cpuB); err != nil {
			t.Fatal(err)
		}
		before = append(before, r)
	}
	rows.Close()
	raw.Close()
	if len(before) != 40 {
		t.Fatalf("the v1 file holds %d finished games, want 40", len(before))
	}

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var version int
	s.db.QueryRow("PRAGMA user_version").Scan(&version)
	if version != SchemaVersion {
		t.Errorf("user_version %d after migration, want %d", version, SchemaVersion)
	}
	results, err := s.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]GameResult{}
	for _, r := range results {
		byID[r.GameID] = r
	}
	if len(byID) != len(before) {
		t.Fatalf("%d results after migration, want %d", len(byID), len(before))
	}
	for _, b := range before {
		r := byID[b.id]
		wantEnding := EndNormal
		switch b.result {
		case "forfeit":
			wantEnding = EndForfeit
		case "unknown":
			wantEnding = EndMoveLimit
		}
		if r.Winner != b.winner || r.Result != b.result || r.Detail != b.detail || r.A.Points != float64(b.pa) || r.B.Points != float64(b.pb) ||
			r.Moves != b.moves || r.Ending != wantEnding || math.Abs(r.A.CPU.Seconds()-b.cpuA) > 1e-6 || math.Abs(r.B.CPU.Seconds()-b.cpuB) > 1e-6 {
			t.Errorf("game %s: core fields changed: %+v, v1 %+v", b.id, r, b)
		}
		want := map[string][2]int{"level": {b.level, b.level}, "score": {b.scoreA, b.scoreB}, "games": {b.games, b.games}}
		for name, v := range want {
			if r.Stats[name] != v {
				t.Errorf("game %s: statistic %s = %v, want %v", b.id, name, r.Stats[name], v)
			}
		}
		if r.Stats["doubles"][0] != b.doublesA || r.Stats["takes"][1] != b.takesB || r.Stats["drops"][1] != b.dropsB ||
			r.Stats["gammons"][0] != b.gammonsA || r.Stats["backgammons"][1] != b.backgammonsB {
			t.Errorf("game %s: cube or gammon statistics changed: %v", b.id, r.Stats)
		}
		recs, err := s.Records(ctx, b.id)
		if err != nil || recs["mat"] != b.mat || recs["sgf"] != b.sgf {
			t.Errorf("game %s: records changed (%v)", b.id, err)
		}
	}
	var viewRows int
	s.db.QueryRow("SELECT COUNT(*) FROM game_results").Scan(&viewRows)
	if viewRows != len(before) {
		t.Errorf("game_results has %d rows, want %d", viewRows, len(before))
	}
}

func TestRefusesFilesNotOurs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES('keep me')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	text := filepath.Join(dir, "text.db")
	if err := os.WriteFile(text, []byte("competition_type = \"playoff\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{empty, other, text} {
		s, err := Open(ctx, p)
		if err == nil {
			s.Close()
			t.Errorf("%s: opened as a competition database", filepath.Base(p))
			continue
		}
		if p != text && !errors.Is(err, ErrNotOurs) {
			t.Errorf("%s: %v, want ErrNotOurs", filepath.Base(p), err)
		}
	}
	if data, _ := os.ReadFile(text); !strings.HasPrefix(string(data), "competition_type") {
		t.Error("the text file was changed")
	}
}

// A void attempt keeps the player it is blamed on (schema version 4), so
// that a later run knows a second void by the same player is its forfeit.
func TestVoidBlame(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	for _, v := range []struct{ game, player string }{{"m_0", "x"}, {"m_0", ""}, {"m_1", "y"}, {"m_0", "x"}} {
		if err := s.Void(ctx, v.game, 1, v.player, "void: player "+v.player, ""); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	by, err := s.VoidedBy(ctx, "m_0")
	if err != nil || len(by) != 1 || by["x"] != 2 {
		t.Errorf("VoidedBy(m_0) = %v, %v; want x: 2", by, err)
	}
	voids, err := s.Voids(ctx)
	if err != nil || len(voids) != 4 || voids[1].Player != "" || voids[2].Player != "y" {
		t.Errorf("Voids = %+v, %v", voids, err)
	}
}
