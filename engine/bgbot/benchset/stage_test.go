package benchset

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestStage(t *testing.T) {
	match := func(length int, crawford bool, score [2]int, crawfordGame, post bool) *backgammon.State {
		s := backgammon.NewMatch(backgammon.Rules{MatchLength: length, Crawford: crawford, Cube: true})
		s.Score, s.CrawfordGame, s.PostCrawford = score, crawfordGame, post
		return s
	}
	for _, tc := range []struct {
		s    *backgammon.State
		want string
	}{
		{match(0, false, [2]int{}, false, false), "money"},
		{match(5, true, [2]int{0, 0}, false, false), "before"},
		{match(5, true, [2]int{3, 3}, false, false), "before"},
		{match(5, true, [2]int{4, 2}, true, false), "crawford"},
		{match(5, true, [2]int{2, 4}, true, false), "crawford"},
		{match(5, true, [2]int{4, 3}, false, true), "post-crawford"},
		{match(5, true, [2]int{4, 4}, false, true), "post-crawford"},
		{match(5, false, [2]int{1, 4}, false, false), "post-crawford"},
	} {
		if got := Stage(tc.s); got != tc.want {
			t.Errorf("length %d, Crawford rule %v, score %v, Crawford game %v: stage %q, want %q", tc.s.MatchLength, tc.s.Rules.Crawford, tc.s.Score, tc.s.CrawfordGame, got, tc.want)
		}
	}
	keep, err := StageFilter([]string{"crawford", "post-crawford"})
	if err != nil || keep(match(5, true, [2]int{3, 3}, false, false)) || !keep(match(5, true, [2]int{4, 4}, false, true)) {
		t.Errorf("the filter of the Crawford game and after: %v", err)
	}
	if keep, err := StageFilter(nil); keep != nil || err != nil {
		t.Errorf("no stages: a filter (%v)", err)
	}
	if _, err := StageFilter([]string{"dmp"}); err == nil {
		t.Error("an unknown stage: no error")
	}
}
