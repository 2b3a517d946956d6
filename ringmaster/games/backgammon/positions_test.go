package backgammon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// Two money positions with the cube centred: the mover trails by 47 pips
// in the first.
const (
	trailingPosition = "bPemAAB0O4MBMA:cAkAAAAAAAAA"
	otherPosition    = "2O4BAADbGwAAAA:cAkAAAAAAAAA"
)

func TestPositionsFile(t *testing.T) {
	text := "# a suite\n\n" + trailingPosition + "  # trailing\n" + otherPosition + "\n"
	p, err := ReadPositions(strings.NewReader(text), "suite.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.IDs) != 2 || p.IDs[0] != trailingPosition || p.IDs[1] != otherPosition || p.Hash == "" {
		t.Fatalf("read %+v", p)
	}
	// Games 0 and 1 (pair 0) start at the first position, 2 and 3 at the
	// second, 4 at the first again.
	for n, want := range []string{trailingPosition, trailingPosition, otherPosition, otherPosition, trailingPosition} {
		if got := p.For(n, n/2); got != want {
			t.Errorf("game %d starts at %s, want %s", n, got, want)
		}
	}
	for _, bad := range []struct{ text, want string }{
		{"# nothing\n", "suite.txt: no positions"},
		{trailingPosition + "\nnot-an-id\n", "suite.txt:2: position \"not-an-id\": want POSITIONID:MATCHID"},
		{"\n\nbPemAAB0O4MBMA:zzzz\n", "suite.txt:3: position"},
	} {
		_, err := ReadPositions(strings.NewReader(bad.text), "suite.txt")
		if err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want it to start %q", bad.text, err, bad.want)
		}
	}
}

func TestExamplePositionsLoad(t *testing.T) {
	p, err := LoadPositions(filepath.Join("..", "..", "..", "examples", "positions", "trailing.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.IDs) != 10 {
		t.Errorf("%d positions, want 10", len(p.IDs))
	}
	if _, err := LoadPositions(filepath.Join(t.TempDir(), "none.txt")); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("a missing file: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

// A game from a start position begins there: the record's game names the
// position, its first action is the roll of the player on roll there (no
// opening roll), it replays, and the .mat record's comment names it.
func TestPositionStartsTheGame(t *testing.T) {
	p, err := ReadPositions(strings.NewReader(trailingPosition+"\n"), "suite.txt")
	if err != nil {
		t.Fatal(err)
	}
	ref := &Referee{Rules: bg.Rules{Cube: true, Jacoby: true}, MoveLimit: 2000, Positions: p}
	seats := [2]referee.Seat{seat(t, "a", &testEngine{}), seat(t, "b", &testEngine{})}
	out, err := ref.Play(context.Background(), referee.GameInfo{ID: "m_1", Seed: 5, Number: 1, Pair: 0}, seats)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Records["mat"], "game 1 starts at "+trailingPosition) {
		t.Errorf(".mat record does not name the start:\n%s", out.Records["mat"])
	}
	// Play again through PlayDice's path to see the record itself.
	g, err := ref.playFrom(context.Background(), seats, bg.NewDice(5, 0), trailingPosition)
	if err != nil {
		t.Fatal(err)
	}
	game := g.Record.Games[0]
	pos, match, _ := strings.Cut(trailingPosition, ":")
	want, err := gnubgid.DecodeState(pos, match, bg.Rules{Cube: true})
	if err != nil {
		t.Fatal(err)
	}
	if game.Start != trailingPosition || game.Actions[0].Player != want.Move || g.FirstMover != want.Move {
		t.Errorf("game starts %q with player %d (first mover %d), want %q with player %d",
			game.Start, game.Actions[0].Player, g.FirstMover, trailingPosition, want.Move)
	}
	d0, d1 := bg.NewDice(5, 0).Roll()
	if a := game.Actions[0]; a.Dice != [2]int{d0, d1} {
		t.Errorf("first roll %v, want the game's first dice %d%d (no opening roll)", a.Dice, d0, d1)
	}
	// The record replays from the position, and walking it shows the
	// position's board before the first move.
	var first *bg.Board
	err = record.Walk(g.Record, func(p *record.Position) error {
		if first == nil && p.Action.Kind == record.Move {
			b := p.Board
			first = &b
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	if *first != want.Board {
		t.Errorf("the first move is played from %v, want the position's board %v", *first, want.Board)
	}
	if g.Winner < 0 || g.Points[0]+g.Points[1] != 0 {
		t.Errorf("outcome %+v", g)
	}
}
