package benchset

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Stages are the stages of play that Stage tells apart, in order.
var Stages = []string{"money", "before", "crawford", "post-crawford"}

// StagesHelp describes Stages for a flag's help.
const StagesHelp = "money, before (a match game before either side needs 1 point), crawford (the Crawford game), post-crawford (the games after it, double match point included)"

// Stage is the stage of play of a game state: money, before (a match game
// before either side needs 1 point), crawford (the Crawford game) or
// post-crawford (a later game with a side needing 1 point, or any such
// game of a match without the Crawford rule). Match play changes most
// between them: no cube in the Crawford game, the trailer's gammons worth
// double and the leader's nothing; only the win counts at double match
// point.
func Stage(s *backgammon.State) string {
	switch {
	case s.Money():
		return "money"
	case s.CrawfordGame:
		return "crawford"
	case s.MatchLength-s.Score[0] == 1 || s.MatchLength-s.Score[1] == 1:
		return "post-crawford"
	}
	return "before"
}

// doubleMatchPoint reports whether both sides of a match need 1 point:
// the one score where only the win counts.
func doubleMatchPoint(s *backgammon.State) bool {
	return !s.Money() && s.MatchLength-s.Score[0] == 1 && s.MatchLength-s.Score[1] == 1
}

// StageFilter is a filter of states by the stages named (nil for none).
func StageFilter(names []string) (func(*backgammon.State) bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		if !slices.Contains(Stages, n) {
			return nil, fmt.Errorf("the stages are %s, not %q", strings.Join(Stages, ", "), n)
		}
		want[n] = true
	}
	return func(s *backgammon.State) bool { return want[Stage(s)] }, nil
}
