package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestAnalyseCommand(t *testing.T) {
	out, errOut, code := runTool(t, "analyse", gnubgMat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"engineA v engineB, 3-point match, 3 games, judged by bgbot at 0 ply",
		"Chequerplay statistics", "Luck statistics", "Cube statistics", "Overall statistics",
		"Total moves                          93                     91", // gnubg's counts
		"Unforced moves                       85                     66",
		"Error based abs. FIBS rating", "from error rates",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Game 1 (score") {
		t.Error("per-game tables without --games")
	}
	if out, _, _ := runTool(t, "analyse", "--games", gnubgSGF); !strings.Contains(out, "Game 3 (score") {
		t.Errorf("--games on the SGF record: no table for game 3:\n%s", out)
	}
}

func TestAnalyseJSON(t *testing.T) {
	out, errOut, code := runTool(t, "analyse", "--json", "--plies", "1", gnubgMat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	type player struct {
		Name               string   `json:"name"`
		UnforcedMoves      int      `json:"unforced_moves"`
		ChequerErrorRate   *float64 `json:"chequer_error_rate"`
		CloseCubeDecisions *int     `json:"close_cube_decisions"`
		CubeErrorRate      *float64 `json:"cube_error_rate"`
		OverallErrorRate   *float64 `json:"overall_error_rate"`
		LuckRate           *float64 `json:"luck_rate"`
		RatingLabel        string   `json:"rating_label"`
		LuckLabel          string   `json:"luck_label"`
		RatingEstimate     *float64 `json:"rating_estimate"`
		Result             float64  `json:"result"`
	}
	var got struct {
		Players []player `json:"players"`
		Plies   int      `json:"plies"`
		Games   []struct {
			Number  int      `json:"number"`
			Players []player `json:"players"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Players) != 2 || got.Players[0].Name != "engineA" || got.Players[1].Name != "engineB" || got.Plies != 1 {
		t.Fatalf("players %+v, plies %d", got.Players, got.Plies)
	}
	for _, p := range got.Players {
		if p.ChequerErrorRate == nil || p.CloseCubeDecisions == nil || p.OverallErrorRate == nil || p.LuckRate == nil ||
			p.RatingLabel == "" || p.LuckLabel == "" || p.RatingEstimate == nil || *p.RatingEstimate > 2050 {
			t.Errorf("player %+v lacks a field", p)
		}
	}
	if math.Abs(got.Players[0].Result-0.5) > 1e-9 || math.Abs(got.Players[1].Result+0.5) > 1e-9 {
		t.Errorf("results %v, %v; engineA won the match", got.Players[0].Result, got.Players[1].Result)
	}
	if len(got.Games) != 3 {
		t.Fatalf("%d games, want 3", len(got.Games))
	}
	unforced := 0
	for _, g := range got.Games {
		unforced += g.Players[0].UnforcedMoves
	}
	if unforced != got.Players[0].UnforcedMoves {
		t.Errorf("games' unforced moves sum to %d, the match's are %d", unforced, got.Players[0].UnforcedMoves)
	}
}

func TestAnalyseErrors(t *testing.T) {
	for _, args := range [][]string{
		{"analyse"},
		{"analyse", "--plies", "9", gnubgMat},
		{"analyse", "x.txt"},
	} {
		if _, _, code := runTool(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if _, errOut, code := runTool(t, "analyse", "/nonexistent.mat"); code != 1 || !strings.Contains(errOut, "nonexistent") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
}
