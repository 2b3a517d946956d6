package main

import "testing"

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
