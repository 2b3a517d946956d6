package rollout

import (
	"context"
	"sync"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// testDBs builds the default bearoff databases once for the package's
// tests.
var testDBs = sync.OnceValues(func() (*bgbot.Bearoff, *bgbot.Bearoff2) {
	one, err := bgbot.NewBearoff(bgbot.DefaultBearoffCheckers)
	if err != nil {
		panic(err)
	}
	two, err := bgbot.NewBearoff2(bgbot.MaxBearoff2Checkers)
	if err != nil {
		panic(err)
	}
	return one, two
})

// dbRunConfig is rc with the tests' shared bearoff databases, which Run
// would otherwise build for each rollout.
func dbRunConfig(rc RunConfig) RunConfig {
	rc.Bearoff, rc.Bearoff2 = testDBs()
	return rc
}

// homeBoard is a state with the player on roll's checkers (by point) and
// the opponent's all on their home boards, before the roll, in a money
// game with the cube centred, or in a match by matchID.
func homeBoard(t *testing.T, me, opp map[int]int, matchID string) *backgammon.State {
	t.Helper()
	var b backgammon.Board
	for p, n := range me {
		b[backgammon.OnRoll][p-1] = int8(n)
	}
	for p, n := range opp {
		b[backgammon.Opponent][p-1] = int8(n)
	}
	return state(t, gnubgid.EncodePosition(b), matchID)
}

// A position inside the bearoff databases is not played: its truncated
// rollout is the database's value exactly, with no spread. Cubeless, from
// the one-sided database (or the two-sided one where it holds the
// position); cubeful, from the two-sided database's money equities with
// the cube centred, owned by the player on roll, or by the opponent. A
// cubeful match rollout plays on (gnubg's does too).
func TestBearoffTruncationIsExact(t *testing.T) {
	one, two := testDBs()
	rc := RunConfig{NewBot: newBot, Workers: 2, Bearoff: one, Bearoff2: two}
	run := func(s *backgammon.State, set Settings) Result {
		t.Helper()
		set.Seed, set.Bot = 3, "test"
		r, err := NewPosition(s, rules, set)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(context.Background(), 36, rc); err != nil {
			t.Fatal(err)
		}
		return r.Results()[0]
	}

	// Both sides within six checkers: the two-sided database.
	small := homeBoard(t, map[int]int{1: 2, 2: 1, 4: 1}, map[int]int{1: 1, 3: 2, 5: 2}, "cAkAAAAAAAAA")
	p2, ok := two.Probs(&small.Board)
	if !ok {
		t.Fatal("the small bear-off is not in the two-sided database")
	}
	res := run(small, Settings{})
	if res.Trials != 36 || res.Equity.Mean != float64(p2.Equity()) || res.Equity.StdErr != 0 || res.Probs[0].Mean != float64(p2[bgbot.Win]) {
		t.Errorf("cubeless two-sided: %+v, want equity %v exactly", res, p2.Equity())
	}
	for _, c := range []struct {
		name  string
		owner int // -1 centred, 0 the player on roll, 1 the opponent
		cube  int
		want  func() float64
	}{
		{"centred", -1, 1, func() float64 { ce, _ := two.MoneyCube(&small.Board, true); return ce.NoDouble }},
		{"owned", 0, 2, func() float64 { ce, _ := two.MoneyCube(&small.Board, false); return ce.NoDouble }},
		{"opponent's", 1, 2, func() float64 { v, _ := two.Cubeful(&small.Board, bgbot.CubeUnavailable); return v }},
	} {
		s := *small
		s.CubeOwner, s.CubeValue = c.owner, c.cube
		if c.owner >= 0 {
			s.CubeOwner = s.Move ^ c.owner
		}
		res := run(&s, Settings{Cubeful: true})
		if want := c.want(); res.Cubeful == nil || res.Cubeful.Mean != want || res.Cubeful.StdErr != 0 {
			t.Errorf("cubeful, cube %s: %+v, want %v exactly", c.name, res.Cubeful, want)
		}
	}

	// Ten checkers against nine: the one-sided database only, so a
	// cubeless rollout ends at once and a cubeful one plays on.
	big := homeBoard(t, map[int]int{1: 2, 2: 2, 3: 2, 5: 2, 6: 2}, map[int]int{1: 3, 2: 3, 4: 3}, "cAkAAAAAAAAA")
	p1, ok := one.Probs(&big.Board)
	if !ok {
		t.Fatal("the large bear-off is not in the one-sided database")
	}
	if _, ok := two.Probs(&big.Board); ok {
		t.Fatal("the large bear-off is in the two-sided database")
	}
	res = run(big, Settings{})
	if res.Equity.Mean != float64(p1.Equity()) || res.Equity.StdErr != 0 {
		t.Errorf("cubeless one-sided: %+v, want equity %v exactly", res.Equity, p1.Equity())
	}
	if res = run(big, Settings{Cubeful: true}); res.Cubeful.StdErr == 0 {
		t.Errorf("cubeful beyond the two-sided database: %+v, want trials played out", res.Cubeful)
	}
	// Without truncation the trials are played.
	if res = run(small, Settings{NoBearoffTruncation: true, NoVarianceReduction: true}); res.Equity.StdErr == 0 {
		t.Errorf("no bearoff truncation: %+v, want trials played out", res.Equity)
	}

	// A five-point match: cubeless, the database; cubeful, played out,
	// as the database has no match equities.
	match := homeBoard(t, map[int]int{1: 2, 2: 1, 4: 1}, map[int]int{1: 1, 3: 2, 5: 2}, "MAGgAAAAAAAE")
	if res = run(match, Settings{}); res.Equity.Mean != float64(p2.Equity()) || res.Equity.StdErr != 0 {
		t.Errorf("match, cubeless: %+v, want equity %v exactly", res.Equity, p2.Equity())
	}
	// The Crawford game, so that no pass ends the trials either.
	crawford := *match
	crawford.Score, crawford.CrawfordGame = [2]int{4, 2}, true
	if res = run(&crawford, Settings{Cubeful: true, NoVarianceReduction: true}); res.Cubeful == nil || res.Cubeful.StdErr == 0 {
		t.Errorf("match, cubeful: %+v, want trials played out", res.Cubeful)
	}
}
