package record_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/record/recordtest"
)

func matchRules(n int) backgammon.Rules {
	return backgammon.Rules{MatchLength: n, Crawford: true, Cube: true}
}

func TestBuilderRecordReplays(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    backgammon.Rules
		o    recordtest.Options
	}{
		{"match", matchRules(5), recordtest.Options{DoubleP: 0.05, DropP: 0.3, ResignP: 0.01}},
		{"money", backgammon.Rules{Cube: true, Jacoby: true, Beavers: true}, recordtest.Options{Games: 6, DoubleP: 0.05, DropP: 0.3, BeaverP: 0.2, ResignP: 0.01, Unfinish: true}},
		{"cubeless nackgammon", backgammon.Rules{Variant: backgammon.Nackgammon, MatchLength: 3}, recordtest.Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 20; seed++ {
				m, err := recordtest.RandomMatch(seed, [2]string{"a", "b"}, tc.r, tc.o)
				if err != nil {
					t.Fatal(err)
				}
				c := m.Clone()
				if err := record.Replay(c); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if d := record.Diff(m, c); d != "" {
					t.Fatalf("seed %d: Replay changed a built record: %s", seed, d)
				}
				if err := record.Walk(m, nil); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestBuilderRejects(t *testing.T) {
	b := record.NewBuilder([2]string{"a", "b"}, matchRules(3))
	if err := b.Move(0, "8/5 6/5"); !errors.Is(err, backgammon.ErrNotNow) {
		t.Errorf("move before any roll: %v", err)
	}
	if err := b.Roll(1, 3, 1); err != nil {
		t.Fatal(err)
	}
	if err := b.Move(0, "8/5 6/5"); err == nil {
		t.Error("player 0 moved on player 1's turn")
	}
	if err := b.Move(1, "8/4 6/5"); err == nil {
		t.Error("illegal move accepted")
	}
	if err := b.Move(1, "8/5 6/5"); err != nil {
		t.Fatal(err)
	}
	if err := b.Double(1); err == nil {
		t.Error("double on the opponent's turn accepted")
	}
	if err := b.Double(0); err != nil {
		t.Fatal(err)
	}
	if err := b.Beaver(1); err == nil {
		t.Error("beaver in match play accepted")
	}
	if err := b.Take(1); err != nil {
		t.Fatal(err)
	}
	if err := b.Roll(0, 6, 4); err != nil {
		t.Fatal(err)
	}
	if err := b.Forfeit(0, "illegal move 24/14"); err != nil {
		t.Fatal(err)
	}
	g := b.Match().Games[0]
	if g.Winner != 1 || g.Points != 6 || g.Result != backgammon.Backgammon || len(g.Actions) != 5 {
		t.Fatalf("forfeit game: %+v", g)
	}
	if a := g.Actions[0]; a.Kind != record.Move || a.Move != "8/5 6/5" {
		t.Errorf("action 2 = %v", a)
	}
	if a := g.Actions[3]; a.Kind != record.Roll || a.Dice != [2]int{6, 4} {
		t.Errorf("pending roll = %v", a)
	}
	if err := record.Replay(b.Match().Clone()); err != nil {
		t.Errorf("forfeit record does not replay: %v", err)
	}
}

func TestReplayCanonicalAndResults(t *testing.T) {
	m := &record.Match{Players: [2]string{"a", "b"}, Rules: record.DefaultRules(1)}
	m.Games = []record.Game{{Actions: []record.Action{
		{Player: 0, Kind: record.Move, Dice: [2]int{3, 1}, Move: "8/5, 6/5"},
		{Player: 1, Kind: record.Move, Dice: [2]int{6, 6}, Move: "24/18 24/18 13/7 13/7"},
		{Player: 0, Kind: record.Move, Dice: [2]int{2, 1}, Move: "13/11 6/5"},
	}, Winner: 0, Points: 1}}
	if err := record.Replay(m); err != nil {
		t.Fatal(err)
	}
	g := m.Games[0]
	if g.Actions[1].Move != "24/18(2) 13/7(2)" {
		t.Errorf("canonical notation: %q", g.Actions[1].Move)
	}
	if g.Number != 1 || g.End != backgammon.GameResigned || g.Result != backgammon.Single || len(g.Actions) != 5 {
		t.Errorf("inferred resignation: %+v", g)
	}
	if a := g.Actions[3]; a.Kind != record.Resign || a.Player != 1 || a.Level != backgammon.Single {
		t.Errorf("resign action %v", a)
	}
}

func TestReplayErrorsNameGameAndAction(t *testing.T) {
	base := func() *record.Match {
		return &record.Match{Players: [2]string{"a", "b"}, Rules: record.DefaultRules(3), Games: []record.Game{{Actions: []record.Action{
			{Player: 0, Kind: record.Move, Dice: [2]int{3, 1}, Move: "8/5 6/5"},
			{Player: 1, Kind: record.Double},
			{Player: 0, Kind: record.Drop},
		}}, {Actions: []record.Action{
			{Player: 1, Kind: record.Move, Dice: [2]int{4, 2}, Move: "8/4 6/4"},
			{Player: 0, Kind: record.Move, Dice: [2]int{6, 5}, Move: "24/13"},
		}}}}
	}
	if err := record.Replay(base()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(m *record.Match)
		want string
	}{
		{"illegal move", func(m *record.Match) { m.Games[1].Actions[1].Move = "24/12" }, "game 2: action 2"},
		{"wrong player", func(m *record.Match) { m.Games[1].Actions[1].Player = 1 }, "game 2: action 2"},
		{"bad dice", func(m *record.Match) { m.Games[1].Actions[1].Dice = [2]int{7, 1} }, "game 2: action 2"},
		{"take after drop", func(m *record.Match) {
			m.Games[0].Actions = append(m.Games[0].Actions, record.Action{Player: 0, Kind: record.Take})
		}, "game 1: action 4"},
		{"wrong winner", func(m *record.Match) { m.Games[0].Winner, m.Games[0].Points = 0, 1 }, "game 1: recorded as won by player 0"},
		{"wrong score", func(m *record.Match) { m.Games[1].ScoreBefore = [2]int{0, 2} }, "game 2: recorded score"},
		{"wrong cube", func(m *record.Match) { m.Games[0].Actions[1].Cube = 4 }, "game 1: action 2"},
		{"opens with double", func(m *record.Match) { m.Games[1].Actions = m.Games[0].Actions[1:] }, "game 2: action 1"},
		{"no actions", func(m *record.Match) { m.Games[1].Actions = nil }, "game 2: no actions"},
		{"impossible resignation", func(m *record.Match) { m.Games[1].Winner, m.Games[1].Points = 1, 5 }, "game 2: recorded as won"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := base()
			tc.edit(m)
			err := record.Replay(m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
