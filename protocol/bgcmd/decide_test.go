package bgcmd

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol"
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
		case "known_command": // evaluate only: resignations are judged by it
			return strconv.FormatBool(args[0] == CmdEvaluate), nil
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
	sent = nil
	if ok, err := c.DecideResignation(ctx, st); ok || err != nil {
		t.Fatalf("DecideResignation(single) = %v, %v", ok, err)
	}
	// evaluate is asked with the offer withdrawn: the resigner on roll.
	onRoll := *st
	onRoll.Resigned, onRoll.Turn = backgammon.NoResult, st.Move
	pos, mid = gnubgid.Encode(&onRoll)
	if want := []string{"known_command genaccept", "known_command evaluate", "set_position " + pos + " " + mid, CmdEvaluate}; strings.Join(sent, "|") != strings.Join(want, "|") {
		t.Errorf("sent %q, want %q", sent, want)
	}
	// known_command is asked once per command.
	sent = nil
	if _, err := c.DecideResignation(ctx, st); err != nil || len(sent) != 2 {
		t.Errorf("second DecideResignation sent %q (%v)", sent, err)
	}
}

// Resignations go through genresign and genaccept where the engine knows
// them; an engine that does not know genresign is never asked.
func TestDecideResign(t *testing.T) {
	st := backgammon.NewMatch(backgammon.Rules{Cube: true})
	if err := st.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	m, _ := st.ParseMove("8/5 6/5")
	if err := st.Play(m); err != nil {
		t.Fatal(err)
	}
	replies := map[string]string{"known_command": "true", CmdGenResign: "gammon", CmdGenAccept: "Decline"}
	var sent []string
	c := &Client{R: requesterFunc(func(_ context.Context, command string, args ...string) (string, error) {
		sent = append(sent, command)
		return replies[command], nil
	})}
	ctx := context.Background()
	if level, err := c.DecideResign(ctx, st); level != backgammon.Gammon || err != nil {
		t.Fatalf("DecideResign = %v, %v", level, err)
	}
	if err := st.Resign(backgammon.Gammon); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DecideResign(ctx, st); err == nil {
		t.Error("DecideResign with a resignation on offer should fail")
	}
	if ok, err := c.DecideResignation(ctx, st); ok || err != nil {
		t.Fatalf("DecideResignation = %v, %v", ok, err)
	}
	replies[CmdGenAccept] = "maybe"
	var re *protocol.ReplyError
	if _, err := c.DecideResignation(ctx, st); !errors.As(err, &re) || re.Command != CmdGenAccept {
		t.Errorf("genaccept maybe: %v", err)
	}
	if err := st.DeclineResignation(); err != nil {
		t.Fatal(err)
	}
	replies[CmdGenResign] = "normal"
	if _, err := c.DecideResign(ctx, st); !errors.As(err, &re) || re.Command != CmdGenResign {
		t.Errorf("genresign normal: %v", err)
	}
	// An engine without genresign: asked known_command once, then never
	// anything more.
	replies["known_command"] = "false"
	c = &Client{R: c.R}
	sent = nil
	for range 3 {
		if level, err := c.DecideResign(ctx, st); level != backgammon.NoResult || err != nil {
			t.Fatalf("DecideResign without genresign = %v, %v", level, err)
		}
	}
	if len(sent) != 1 {
		t.Errorf("sent %q", sent)
	}
	replies["known_command"] = "yes"
	c = &Client{R: c.R}
	if _, err := c.Knows(ctx, CmdGenResign); !errors.As(err, &re) {
		t.Errorf("known_command yes: %v", err)
	}
}
