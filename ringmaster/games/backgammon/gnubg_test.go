package backgammon

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// These tests referee real gnubg (through player/gnubg's adapter) against
// a random engine: the adapter, the referee and gnubg's own play together.

func launchGnubg(t *testing.T) player.Player {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := gnubg.Launch(ctx, gnubg.Options{Binary: peertest.Gnubg(t), Timeout: time.Minute})
	if err != nil {
		t.Fatalf("launch gnubg: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// randomEngine is a simple in-test opponent: random legal moves, and cube
// actions drawn from a seeded source so that gnubg meets doubles, takes and
// drops.
type randomEngine struct {
	rules bg.Rules
	st    *bg.State
	rng   *rand.Rand
}

func newRandomEngine(seed uint64) *randomEngine {
	return &randomEngine{rng: rand.New(rand.NewPCG(seed, 7))}
}

func (e *randomEngine) SetGame(r bgcmd.GameRules) error {
	rules, err := r.Rules()
	e.rules = rules
	return err
}

func (e *randomEngine) SetPosition(pos, match string) error {
	st, err := gnubgid.DecodeState(pos, match, e.rules)
	if err != nil {
		return err
	}
	e.st = st
	return nil
}

func (e *randomEngine) GenMove(context.Context) (string, error) {
	moves := e.st.LegalMoves()
	m := moves[e.rng.IntN(len(moves))]
	if m.N == 0 {
		return bgcmd.NoMove, nil
	}
	return bg.Format(e.st.Board, m), nil
}

func (e *randomEngine) GenCube(context.Context) (bool, error) {
	return e.st.CanDouble() && e.rng.IntN(6) == 0, nil
}

func (e *randomEngine) GenTake(context.Context) (bg.Answer, error) {
	if e.rng.IntN(3) == 0 {
		return bg.Drop, nil
	}
	return bg.Take, nil
}

func newRandomPlayer(seed uint64) player.Player {
	srv := protocol.NewServer("random", "1")
	bgcmd.Register(srv, newRandomEngine(seed))
	return player.NewInProcess(srv)
}

// playGames has gnubg play n games (or matches) against the random
// engine, alternating seats, and checks that gnubg never forfeits.
func playGames(t *testing.T, rules bg.Rules, n int) (gnubgPoints int, cube CubeStats) {
	t.Helper()
	gp := launchGnubg(t)
	rp := newRandomPlayer(uint64(n))
	defer rp.Close()
	ref := &Referee{Rules: rules, MoveLimit: 2000,
		Log: func(format string, args ...any) { t.Errorf("referee: "+format, args...) }}
	ctx := context.Background()
	for i := range n {
		g := i % 2 // gnubg's seat
		var seats [2]referee.Seat
		seats[g] = referee.Seat{Code: "gnubg", Player: gp}
		seats[1-g] = referee.Seat{Code: "random", Player: rp}
		out, err := ref.PlayDice(ctx, seats, bg.NewDice(uint64(i)+1, 99))
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if out.ForfeitBy >= 0 || out.Result == referee.ResultForfeit || out.Result == referee.ResultUnknown {
			t.Fatalf("game %d (gnubg seat %d): %s", i, g, out.Detail)
		}
		if out.Decisions[g] == 0 {
			t.Fatalf("game %d: gnubg made no decision", i)
		}
		gnubgPoints += int(out.Points[g])
		c := out.Cube[g]
		cube.Doubles += c.Doubles
		cube.Takes += c.Takes
		cube.Drops += c.Drops
		cube.Beavers += c.Beavers
	}
	return gnubgPoints, cube
}

func TestMoneyGamesWithCube(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	pts, cube := playGames(t, bg.Rules{Variant: bg.Standard, Cube: true, Jacoby: true, Beavers: true}, n)
	t.Logf("gnubg won %d points in %d money games against random play; its cube actions %+v", pts, n, cube)
	if pts <= 0 {
		t.Errorf("gnubg lost %d points to random play", pts)
	}
	if cube.Doubles == 0 || cube.Takes+cube.Drops+cube.Beavers == 0 {
		t.Errorf("gnubg made no double or no take decision: %+v", cube)
	}
}

func TestThreePointMatches(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 4
	}
	pts, cube := playGames(t, bg.Rules{Variant: bg.Standard, MatchLength: 3, Cube: true, Crawford: true}, n)
	t.Logf("gnubg's match balance %+d in %d 3-point matches; its cube actions %+v", pts, n, cube)
	if pts <= 0 {
		t.Errorf("gnubg's match balance %d against random play", pts)
	}
}

func TestExampleControlFile(t *testing.T) {
	c, err := control.Load("../../../examples/bgbot-vs-gnubg.toml", New())
	if err != nil {
		t.Fatal(err)
	}
	g := c.Players["gnubg"]
	if g == nil || g.Kind != control.KindGnubg || g.Plies != 0 {
		t.Errorf("gnubg player: %+v", g)
	}
	if len(c.Matchups) != 1 {
		t.Fatalf("%d matchups", len(c.Matchups))
	}
	t.Logf("%+v", *c.Matchups[0])
}
