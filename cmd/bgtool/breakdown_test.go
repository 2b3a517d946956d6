package main

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// TestStageGroups names each score's stage of play from what the
// decisions file records: the match length, the two sides' points still
// needed and the Crawford flag.
func TestStageGroups(t *testing.T) {
	stage := decisionGroups["stage"]
	for _, tc := range []struct {
		length, away, opponentAway int
		crawford                   bool
		want                       string
	}{
		{0, 0, 0, false, "money"},
		{5, 5, 5, false, "before"},
		{5, 2, 2, false, "before"},
		{5, 1, 3, true, "crawford"},
		{5, 4, 1, true, "crawford"},
		{5, 1, 2, false, "post-crawford"},
		{5, 3, 1, false, "post-crawford"},
		{5, 1, 1, false, "post-crawford"},
	} {
		got, err := stage(situation{length: tc.length, away: tc.away, opponentAway: tc.opponentAway, crawford: tc.crawford})
		if err != nil || got != tc.want {
			t.Errorf("%+v: %q (%v), want %q", tc, got, err, tc.want)
		}
	}
}

// TestLeadGroups names the pip lead band of the side to play from the
// decision's position ID: the opening position is level, and moving
// checkers of one side home changes who leads, by how much.
func TestLeadGroups(t *testing.T) {
	lead := decisionGroups["lead"]
	start, err := gnubgid.DecodePosition("4HPwATDgc/ABMA")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		from, to int // a checker of the side on roll (from > to) or, negative, of the opponent
		moved    int // how many checkers move
		want     string
	}{
		{0, 0, 0, "lead -19..19"},
		{24, 1, 1, "lead 20..59"}, // 23 pips
		{13, 1, 5, "lead >= 60"},  // 60 pips
		{-24, -1, 1, "lead -59..-20"},
		{-13, -1, 5, "lead <= -60"},
	} {
		b := start
		side, from, to := backgammon.OnRoll, tc.from, tc.to
		if from < 0 {
			side, from, to = backgammon.Opponent, -from, -to
		}
		for range tc.moved {
			b[side][from-1]--
			b[side][to-1]++
		}
		got, err := lead(situation{positionID: gnubgid.EncodePosition(b)})
		if err != nil || got != tc.want {
			t.Errorf("%+v: %q (%v), want %q", tc, got, err, tc.want)
		}
	}
	if _, err := lead(situation{file: "x.mat", positionID: "not an ID"}); err == nil {
		t.Error("a bad position ID gave no error")
	}
}
