package record

import (
	"fmt"
	"reflect"
)

// Diff describes the first difference between two records, or returns ""
// when they are equal. Tests comparing formats use it.
func Diff(a, b *Match) string {
	if a.Players != b.Players {
		return fmt.Sprintf("players %q vs %q", a.Players, b.Players)
	}
	if a.MatchLength != b.MatchLength {
		return fmt.Sprintf("match length %d vs %d", a.MatchLength, b.MatchLength)
	}
	if a.Rules != b.Rules {
		return fmt.Sprintf("rules %+v vs %+v", a.Rules, b.Rules)
	}
	for _, f := range []struct{ name, x, y string }{
		{"event", a.Event, b.Event}, {"round", a.Round, b.Round}, {"place", a.Place, b.Place},
		{"date", a.Date, b.Date}, {"comment", a.Comment, b.Comment},
	} {
		if f.x != f.y {
			return fmt.Sprintf("%s %q vs %q", f.name, f.x, f.y)
		}
	}
	return DiffGames(a, b)
}

// DiffGames is Diff for the games alone.
func DiffGames(a, b *Match) string {
	for i := 0; i < len(a.Games) && i < len(b.Games); i++ {
		ga, gb := &a.Games[i], &b.Games[i]
		for j := 0; j < len(ga.Actions) && j < len(gb.Actions); j++ {
			if ga.Actions[j] != gb.Actions[j] {
				return fmt.Sprintf("game %d, action %d: %v vs %v", i+1, j+1, ga.Actions[j], gb.Actions[j])
			}
		}
		if len(ga.Actions) != len(gb.Actions) {
			return fmt.Sprintf("game %d: %d actions vs %d", i+1, len(ga.Actions), len(gb.Actions))
		}
		x, y := *ga, *gb
		x.Actions, y.Actions = nil, nil
		if !reflect.DeepEqual(x, y) {
			return fmt.Sprintf("game %d: %+v vs %+v", i+1, x, y)
		}
	}
	if len(a.Games) != len(b.Games) {
		return fmt.Sprintf("%d games vs %d", len(a.Games), len(b.Games))
	}
	return ""
}
