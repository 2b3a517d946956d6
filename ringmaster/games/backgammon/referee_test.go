package backgammon

import (
	"context"
	"errors"
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/bgstate"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// testEngine is a small rules-following engine for referee tests: it plays
// the first legal move, and its cube behaviour and misbehaviour are set by
// fields.
type testEngine struct {
	bgstate.Keeper
	doubles    bool // double whenever allowed
	drops      bool // drop every double
	beavers    bool // beaver every double
	illegal    bool // answer moves that are not legal
	failOnMove bool // answer genmove with a failure
}

func (e *testEngine) GenMove(ctx context.Context) (string, error) {
	if e.failOnMove {
		return "", errors.New("cannot think")
	}
	if e.illegal {
		return "24/1", nil
	}
	st, err := e.Need(bg.DecideMove)
	if err != nil {
		return "", err
	}
	moves := st.LegalMoves()
	if len(moves) == 0 || moves[0].N == 0 {
		return bgcmd.NoMove, nil
	}
	return bg.Format(st.Board, moves[0]), nil
}

func (e *testEngine) GenCube(ctx context.Context) (bool, error) { return e.doubles, nil }

func (e *testEngine) GenTake(ctx context.Context) (bg.Answer, error) {
	switch {
	case e.beavers:
		return bg.Beaver, nil
	case e.drops:
		return bg.Drop, nil
	}
	return bg.Take, nil
}

func seat(t *testing.T, code string, e *testEngine) referee.Seat {
	srv := protocol.NewServer(code, "1")
	bgcmd.Register(srv, e)
	p := player.NewInProcess(srv)
	t.Cleanup(func() { p.Close() })
	return referee.Seat{Code: code, Player: p}
}

func TestMoneyGameWithCube(t *testing.T) {
	ref := &Referee{Rules: bg.Rules{Cube: true, Jacoby: true}, MoveLimit: 2000}
	out, err := ref.PlayDice(context.Background(), [2]referee.Seat{seat(t, "a", &testEngine{doubles: true}), seat(t, "b", &testEngine{})}, bg.NewDice(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if out.Winner < 0 || out.Points[out.Winner] <= 0 || out.Points[0]+out.Points[1] != 0 {
		t.Fatalf("outcome %+v", out)
	}
	if out.Cube[0].Doubles == 0 || out.Cube[1].Takes != out.Cube[0].Doubles {
		t.Errorf("cube stats %+v: a doubles every time it may, b takes", out.Cube)
	}
	if err := record.Replay(out.Record); err != nil {
		t.Errorf("the game record does not replay: %v", err)
	}
}

// Under a cube limit of 8, two players that redouble whenever they may
// stop at 8: three doubles, and the engines are told the limit.
func TestMoneyCubeLimit(t *testing.T) {
	ref := &Referee{Rules: bg.Rules{Cube: true, CubeLimit: 8}, MoveLimit: 2000}
	a, b := &testEngine{doubles: true}, &testEngine{doubles: true}
	out, err := ref.PlayDice(context.Background(), [2]referee.Seat{seat(t, "a", a), seat(t, "b", b)}, bg.NewDice(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if d := out.Cube[0].Doubles + out.Cube[1].Doubles; d != 3 {
		t.Errorf("%d doubles under a limit of 8, want 3 (2, 4, 8): %+v", d, out.Cube)
	}
	if p := out.Points[out.Winner]; p != 8 && p != 16 && p != 24 {
		t.Errorf("the winner scored %v points, want 8 times the result level", p)
	}
	if got := a.GameRules().CubeLimit; got != 8 {
		t.Errorf("the engine was told a cube limit of %d, want 8", got)
	}
	if err := record.Replay(out.Record); err != nil {
		t.Errorf("the game record does not replay: %v", err)
	}
}

func TestSameDiceSameGame(t *testing.T) {
	ref := &Referee{Rules: bg.Rules{MatchLength: 5, Cube: true, Crawford: true}}
	play := func() Outcome {
		out, err := ref.PlayDice(context.Background(), [2]referee.Seat{seat(t, "a", &testEngine{doubles: true}), seat(t, "b", &testEngine{})}, bg.NewDice(9, 9))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	x, y := play(), play()
	if x.Detail != y.Detail || x.Moves != y.Moves || x.Score != y.Score {
		t.Errorf("the same dice gave different matches: %q vs %q", x.Detail, y.Detail)
	}
	if x.Result != ResultMatch || x.Score[x.Winner] < 5 {
		t.Errorf("match outcome %+v", x)
	}
}

func TestForfeits(t *testing.T) {
	cases := []struct {
		name   string
		bad    *testEngine
		rules  bg.Rules
		points int
	}{
		{"illegal move, money", &testEngine{illegal: true}, bg.Rules{Cube: true}, 3},
		{"failure response, money", &testEngine{failOnMove: true}, bg.Rules{Cube: true}, 3},
		{"beaver not allowed", &testEngine{beavers: true}, bg.Rules{Cube: true}, 3},
		{"illegal move, match", &testEngine{illegal: true}, bg.Rules{Cube: true, MatchLength: 7, Crawford: true}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			good := &testEngine{doubles: c.bad.beavers}
			ref := &Referee{Rules: c.rules}
			out, err := ref.PlayDice(context.Background(), [2]referee.Seat{seat(t, "good", good), seat(t, "bad", c.bad)}, bg.NewDice(3, 4))
			if err != nil {
				t.Fatal(err)
			}
			if out.ForfeitBy != 1 || out.Winner != 0 || out.Result != referee.ResultForfeit || out.Points[0] != float64(c.points) {
				t.Errorf("outcome %+v, want a forfeit by seat 1 worth %d", out, c.points)
			}
			if !c.rules.Money() && out.Score[0] < c.rules.MatchLength {
				t.Errorf("match forfeit should award the match: score %v", out.Score)
			}
		})
	}
}

func TestMaxMovesUnknown(t *testing.T) {
	ref := &Referee{Rules: bg.Rules{}, MoveLimit: 10}
	out, err := ref.PlayDice(context.Background(), [2]referee.Seat{seat(t, "a", &testEngine{}), seat(t, "b", &testEngine{})}, bg.NewDice(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.Result != referee.ResultUnknown || out.Winner != -1 || out.Points != [2]float64{} {
		t.Errorf("outcome %+v, want unknown", out)
	}
}

func TestEngineGoneIsVoid(t *testing.T) {
	a := seat(t, "a", &testEngine{})
	b := seat(t, "b", &testEngine{})
	b.Player.Close()
	_, err := (&Referee{Rules: bg.Rules{}}).PlayDice(context.Background(), [2]referee.Seat{a, b}, bg.NewDice(1, 1))
	var ve *referee.VoidError
	if !errors.As(err, &ve) || ve.Seat != 1 || !errors.Is(err, referee.ErrVoid) {
		t.Fatalf("closed engine: %v, want a void blamed on seat 1", err)
	}
	if !strings.Contains(ve.Error(), "player b") {
		t.Errorf("void error %q does not name the player", ve.Error())
	}
}

// resigningEngine resigns at a level at every turn it is asked, and
// answers resignations as told; asked counts its genresign calls.
type resigningEngine struct {
	testEngine
	level  bg.Result
	accept bool
	asked  int
}

func (e *resigningEngine) GenResign(ctx context.Context) (bg.Result, error) {
	if _, err := e.Need(bg.DecideCube, bg.NeedRoll); err != nil {
		return bg.NoResult, err
	}
	e.asked++
	return e.level, nil
}

func (e *resigningEngine) GenAccept(ctx context.Context) (bool, error) {
	if _, err := e.Need(bg.DecideResign); err != nil {
		return false, err
	}
	return e.accept, nil
}

func resignSeat(t *testing.T, code string, e bgcmd.Engine) referee.Seat {
	srv := protocol.NewServer(code, "1")
	bgcmd.Register(srv, e)
	p := player.NewInProcess(srv)
	t.Cleanup(func() { p.Close() })
	return referee.Seat{Code: code, Player: p}
}

// Engines that know genresign are asked once a turn; an accepted
// resignation ends the game at its level, a declined one lets play go on,
// and an opponent that knows neither genaccept nor evaluate declines.
func TestResignations(t *testing.T) {
	ctx := context.Background()
	rules := bg.Rules{Cube: true}

	a := &resigningEngine{level: bg.Gammon}
	out, err := (&Referee{Rules: rules}).PlayDice(ctx, [2]referee.Seat{resignSeat(t, "a", a), resignSeat(t, "b", &resigningEngine{accept: true})}, bg.NewDice(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Resigned || out.Winner != 1 || out.Points != [2]float64{-2, 2} || out.Level != bg.Gammon || a.asked != 1 {
		t.Fatalf("accepted gammon resignation: %+v (a asked %d times)", out, a.asked)
	}
	if g := out.generic("e", nil); g.Ending != referee.EndResignation {
		t.Errorf("ending %q", g.Ending)
	}
	acts := out.Record.Games[0].Actions
	if n := len(acts); n < 2 || acts[n-2].Kind != record.Resign || acts[n-2].Level != bg.Gammon || acts[n-1].Kind != record.AcceptResignation {
		t.Errorf("record ends %+v", acts[max(0, n-2):])
	}
	if err := record.Replay(out.Record); err != nil {
		t.Errorf("the record does not replay: %v", err)
	}

	for name, b := range map[string]bgcmd.Engine{"declines": &resigningEngine{accept: false}, "cannot answer": &testEngine{}} {
		a := &resigningEngine{level: bg.Single}
		out, err := (&Referee{Rules: rules, MoveLimit: 3000}).PlayDice(ctx, [2]referee.Seat{resignSeat(t, "a", a), resignSeat(t, "b", b)}, bg.NewDice(4, 4))
		if err != nil {
			t.Fatal(err)
		}
		// Play went on to the end, a offering a single at each of its turns.
		if out.Resigned || out.Winner < 0 || a.asked < 2 || a.asked > out.Moves {
			t.Errorf("%s: %+v, a asked %d times in %d moves", name, out, a.asked, out.Moves)
		}
		if err := record.Replay(out.Record); err != nil {
			t.Errorf("%s: the record does not replay: %v", name, err)
		}
	}

	// A level outside single..backgammon is a failure response: a forfeit.
	bad := &resigningEngine{level: bg.Result(7)}
	out, err = (&Referee{Rules: rules}).PlayDice(ctx, [2]referee.Seat{resignSeat(t, "good", &testEngine{}), resignSeat(t, "bad", bad)}, bg.NewDice(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	if out.ForfeitBy != 1 || !strings.Contains(out.Detail, "genresign") {
		t.Errorf("bad resignation level: %+v", out)
	}
}
