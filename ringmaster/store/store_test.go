package store

import (
	"context"
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
	res := GameResult{GameID: "0_1", Winner: "a", Result: "gammon", Detail: "a won a gammon", Level: 2,
		A: Side{Points: 2, Doubles: 1, CPU: 1500 * time.Millisecond, Decisions: 30}, B: Side{Points: -2, Takes: 1},
		RecordMat: "mat text", RecordSGF: "(;GM[6])"}
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
		results[0].A.CPU != 1500*time.Millisecond || results[0].A.Doubles != 1 || results[0].B.Takes != 1 {
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
	mat, sgf, err := s.Record(ctx, "0_1")
	if err != nil || mat != "mat text" || sgf != "(;GM[6])" {
		t.Errorf("record: %q %q %v", mat, sgf, err)
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
