package record_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
)

// Applying a checked record's actions one by one to a fresh Builder
// rebuilds the same games, with the doubles, takes and drops
// of gnubg's exports.
func TestApplyRebuildsRecords(t *testing.T) {
	// gnubg's exports (the money session with beavers is left out: its
	// .mat carries each game's points as the score before the next, which
	// Replay refuses).
	var paths []string
	for _, name := range []string{"gnubg-3pt-match.mat", "gnubg-7pt-cube.mat", "gnubg-nackgammon-tags.mat"} {
		paths = append(paths, filepath.Join("..", "mat", "testdata", name))
	}
	kinds := map[record.Kind]bool{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mat.Read(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if err := record.Replay(m); err != nil {
			t.Fatalf("%s: replay: %v", path, err)
		}
		b := record.NewBuilder(m.Players, m.Rules)
		for gi, g := range m.Games {
			for ai, a := range g.Actions {
				kinds[a.Kind] = true
				if err := b.Apply(a); err != nil {
					t.Fatalf("%s: game %d action %d (%v): %v", path, gi+1, ai+1, a, err)
				}
			}
		}
		got := b.Match()
		if len(got.Games) != len(m.Games) {
			t.Fatalf("%s: %d games rebuilt, want %d", path, len(got.Games), len(m.Games))
		}
		for gi := range m.Games {
			want, have := m.Games[gi], got.Games[gi]
			if !reflect.DeepEqual(actionsOf(have), actionsOf(want)) {
				t.Errorf("%s game %d: rebuilt actions differ:\n got %v\nwant %v", path, gi+1, actionsOf(have), actionsOf(want))
			}
			if have.Winner != want.Winner || have.Points != want.Points {
				t.Errorf("%s game %d: rebuilt result %d/%d, want %d/%d", path, gi+1, have.Winner, have.Points, want.Winner, want.Points)
			}
		}
	}
	for _, k := range []record.Kind{record.Move, record.Double, record.Take, record.Drop} {
		if !kinds[k] {
			t.Errorf("no record holds an action of kind %v", k)
		}
	}
	if err := record.NewBuilder([2]string{"a", "b"}, record.DefaultRules(0)).Apply(record.Action{Kind: record.Kind(-1)}); err == nil {
		t.Error("an unknown action kind was applied")
	}
}

// actionsOf keeps what identifies an action, not its comments.
func actionsOf(g record.Game) []record.Action {
	var out []record.Action
	for _, a := range g.Actions {
		out = append(out, record.Action{Player: a.Player, Kind: a.Kind, Dice: a.Dice, Move: a.Move, Level: a.Level})
	}
	return out
}
