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

	// The new tables work: an analysis is stored once per game and judge.
	a := Analysis{GameID: "net-noisy_0", Spec: "bgbot:0", Plies: 0, Judge: "test", Seconds: 0.25,
		Figures: map[string][2]float64{"chequer_error": {0.5, 1.25}, "unforced_moves": {40, 41}}}
	if err := s.SaveAnalysis(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnalysis(ctx, a); !errors.Is(err, ErrAnalysed) {
		t.Errorf("a second analysis at the same depth: %v, want ErrAnalysed", err)
	}
	a.Spec, a.Plies = "bgbot:1", 1
	a.Figures = map[string][2]float64{"chequer_error": {9, 9}}
	if err := s.SaveAnalysis(ctx, a); err != nil {
		t.Errorf("the same game at another depth: %v", err)
	}
	a.Spec, a.Plies = "gnubg:0", 0
	a.Figures = map[string][2]float64{"chequer_error": {7, 7}}
	if err := s.SaveAnalysis(ctx, a); err != nil {
		t.Errorf("the same game by another judge at the same depth: %v", err)
	}
	if err := s.SaveAnalysis(ctx, Analysis{GameID: "nosuch_0"}); err == nil {
		t.Error("an analysis of a game that does not exist was stored")
	}
	got, err := s.Analyses(ctx, "bgbot:0")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got["net-noisy_0"].Figures["chequer_error"] != [2]float64{0.5, 1.25} ||
		got["net-noisy_0"].Figures["unforced_moves"] != [2]float64{40, 41} || got["net-noisy_0"].Seconds != 0.25 ||
		got["net-noisy_0"].Judge != "test" || len(got["net-noisy_0"].Figures) != 2 {
		t.Errorf("analyses at 0 plies: %+v", got)
	}
	if got, _ := s.Analyses(ctx, "bgbot:1"); len(got) != 1 || got["net-noisy_0"].Figures["chequer_error"] != [2]float64{9, 9} {
		t.Errorf("analyses at 1 ply: %+v", got)
	}
	if got, _ := s.Analyses(ctx, "gnubg:0"); len(got) != 1 || got["net-noisy_0"].Figures["chequer_error"] != [2]float64{7, 7} {
		t.Errorf("gnubg's analyses at 0 ply: %+v", got)
	}
}

func TestAnalysisOfRunningGameRefused(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.MarkRunning(ctx, GameStart{GameID: "0_0", MatchupID: "0", PlayerA: "a", PlayerB: "b"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAnalysis(ctx, Analysis{GameID: "0_0", Spec: "bgbot:0", Figures: map[string][2]float64{"x": {1, 2}}}); err == nil {
		t.Error("an analysis of a running game was stored")
	}
	if got, err := s.Analyses(ctx, "bgbot:0"); err != nil || len(got) != 0 {
		t.Errorf("analyses: %v %v", got, err)
	}
}

// A version 5 database's analyses, all bgbot's, are bgbot's at their
// depth after the step that keys analyses by judge, figures and all.
func TestMigrateAnalysesByJudge(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.db")
	copyFile(t, filepath.Join("..", "testdata", "v4", "v4small.db"), path)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"INSERT INTO analyses(game_id, plies, judge, seconds, analysed_at) VALUES('money_0', 0, 'bgbot 0-ply', 0.5, 'x'), ('money_0', 1, 'bgbot 1-ply', 2, 'x')",
		"INSERT INTO analysis_stats(game_id, plies, name, value_a, value_b) VALUES('money_0', 0, 'luck', 0.25, -0.25), ('money_0', 1, 'luck', 0.5, -0.5)",
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for spec, luck := range map[string]float64{"bgbot:0": 0.25, "bgbot:1": 0.5} {
		got, err := s.Analyses(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		a := got["money_0"]
		if len(got) != 1 || a == nil || a.Figures["luck"] != [2]float64{luck, -luck} || a.Spec != spec || a.Judge != "bgbot "+spec[6:]+"-ply" {
			t.Errorf("%s after the migration: %+v", spec, a)
		}
	}
	if got, _ := s.Analyses(ctx, "gnubg:0"); len(got) != 0 {
		t.Errorf("gnubg's analyses after the migration: %+v", got)
	}
}
