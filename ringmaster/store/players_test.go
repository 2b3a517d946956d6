package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A version 5 database written by the ringmaster before the players table
// (a tuning competition) opens at the current version with its games and
// tuner games kept, and its candidates' definitions, which only
// tuner_games held, become the players their games refer to.
func TestMigrateV5(t *testing.T) {
	ctx := context.Background()
	s := openMigrated(t, "v5/v5tune.db", 5)
	results, err := s.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	winners := winnersOf(results)
	if want := "tune_00000:i1+ tune_00001:i1+ tune_00002:i2- tune_00003:i2- "; winners != want {
		t.Errorf("results after the migration: %s, want %s", winners, want)
	}
	tuned, err := s.TunerGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tuned) != 4 || tuned[3].Score == nil {
		t.Fatalf("tuner games after the migration: %+v", tuned)
	}

	defs, err := s.Definitions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range defs {
		got = append(got, d.Code+":"+d.FirstGame+"-"+d.LastGame)
		if d.Games != 2 || !strings.Contains(d.Definition, `"Code":"`+d.Code+`"`) {
			t.Errorf("definition of %s: %d games, %s", d.Code, d.Games, d.Definition)
		}
	}
	if want := "i1+:tune_00000-tune_00001 i1-:tune_00000-tune_00001 i2+:tune_00002-tune_00003 i2-:tune_00002-tune_00003"; strings.Join(got, " ") != want {
		t.Errorf("definitions %s, want %s", strings.Join(got, " "), want)
	}
	byGame, err := s.GameDefinitions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range tuned {
		var stored map[string]json.RawMessage
		if err := json.Unmarshal([]byte(g.Candidates), &stored); err != nil {
			t.Fatal(err)
		}
		var res GameResult
		for _, r := range results {
			if r.GameID == g.GameID {
				res = r
			}
		}
		pair := byGame[g.GameID]
		if pair[0] != string(stored[res.PlayerA]) || pair[1] != string(stored[res.PlayerB]) || pair[0] == pair[1] {
			t.Errorf("game %s (%s v %s) refers to\n%s\n%s\nwant its candidates as tuner_games stores them", g.GameID, res.PlayerA, res.PlayerB, pair[0], pair[1])
		}
	}
}

// A game records the definitions its seats had: one row per distinct
// definition of a code, counted by game; a game replayed after a change
// refers to the new one; a game started without definitions refers to
// none.
func TestGamesReferToDefinitions(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	start := func(id, a, b, defA, defB string) {
		t.Helper()
		if err := s.MarkRunning(ctx, GameStart{GameID: id, MatchupID: "m", PlayerA: a, PlayerB: b, RunID: 1, DefA: defA, DefB: defB}); err != nil {
			t.Fatal(err)
		}
	}
	start("m_0", "x", "y", `{"Code":"x","v":1}`, `{"Code":"y"}`)
	start("m_1", "y", "x", `{"Code":"y"}`, `{"Code":"x","v":1}`)
	start("m_2", "x", "y", `{"Code":"x","v":1}`, `{"Code":"y"}`)
	// m_2 is replayed after x's definition changed.
	start("m_2", "x", "y", `{"Code":"x","v":2}`, `{"Code":"y"}`)
	start("m_3", "x", "y", "", "")
	s.Close()

	s2, err := Open(ctx, path) // a fresh Store: nothing cached
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.MarkRunning(ctx, GameStart{GameID: "m_4", MatchupID: "m", PlayerA: "x", PlayerB: "y", RunID: 2,
		DefA: `{"Code":"x","v":2}`, DefB: `{"Code":"y"}`}); err != nil {
		t.Fatal(err)
	}
	defs, err := s2.Definitions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range defs {
		got = append(got, d.Code+" "+d.Definition+" "+d.FirstGame+".."+d.LastGame+" "+string(rune('0'+d.Games)))
	}
	want := []string{
		`x {"Code":"x","v":1} m_0..m_1 2`,
		`x {"Code":"x","v":2} m_2..m_4 2`,
		`y {"Code":"y"} m_0..m_4 4`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("definitions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	byGame, err := s2.GameDefinitions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g := byGame["m_1"]; g != [2]string{`{"Code":"y"}`, `{"Code":"x","v":1}`} {
		t.Errorf("m_1's definitions %q", g)
	}
	if _, ok := byGame["m_3"]; ok || len(byGame) != 4 {
		t.Errorf("games with definitions: %v, want m_0, m_1, m_2 and m_4", byGame)
	}
}
