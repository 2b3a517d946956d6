package bgcmd

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol"
)

func TestGameRulesArgsAndParse(t *testing.T) {
	tests := []struct {
		rules GameRules
		args  string
	}{
		{GameRules{Variant: "standard"}, "standard 0"},
		{GameRules{Variant: "standard", MatchLength: 7, Crawford: true}, "standard 7 crawford"},
		{GameRules{Variant: "nackgammon", Jacoby: true, Beavers: true}, "nackgammon 0 jacoby beavers"},
		{GameRules{Variant: "hypergammon3", MatchLength: 1, Cubeless: true}, "hypergammon3 1 cubeless"},
		{GameRules{Variant: "hypergammon1", Cubeless: true}, "hypergammon1 0 cubeless"},
		{GameRules{Variant: "standard", Jacoby: true, MaxCube: 64}, "standard 0 jacoby max_cube=64"},
	}
	for _, tt := range tests {
		if got := strings.Join(tt.rules.Args(), " "); got != tt.args {
			t.Errorf("%+v.Args() = %q, want %q", tt.rules, got, tt.args)
		}
		got, err := ParseGameRules(tt.rules.Args())
		if err != nil || got != tt.rules {
			t.Errorf("ParseGameRules(%q) = %+v, %v", tt.args, got, err)
		}
	}
	// Case and order do not matter.
	got, err := ParseGameRules([]string{"Standard", "0", "BEAVERS", "jacoby"})
	if want := (GameRules{Variant: "standard", Jacoby: true, Beavers: true}); err != nil || got != want {
		t.Errorf("mixed case = %+v, %v", got, err)
	}
}

func TestParseGameRulesErrors(t *testing.T) {
	bad := []string{
		"",
		"standard",
		"chess 0",
		"standard -1",
		"standard x",
		"standard 7.5",
		"standard 99999999999",
		"standard 40000",
		"standard 7 crawford crawford",
		"standard 7 postcrawford",
		"standard 0 crawford",
		"standard 7 jacoby",
		"standard 7 beavers",
		"standard 0 cubeless jacoby",
		"standard 7 crawford cubeless",
		"standard 0 max_cube=",
		"standard 0 max_cube=0",
		"standard 0 max_cube=1",
		"standard 0 max_cube=48",
		"standard 0 max_cube=32768",
		"standard 0 max_cube=-4",
		"standard 0 max_cube=4 max_cube=4",
		"standard 7 max_cube=4",
		"standard 0 cubeless max_cube=4",
	}
	for _, b := range bad {
		if r, err := ParseGameRules(strings.Fields(b)); err == nil {
			t.Errorf("ParseGameRules(%q) = %+v, want error", b, r)
		}
	}
}

func TestCheckMoveSyntax(t *testing.T) {
	good := []string{"none", "24/18 13/11", "bar/22*", "6/off", "8/4(2)", "bar/20 20/14*/10",
		"13/7(2) 6/off(2)", "24/23 24/23 13/12 13/12", "25/off", "bar/22*/16"}
	for _, m := range good {
		if err := CheckMoveSyntax(m); err != nil {
			t.Errorf("CheckMoveSyntax(%q) = %v", m, err)
		}
	}
	bad := []string{"", "pass", "24-18", "24/", "/18", "24/18/", "8/4(5)", "off/6", "24/18 ", "124/18", "24/18**"}
	for _, m := range bad {
		if CheckMoveSyntax(m) == nil {
			t.Errorf("CheckMoveSyntax(%q) = nil, want error", m)
		}
	}
	if got := NormalizeMove("  Bar/22*   13/11\t"); got != "bar/22* 13/11" {
		t.Errorf("NormalizeMove = %q", got)
	}
}

