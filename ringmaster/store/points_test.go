package store

import (
	"context"
	"testing"
)

// TestFractionalPointsSurviveReopen: an adjudicated game's fractional
// points come back whole from a reopened store, kept as REAL in the
// INTEGER column, while a played-out game's points stay INTEGER as they
// always were.
func TestFractionalPointsSurviveReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	run, err := s.StartRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	games := []GameResult{
		{GameID: "0_0", Winner: "a", Result: "single", Ending: EndNormal, A: Side{Points: 1}, B: Side{Points: -1}},
		{GameID: "0_1", Winner: "b", Result: "settled", Ending: EndAdjudicated, A: Side{Points: -0.6171875}, B: Side{Points: 0.6171875}},
	}
	for _, g := range games {
		if err := s.MarkRunning(ctx, GameStart{GameID: g.GameID, MatchupID: "0", PlayerA: "a", PlayerB: "b", RunID: run}); err != nil {
			t.Fatal(err)
		}
		if err := s.Finish(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	results, err := s.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for i, r := range results {
		if r.A.Points != games[i].A.Points || r.B.Points != games[i].B.Points || r.Ending != games[i].Ending {
			t.Errorf("game %s: points %v %v ending %s, want %v %v %s", r.GameID, r.A.Points, r.B.Points, r.Ending,
				games[i].A.Points, games[i].B.Points, games[i].Ending)
		}
	}
	for id, want := range map[string]string{"0_0": "integer", "0_1": "real"} {
		var typ string
		if err := s.db.QueryRow("SELECT typeof(points_a) FROM games WHERE game_id = ?", id).Scan(&typ); err != nil {
			t.Fatal(err)
		}
		if typ != want {
			t.Errorf("game %s: points stored as %s, want %s", id, typ, want)
		}
	}
}
