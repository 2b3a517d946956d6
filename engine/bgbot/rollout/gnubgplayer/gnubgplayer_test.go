package gnubgplayer

import (
	"context"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/player/gnubg"
)

// gnubg answers a rollout's three questions for the state it is given:
// a legal move with the dice rolled, no double in the opening position,
// and a pass of a double in a race it has all but lost.
func TestPlayerDecides(t *testing.T) {
	peertest.Gnubg(t)
	ctx := context.Background()
	p, err := Launch(ctx, gnubg.Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rules := backgammon.Rules{Cube: true, Crawford: true}
	s, err := gnubgid.DecodeState("4HPwATDgc/ABMA", "cAkAAAAAAAAA", rules)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := p.Double(ctx, s); err != nil || d {
		t.Errorf("opening position: double %v, %v; want no double", d, err)
	}
	if err := s.SetDice(3, 1); err != nil {
		t.Fatal(err)
	}
	m, err := p.Move(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if got := backgammon.Format(s.Board, m); got != "8/5 6/5" {
		t.Errorf("opening 31: gnubg played %s, want 8/5 6/5", got)
	}
	// The player on roll needs one roll, the opponent three: a double
	// the opponent passes.
	var b backgammon.Board
	b[backgammon.OnRoll][0], b[backgammon.OnRoll][1] = 1, 1
	b[backgammon.Opponent][3], b[backgammon.Opponent][4], b[backgammon.Opponent][5] = 4, 4, 4
	race, err := gnubgid.DecodeState(gnubgid.EncodePosition(b), "cAkAAAAAAAAA", rules)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := p.Double(ctx, race); err != nil || !d {
		t.Fatalf("race: double %v, %v; want a double", d, err)
	}
	if err := race.Double(); err != nil {
		t.Fatal(err)
	}
	if a, err := p.Take(ctx, race); err != nil || a != backgammon.Drop {
		t.Errorf("race: answer %v, %v; want a pass", a, err)
	}
}