func TestEvaluationFormatParse(t *testing.T) {
	v := [6]float64{0.55, 0.15, 0.01, 0.12, 0.005, 0.123456}
	got, err := ParseEvaluation(FormatEvaluation(v))
	if err != nil || got != v {
		t.Errorf("round trip = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0.5 0.1 0 0.1 0", "0.5 0.1 0 0.1 0 0.1 0.2", "x 0 0 0 0 0", "NaN 0 0 0 0 0",
		"0.5 0 0 0 0 Inf", "1.5 0 0 0 0 0", "-0.1 0 0 0 0 0"} {
		if _, err := ParseEvaluation(bad); err == nil {
			t.Errorf("ParseEvaluation(%q) succeeded", bad)
		}
	}
}

// fakeBG records what it is told and answers from its fields.
type fakeBG struct {
	rules    GameRules
	pos, mid string
	move     string
	double   bool
	take     backgammon.Answer
	err      error
}

func (f *fakeBG) SetGame(r GameRules) error { f.rules = r; return nil }
func (f *fakeBG) SetPosition(p, m string) error {
	if f.err != nil {
		return f.err
	}
	f.pos, f.mid = p, m
	return nil
}
func (f *fakeBG) GenMove(context.Context) (string, error)            { return f.move, nil }
func (f *fakeBG) GenCube(context.Context) (bool, error)              { return f.double, nil }
func (f *fakeBG) GenTake(context.Context) (backgammon.Answer, error) { return f.take, nil }

type fakeBGEval struct{ fakeBG }

func (f *fakeBGEval) Evaluate(context.Context) ([6]float64, error) {
	return [6]float64{0.6, 0.2, 0.01, 0.1, 0.002, 0.35}, nil
}

func TestClientServerRoundTrip(t *testing.T) {
	eng := &fakeBGEval{fakeBG{move: "Bar/22*  13/11", double: true, take: backgammon.Beaver}}
	srv := protocol.NewServer("bg", "1")
	Register(srv, eng)
	b := NewClient(connect(t, srv, protocol.ControllerOptions{SendIDs: true}).WithTimeout(10 * time.Second))
	ctx := context.Background()
	rules := GameRules{Variant: "standard", MatchLength: 7, Crawford: true}
	if err := b.SetGame(ctx, rules); err != nil {
		t.Fatal(err)
	}
	if eng.rules != rules {
		t.Errorf("engine got rules %+v", eng.rules)
	}
	if err := b.SetPosition(ctx, "4HPwATDgc/ABMA", "cAkAAAAAAAAA"); err != nil {
		t.Fatal(err)
	}
	if eng.pos != "4HPwATDgc/ABMA" || eng.mid != "cAkAAAAAAAAA" {
		t.Errorf("engine got %q %q", eng.pos, eng.mid)
	}
	if m, err := b.GenMove(ctx); err != nil || m != "bar/22* 13/11" {
		t.Errorf("GenMove = %q, %v", m, err)
	}
	if d, err := b.GenCube(ctx); err != nil || !d {
		t.Errorf("GenCube = %v, %v", d, err)
	}
	if d, err := b.GenTake(ctx); err != nil || d != backgammon.Beaver {
		t.Errorf("GenTake = %v, %v", d, err)
	}
	if v, err := b.Evaluate(ctx); err != nil || v != [6]float64{0.6, 0.2, 0.01, 0.1, 0.002, 0.35} {
		t.Errorf("Evaluate = %v, %v", v, err)
	}
	eng.move, eng.double = "none", false
	if m, err := b.GenMove(ctx); err != nil || m != NoMove {
		t.Errorf("GenMove = %q, %v", m, err)
	}
	if d, err := b.GenCube(ctx); err != nil || d {
		t.Errorf("GenCube = %v, %v", d, err)
	}
	eng.err = errors.New("bad position ID")
	err := b.SetPosition(ctx, "xxxx", "yyyy")
	var fe *protocol.FailureError
	if !errors.As(err, &fe) || fe.Message != "bad position ID" {
		t.Errorf("SetPosition error = %v", err)
	}
	// Server-side argument checks.
	for _, cmd := range [][]string{{"set_game", "chess", "0"}, {"set_position", "a"}, {"genmove", "white"}, {"gencube", "x"}} {
		if _, err := b.R.Do(ctx, cmd[0], cmd[1:]...); !errors.As(err, &fe) {
			t.Errorf("%q: error = %v, want failure", cmd, err)
		}
	}
	// Client-side argument checks send nothing.
	if err := b.SetGame(ctx, GameRules{Variant: "chess"}); err == nil {
		t.Error("SetGame(chess) succeeded")
	}
	if err := b.SetPosition(ctx, "has space", "x"); err == nil {
		t.Error("SetPosition with space succeeded")
	}
	if err := b.SetPosition(ctx, "x", ""); err == nil {
		t.Error("SetPosition with empty match ID succeeded")
	}
}

func TestRegisterWithoutEvaluator(t *testing.T) {
	srv := protocol.NewServer("bg", "1")
	Register(srv, &fakeBG{})
	got := strings.Join(srv.Commands(), " ")
	want := "gencube genmove gentake known_command list_commands name protocol_version quit set_game set_position version"
	if got != want {
		t.Errorf("commands = %q, want %q", got, want)
	}
	srv = protocol.NewServer("bg", "1")
	Register(srv, &fakeBGEval{})
	if !strings.Contains(strings.Join(srv.Commands(), " "), "evaluate") {
		t.Error("evaluate not registered")
	}
}

func TestStrictReplies(t *testing.T) {
	tests := []struct {
		cmd, reply string
		call       func(b *Client) error
	}{
		{"gencube", "yes", func(b *Client) error { _, err := b.GenCube(context.Background()); return err }},
		{"gencube", "double please", func(b *Client) error { _, err := b.GenCube(context.Background()); return err }},
		{"gencube", "", func(b *Client) error { _, err := b.GenCube(context.Background()); return err }},
		{"gentake", "accept", func(b *Client) error { _, err := b.GenTake(context.Background()); return err }},
		{"genmove", "", func(b *Client) error { _, err := b.GenMove(context.Background()); return err }},
		{"genmove", "e2e4", func(b *Client) error { _, err := b.GenMove(context.Background()); return err }},
		{"genmove", "24/18\n13/11", func(b *Client) error { _, err := b.GenMove(context.Background()); return err }},
		{"evaluate", "0.5 0.1", func(b *Client) error { _, err := b.Evaluate(context.Background()); return err }},
	}
	for _, tt := range tests {
		srv := protocol.NewServer("bg", "1")
		reply := tt.reply
		srv.HandleFunc(tt.cmd, func(context.Context, []string) (string, error) { return reply, nil })
		b := NewClient(connect(t, srv, protocol.ControllerOptions{}).WithTimeout(10 * time.Second))
		err := tt.call(b)
		var pe *protocol.ReplyError
		if !errors.As(err, &pe) || pe.Command != tt.cmd {
			t.Errorf("%s answering %q: error = %v, want ReplyError", tt.cmd, tt.reply, err)
		}
	}
	// Case-insensitive words are accepted.
	srv := protocol.NewServer("bg", "1")
	srv.HandleFunc("gencube", func(context.Context, []string) (string, error) { return "NO_DOUBLE", nil })
	srv.HandleFunc("gentake", func(context.Context, []string) (string, error) { return "Take", nil })
	b := NewClient(connect(t, srv, protocol.ControllerOptions{}).WithTimeout(10 * time.Second))
	if d, err := b.GenCube(context.Background()); err != nil || d {
		t.Errorf("GenCube = %v, %v", d, err)
	}
	if d, err := b.GenTake(context.Background()); err != nil || d != backgammon.Take {
		t.Errorf("GenTake = %v, %v", d, err)
	}
}

func TestRulesConversion(t *testing.T) {
	for _, r := range []backgammon.Rules{
		{Variant: backgammon.Standard, Cube: true},
		{Variant: backgammon.Nackgammon, Cube: true, Jacoby: true, Beavers: true},
		{Variant: backgammon.Standard, MatchLength: 7, Cube: true, Crawford: true},
		{Variant: backgammon.Hypergammon3, MatchLength: 3},
		{Variant: backgammon.Hypergammon1},
		{Variant: backgammon.Standard, Cube: true, Jacoby: true, CubeLimit: 64},
	} {
		gr := FromRules(r)
		if err := gr.Validate(); err != nil {
			t.Errorf("FromRules(%+v) = %+v, invalid: %v", r, gr, err)
		}
		back, err := gr.Rules()
		if err != nil || back != r {
			t.Errorf("FromRules(%+v).Rules() = %+v, %v", r, back, err)
		}
	}
	// Options that mean nothing under the rules are not sent.
	for _, r := range []backgammon.Rules{
		{MatchLength: 5, Cube: true, Crawford: true, Jacoby: true, Beavers: true},
		{Cube: true, Crawford: true},
		{MatchLength: 5, Crawford: true},
		{Jacoby: true, Beavers: true},
		{MatchLength: 5, Cube: true, CubeLimit: 8},
		{CubeLimit: 8},
		{Cube: true, CubeLimit: backgammon.MaxCube},
	} {
		gr := FromRules(r)
		if err := gr.Validate(); err != nil {
			t.Errorf("FromRules(%+v) = %+v, invalid: %v", r, gr, err)
		}
	}
	if _, err := (GameRules{Variant: "chess"}).Rules(); err == nil {
		t.Error("GameRules{chess}.Rules() succeeded")
	}
}

// requesterFunc adapts a function to Requester.
type requesterFunc func(ctx context.Context, command string, args ...string) (string, error)

func (f requesterFunc) Do(ctx context.Context, command string, args ...string) (string, error) {
	return f(ctx, command, args...)
}

func TestClientOverRequester(t *testing.T) {
	var sent []string
	b := &Client{R: requesterFunc(func(_ context.Context, command string, args ...string) (string, error) {
		sent = append(sent, strings.Join(append([]string{command}, args...), " "))
		switch command {
		case CmdGenMove:
			return "6/off(2)", nil
		case CmdGenCube:
			return "maybe", nil
		}
		return "", nil
	})}
	ctx := context.Background()
	if err := b.SetGame(ctx, GameRules{Variant: "standard", MatchLength: 3}); err != nil {
		t.Fatal(err)
	}
	if m, err := b.GenMove(ctx); err != nil || m != "6/off(2)" {
		t.Errorf("GenMove = %q, %v", m, err)
	}
	var pe *protocol.ReplyError
	if _, err := b.GenCube(ctx); !errors.As(err, &pe) {
		t.Errorf("GenCube error = %v, want ReplyError", err)
	}
	if want := "set_game standard 3,genmove,gencube"; strings.Join(sent, ",") != want {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

// connect serves srv over pipes and returns a controller talking to it.
func connect(t *testing.T, srv *protocol.Server, opts protocol.ControllerOptions) *protocol.Controller {
	t.Helper()
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := srv.Serve(context.Background(), cmdR, respW)
		respW.Close()
		done <- err
	}()
	c := protocol.NewController(respR, cmdW, opts)
	t.Cleanup(func() {
		c.Close()
		cmdW.Close()
		respR.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return")
		}
	})
	return c
}

// A reply that breaks a command's grammar is a ReplyError, not a framing
// error: the controller stays usable and the next command is answered.
func TestReplyErrorLeavesControllerUsable(t *testing.T) {
	srv := protocol.NewServer("bg", "1")
	srv.HandleFunc(CmdGenCube, func(context.Context, []string) (string, error) { return "maybe", nil })
	srv.HandleFunc(CmdGenTake, func(context.Context, []string) (string, error) { return "drop", nil })
	c := connect(t, srv, protocol.ControllerOptions{})
	b := NewClient(c.WithTimeout(10 * time.Second))
	_, err := b.GenCube(context.Background())
	var re *protocol.ReplyError
	if !errors.As(err, &re) || re.Command != CmdGenCube || re.Reply != "maybe" {
		t.Fatalf("GenCube error = %#v, want ReplyError for gencube with reply maybe", err)
	}
	var pe *protocol.ProtocolError
	if errors.As(err, &pe) {
		t.Errorf("GenCube error %v is also a ProtocolError", err)
	}
	if c.Err() != nil {
		t.Errorf("controller broken after a reply error: %v", c.Err())
	}
	if d, err := b.GenTake(context.Background()); err != nil || d != backgammon.Drop {
		t.Errorf("GenTake after the reply error = %v, %v", d, err)
	}
}
