package bgcmd

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// The decision path tells the engine the position, then takes only a
// legal move; an illegal one is an *IllegalMoveError.
func TestDecideMove(t *testing.T) {
	st := backgammon.NewMatch(backgammon.Rules{MatchLength: 5, Crawford: true, Cube: true})
	if err := st.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	reply := "8/5 6/5"
	var sent []string
	c := &Client{R: requesterFunc(func(_ context.Context, command string, args ...string) (string, error) {
		sent = append(sent, strings.Join(append([]string{command}, args...), " "))
		switch command {
		case CmdGenMove:
			return reply, nil
		case CmdGenCube:
			return "double", nil
		case CmdEvaluate:
			return "0.01 0 0 0.5 0.1 -1.6", nil
		}
		return "", nil
	})}
	ctx := context.Background()
	m, err := c.DecideMove(ctx, st)
	if err != nil || backgammon.Format(st.Board, m) != "8/5 6/5" {
		t.Fatalf("DecideMove = %v, %v", m, err)
	}
	pos, mid := gnubgid.Encode(st)
	if sent[0] != "set_position "+pos+" "+mid || sent[1] != CmdGenMove {
		t.Fatalf("sent %q", sent)
	}
	reply = "24/18 13/11" // not a 31
	var ie *IllegalMoveError
	if _, err := c.DecideMove(ctx, st); !errors.As(err, &ie) || ie.Move != reply {
		t.Fatalf("illegal move: %v", err)
	}
	// No double is asked for when the rules allow none (the dice are rolled).
	sent = nil
	if d, err := c.DecideDouble(ctx, st); d || err != nil || len(sent) != 0 {
		t.Fatalf("DecideDouble after the roll = %v, %v, sent %q", d, err, sent)
	}
	// A resigner that loses a gammon half the time: a single is not enough.
	if err := st.Resign(backgammon.Single); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.DecideResignation(ctx, st); ok || err != nil {
		t.Fatalf("DecideResignation(single) = %v, %v", ok, err)
	}
}
