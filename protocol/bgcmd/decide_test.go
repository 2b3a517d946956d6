package bgcmd

import (
	"context"
	"errors"
	"fmt"
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
	st := afterOpening31(t)
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

// batchRecorder answers through reply and records each batch it is sent.
type batchRecorder struct {
	reply   func(command string) (string, error)
	batches [][]string
}

func (b *batchRecorder) Do(ctx context.Context, command string, args ...string) (string, error) {
	b.batches = append(b.batches, []string{command})
	return b.reply(command)
}

func (b *batchRecorder) DoAll(ctx context.Context, cmds []protocol.Command) ([]protocol.Reply, error) {
	var names []string
	var replies []protocol.Reply
	for _, c := range cmds {
		names = append(names, c.Name)
		text, err := b.reply(c.Name)
		replies = append(replies, protocol.Reply{Text: text, Err: err})
	}
	b.batches = append(b.batches, names)
	return replies, nil
}

// DecideTurnStart asks genresign and, where a double is allowed, gencube in
// one batch after set_position; the cube's failure is its own, and an
// engine without genresign is asked nothing.
func TestDecideTurnStart(t *testing.T) {
	st := afterOpening31(t)
	answers := map[string]string{"known_command": "true", CmdGenResign: "none", CmdGenCube: "double"}
	r := &batchRecorder{reply: func(command string) (string, error) {
		if command == CmdGenCube && answers[command] == "fail" {
			return "", &protocol.FailureError{Command: command, Message: "cannot"}
		}
		return answers[command], nil
	}}
	c := NewClient(r)
	ctx := context.Background()
	ts, err := c.DecideTurnStart(ctx, st)
	if err != nil || ts.Resign != backgammon.NoResult || !ts.CubeAsked || !ts.Double || ts.CubeErr != nil {
		t.Fatalf("DecideTurnStart = %+v, %v", ts, err)
	}
	if got := fmt.Sprint(r.batches); got != "[[known_command] [set_position genresign gencube]]" {
		t.Errorf("batches %s", got)
	}
	answers[CmdGenResign], answers[CmdGenCube] = "single", "fail"
	ts, err = c.DecideTurnStart(ctx, st)
	var fe *protocol.FailureError
	if err != nil || ts.Resign != backgammon.Single || !errors.As(ts.CubeErr, &fe) {
		t.Fatalf("resigning, cube failing: %+v, %v", ts, err)
	}
	// With the cube owned by the opponent, no cube question goes.
	if err := st.Double(); err != nil {
		t.Fatal(err)
	}
	if err := st.Take(); err != nil {
		t.Fatal(err)
	}
	answers[CmdGenResign] = "none"
	r.batches = nil
	if d := st.Decision(); d != backgammon.NeedRoll || st.CanDouble() {
		t.Fatalf("after the take: waiting for %v, can double %v", d, st.CanDouble())
	}
	ts, err = c.DecideTurnStart(ctx, st)
	if err != nil || ts.CubeAsked || fmt.Sprint(r.batches) != "[[set_position genresign]]" {
		t.Fatalf("cube owned by the opponent: %+v, %v, batches %v", ts, err, r.batches)
	}
	answers["known_command"] = "false"
	c = NewClient(r)
	r.batches = nil
	if ts, err := c.DecideTurnStart(ctx, st); err != nil || ts != (TurnStart{}) || fmt.Sprint(r.batches) != "[[known_command]]" {
		t.Errorf("without genresign: %+v, %v, batches %v", ts, err, r.batches)
	}
}

// afterOpening31 is a money game with the cube after the opening 31
// played 8/5 6/5: the other player's turn, before its roll.
func afterOpening31(t *testing.T) *backgammon.State {
	t.Helper()
	st := backgammon.NewMatch(backgammon.Rules{Cube: true})
	if err := st.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	m, _ := st.ParseMove("8/5 6/5")
	if err := st.Play(m); err != nil {
		t.Fatal(err)
	}
	return st
}
