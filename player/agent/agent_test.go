package agent

import (
	"context"
	"errors"
	"os/exec"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// launchShell starts an agent written as a shell script.
func launchShell(t *testing.T, script string) *Player {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p, err := Launch(context.Background(), Options{Argv: []string{sh, "-c", script}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// opening is a money game's first move, 3-1 to play.
func opening(t *testing.T) *backgammon.State {
	t.Helper()
	s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard})
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	return s
}

// genMove sets up the opening position with 3-1 to play and asks for the
// move.
func genMove(t *testing.T, p *Player) (string, error) {
	t.Helper()
	ctx := context.Background()
	c := &bgcmd.Client{R: p}
	rules := backgammon.Rules{Variant: backgammon.Standard}
	if err := c.SetGame(ctx, bgcmd.FromRules(rules)); err != nil {
		t.Fatal(err)
	}
	s := opening(t)
	pos, mid := gnubgid.Encode(s)
	if err := c.SetPosition(ctx, pos, mid); err != nil {
		t.Fatal(err)
	}
	return p.Do(ctx, bgcmd.CmdGenMove)
}

// An action from the mask is played: the answer is a move in our
// notation.
func TestLegalActionIsPlayed(t *testing.T) {
	s := opening(t)
	req := NewRequest(s, s.Board, 0)
	action := -1
	for a, ok := range req.ActionMask {
		if ok == 1 {
			action = a
			break
		}
	}
	p := launchShell(t, `read line; echo '{"action": `+itoa(action)+`}'; sleep 5`)
	move, err := genMove(t, p)
	if err != nil || move == "" {
		t.Fatalf("move %q, %v", move, err)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// An answer that is not {"action": N}, or an action outside the mask, is
// a failure response (a forfeit for the referee); the agent exiting is
// protocol.ErrEngineExited (a void).
func TestBadAnswers(t *testing.T) {
	for _, tc := range []struct{ name, script string }{
		{"garbage", `read line; echo 'hello'; sleep 5`},
		{"no action", `read line; echo '{"move": 3}'; sleep 5`},
		{"outside the mask", `read line; echo '{"action": 0}'; sleep 5`},
	} {
		_, err := genMove(t, launchShell(t, tc.script))
		var fe *protocol.FailureError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a failure response", tc.name, err)
		}
	}
	_, err := genMove(t, launchShell(t, `read line; exit 0`))
	if !errors.Is(err, protocol.ErrEngineExited) {
		t.Errorf("an agent that exits: %v", err)
	}
}
