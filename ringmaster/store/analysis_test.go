package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
)

// TestMigrateV2 opens a database written by schema version 2 (see
// ../testdata/v2/README.md): every result, statistic and record is still
// there after the step to version 3, which adds the analysis tables.
func TestMigrateV2(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v2.db")
	copyFile(t, filepath.Join("..", "testdata", "v2", "v2small.db"), path)

	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var version int
	raw.QueryRow("PRAGMA user_version").Scan(&version)
	if version != 2 {
		t.Fatalf("the fixture is at version %d, want 2", version)
	}
	count := func(db *sql.DB, q string) int {
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	counts := map[string]int{}
	queries := []string{"SELECT COUNT(*) FROM game_results", "SELECT COUNT(*) FROM game_stats",
		"SELECT COUNT(*) FROM records", "SELECT COUNT(*) FROM matchups", "SELECT COUNT(*) FROM runs",
		"SELECT SUM(points_a) * 1000 + SUM(LENGTH(detail)) FROM game_results", "SELECT SUM(value_a + 7 * value_b) FROM game_stats",
		"SELECT SUM(LENGTH(text)) FROM records"}
	for _, q := range queries {
		counts[q] = count(raw, q)
	}
	raw.Close()
	if counts[queries[0]] != 14 {
		t.Fatalf("the fixture holds %d results, want 14", counts[queries[0]])
	}

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.db.QueryRow("PRAGMA user_version").Scan(&version)
	if version != SchemaVersion {
		t.Errorf("user_version %d after migration, want %d", version, SchemaVersion)
	}
	for _, q := range queries {
		if got := count(s.db, q); got != counts[q] {
			t.Errorf("%s: %d after the migration, %d before", q, got, counts[q])
		}
	}
	if n := count(s.db, "SELECT COUNT(*) FROM analyses") + count(s.db, "SELECT COUNT(*) FROM analysis_stats"); n != 0 {
		t.Errorf("the new analysis tables hold %d rows", n)
	}

	// The new tables work: an analysis is stored once per game and depth.
	a := Analysis{GameID: "net-noisy_0", Plies: 0, Judge: "test", Seconds: 0.25,
		Figures: map[string][2]float64{"chequer_error": {0.5, 1.25}, "unforced_moves": {40, 41}}}
	if err := s.SaveAnalysis(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnalysis(ctx, a); !errors.Is(err, ErrAnalysed) {
		t.Errorf("a second analysis at the same depth: %v, want ErrAnalysed", err)
	}
	a.Plies = 1
	a.Figures = map[string][2]float64{"chequer_error": {9, 9}}
	if err := s.SaveAnalysis(ctx, a); err != nil {
		t.Errorf("the same game at another depth: %v", err)
	}
	if err := s.SaveAnalysis(ctx, Analysis{GameID: "nosuch_0"}); err == nil {
		t.Error("an analysis of a game that does not exist was stored")
	}
	got, err := s.Analyses(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got["net-noisy_0"].Figures["chequer_error"] != [2]float64{0.5, 1.25} ||
		got["net-noisy_0"].Figures["unforced_moves"] != [2]float64{40, 41} || got["net-noisy_0"].Seconds != 0.25 ||
		got["net-noisy_0"].Judge != "test" || len(got["net-noisy_0"].Figures) != 2 {
		t.Errorf("analyses at 0 plies: %+v", got)
	}
	if got, _ := s.Analyses(ctx, 1); len(got) != 1 || got["net-noisy_0"].Figures["chequer_error"] != [2]float64{9, 9} {
		t.Errorf("analyses at 1 ply: %+v", got)
	}
}

func TestAnalysisOfRunningGameRefused(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.MarkRunning(ctx, GameStart{GameID: "0_0", MatchupID: "0", PlayerA: "a", PlayerB: "b"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnalysis(ctx, Analysis{GameID: "0_0", Figures: map[string][2]float64{"x": {1, 2}}}); err == nil {
		t.Error("an analysis of a running game was stored")
	}
	if got, err := s.Analyses(ctx, 0); err != nil || len(got) != 0 {
		t.Errorf("analyses: %v %v", got, err)
	}
}
