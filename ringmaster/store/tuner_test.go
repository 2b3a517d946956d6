package store

import (
	"context"
	"testing"
)

// A version 4 database written by the ringmaster before the tuner games
// table opens at version 5 with every game kept, takes tuner games, and
// gives them back with their scores in the order they were given.
func TestMigrateV4(t *testing.T) {
	ctx := context.Background()
	s := openMigrated(t, "v4/v4small.db", 4)
	results, err := s.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	winners := winnersOf(results)
	if want := "money_0:net money_1:heuristic money_2:net money_3:net "; winners != want {
		t.Errorf("results after the migration: %s, want %s", winners, want)
	}

	for n, id := range []string{"tune_00000", "tune_00001", "tune_00002"} {
		g := TunerGame{GameID: id, Number: n, Proposal: `{"n":` + id + `}`, Candidates: `{"#0":{}}`}
		if err := s.IssueTunerGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	// Re-issued after a resume: kept as first written.
	if err := s.IssueTunerGame(ctx, TunerGame{GameID: "tune_00001", Number: 1, Proposal: "changed", Candidates: "{}"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTunerScore(ctx, "tune_00002", 0.25); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTunerScore(ctx, "tune_00000", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTunerScore(ctx, "tune_00000", 0); err == nil {
		t.Error("a second score for a game was accepted")
	}
	if err := s.SetTunerScore(ctx, "tune_00009", 0); err == nil {
		t.Error("a score for a game never issued was accepted")
	}
	games, err := s.TunerGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 {
		t.Fatalf("%d tuner games, want 3", len(games))
	}
	if games[1].Proposal != `{"n":tune_00001}` || games[1].Score != nil || games[1].Recorded != 0 {
		t.Errorf("game 1: %+v, want its first proposal and no score", games[1])
	}
	if games[0].Score == nil || *games[0].Score != 1 || games[0].Recorded != 2 {
		t.Errorf("game 0: %+v, want score 1 recorded second", games[0])
	}
	if games[2].Score == nil || *games[2].Score != 0.25 || games[2].Recorded != 1 {
		t.Errorf("game 2: %+v, want score 0.25 recorded first", games[2])
	}
}
