package gnubg

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// launch starts gnubg at 0-ply (unless o says otherwise) and closes it when
// the test ends.
func launch(t testing.TB, o Options) *Player {
	t.Helper()
	o.Binary = peertest.Gnubg(t)
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := Launch(ctx, o)
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() {
		start := time.Now()
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Close took %v", d)
		}
	})
	return p
}

// board builds a position from the view of the player on roll: points
// (1..24, 25 = bar) to checker counts for each side.
func board(onRoll, opp map[int]int) bg.Board {
	var b bg.Board
	for p, n := range onRoll {
		b[bg.OnRoll][p-1] = int8(n)
	}
	for p, n := range opp {
		b[bg.Opponent][p-1] = int8(n)
	}
	return b
}

// state is a game in progress with player mover on roll.
func state(rules bg.Rules, b bg.Board, mover int, dice [2]int) *bg.State {
	s := bg.NewMatch(rules)
	s.GameState = bg.GamePlaying
	s.Board, s.Move, s.Turn, s.Dice = b, mover, mover, dice
	return s
}

// client sets the rules and the position on p and returns a client for
// the decision.
func client(t *testing.T, p player.Player, s *bg.State) *bgcmd.Client {
	t.Helper()
	c := &bgcmd.Client{R: p}
	ctx := context.Background()
	if err := c.SetGame(ctx, bgcmd.FromRules(s.Rules)); err != nil {
		t.Fatalf("set_game: %v", err)
	}
	pos, mid := gnubgid.Encode(s)
	if err := c.SetPosition(ctx, pos, mid); err != nil {
		t.Fatalf("set_position %s %s: %v", pos, mid, err)
	}
	return c
}

var money = bg.Rules{Variant: bg.Standard, Cube: true, Jacoby: true}

// A race the player on roll wins almost surely (three rolls against six,
// no gammon possible), and its mirror.
var (
	raceAhead  = board(map[int]int{1: 2, 2: 2, 3: 2}, map[int]int{4: 4, 5: 4, 6: 4})
	raceBehind = raceAhead.Swap()
)

func TestCubeDecisions(t *testing.T) {
	ctx := context.Background()
	for _, seat := range []int{0, 1} {
		t.Run(fmt.Sprintf("gnubg player %d", seat), func(t *testing.T) {
			p := launch(t, Options{})
			// Far ahead: double.
			d, err := client(t, p, state(money, raceAhead, seat, [2]int{})).GenCube(ctx)
			if err != nil || !d {
				t.Errorf("far ahead in the race: double = %v, %v; want double", d, err)
			}
			// Far behind: no double.
			d, err = client(t, p, state(money, raceBehind, seat, [2]int{})).GenCube(ctx)
			if err != nil || d {
				t.Errorf("far behind in the race: double = %v, %v; want no double", d, err)
			}
			// Facing a double from the player far ahead: drop.
			s := state(money, raceAhead, 1-seat, [2]int{})
			if err := s.Double(); err != nil {
				t.Fatal(err)
			}
			a, err := client(t, p, s).GenTake(ctx)
			if err != nil || a != bg.Drop {
				t.Errorf("doubled by the player far ahead: %v, %v; want drop", a, err)
			}
			// Doubled by the player far behind: take, or beaver when allowed.
			for _, beavers := range []bool{false, true} {
				r := money
				r.Beavers = beavers
				s := state(r, raceBehind, 1-seat, [2]int{})
				if err := s.Double(); err != nil {
					t.Fatal(err)
				}
				want := bg.Take
				if beavers {
					want = bg.Beaver
				}
				a, err := client(t, p, s).GenTake(ctx)
				if err != nil || a != want {
					t.Errorf("doubled by the player far behind, beavers %v: %v, %v; want %v", beavers, a, err, want)
				}
			}
			// Owning the cube and far ahead: redouble.
			s = state(money, raceAhead, seat, [2]int{})
			s.CubeValue, s.CubeOwner = 2, seat
			if d, err := client(t, p, s).GenCube(ctx); err != nil || !d {
				t.Errorf("owning the cube, far ahead: %v, %v; want double", d, err)
			}
			// Post-Crawford, the trailer doubles at once; the leader at
			// match point has no reason to double.
			match := bg.Rules{Variant: bg.Standard, MatchLength: 3, Cube: true, Crawford: true}
			s = state(match, bg.Standard.StartBoard(), seat, [2]int{})
			s.Score[1-seat], s.PostCrawford = 2, true
			if d, err := client(t, p, s).GenCube(ctx); err != nil || !d {
				t.Errorf("post-Crawford trailer: %v, %v; want double", d, err)
			}
			s.Score[1-seat], s.Score[seat] = 0, 2
			if d, err := client(t, p, s).GenCube(ctx); err != nil || d {
				t.Errorf("post-Crawford leader: %v, %v; want no double", d, err)
			}
			// Post-Crawford, 5-point match, the leader 1-away doubles the
			// trailer 4-away, who has few chances: the trailer takes
			// (nothing to lose), where the leader would drop the same
			// double from the trailer.
			match5 := bg.Rules{Variant: bg.Standard, MatchLength: 5, Cube: true, Crawford: true}
			for _, takerScore := range []int{0, 4} {
				s := state(match5, raceAhead, 1-seat, [2]int{})
				s.Score[seat], s.Score[1-seat], s.PostCrawford = takerScore, 4-takerScore, true
				if err := s.Double(); err != nil {
					t.Fatal(err)
				}
				want := bg.Take
				if takerScore == 4 {
					want = bg.Drop
				}
				if a, err := client(t, p, s).GenTake(ctx); err != nil || a != want {
					t.Errorf("post-Crawford, taker at %d, doubler at %d: %v, %v; want %v", takerScore, 4-takerScore, a, err, want)
				}
			}
			// The cube owned by the opponent: no double, without asking.
			s = state(money, raceAhead, seat, [2]int{})
			s.CubeValue, s.CubeOwner = 2, 1-seat
			if d, err := client(t, p, s).GenCube(ctx); err != nil || d {
				t.Errorf("cube owned by the opponent: %v, %v; want no double", d, err)
			}
		})
	}
}

func TestMoves(t *testing.T) {
	ctx := context.Background()
	p := launch(t, Options{})
	// The opponent's home board closed, one checker on the bar.
	closed := board(map[int]int{25: 1, 6: 5, 8: 3, 13: 6}, map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
	// The opponent's 6-point open (my 19-point).
	sixOpen := board(map[int]int{25: 1, 6: 5, 8: 3, 13: 6}, map[int]int{1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 13: 3})
	bearOff := board(map[int]int{1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, map[int]int{1: 5, 2: 5, 3: 5})
	cases := []struct {
		name  string
		b     bg.Board
		dice  [2]int
		check func(move string) bool
	}{
		{"no legal move", closed, [2]int{3, 1}, func(m string) bool { return m == bgcmd.NoMove }},
		{"bar entry", sixOpen, [2]int{6, 1}, func(m string) bool { return strings.HasPrefix(m, "bar/19") }},
		{"bear off", bearOff, [2]int{6, 5}, func(m string) bool { return m == "5/off(2)" }},
		{"opening", bg.Standard.StartBoard(), [2]int{3, 1}, func(m string) bool { return m == "8/5 6/5" }},
		{"doubles", bg.Standard.StartBoard(), [2]int{6, 6}, func(m string) bool { return m == "24/18(2) 13/7(2)" }},
	}
	for _, seat := range []int{0, 1} {
		for _, c := range cases {
			for _, r := range []bg.Rules{money, {Variant: bg.Standard, MatchLength: 5, Cube: true, Crawford: true}} {
				s := state(r, c.b, seat, c.dice)
				m, err := client(t, p, s).GenMove(ctx)
				if err != nil {
					t.Errorf("%s, player %d, match %d: %v", c.name, seat, r.MatchLength, err)
					continue
				}
				if !c.check(m) {
					t.Errorf("%s, player %d, match %d: gnubg moved %q", c.name, seat, r.MatchLength, m)
				}
				if _, err := s.ParseMove(m); err != nil {
					t.Errorf("%s: %q: %v", c.name, m, err)
				}
			}
		}
	}
}

func TestEvaluate(t *testing.T) {
	ctx := context.Background()
	p := launch(t, Options{})
	s := state(money, raceAhead, 0, [2]int{})
	ahead, err := client(t, p, s).Evaluate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ahead[0] < 0.95 || ahead[5] < 0.9 {
		t.Errorf("far ahead: %v", ahead)
	}
	// The same position with a double pending is evaluated for the taker.
	if err := s.Double(); err != nil {
		t.Fatal(err)
	}
	taker, err := client(t, p, s).Evaluate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if taker[0] > 0.05 || taker[5] > -0.9 {
		t.Errorf("taker far behind: %v", taker)
	}
	// Match play: the sixth number is an equity, not a winning chance.
	open := state(bg.Rules{Variant: bg.Standard, MatchLength: 5, Cube: true, Crawford: true}, bg.Standard.StartBoard(), 1, [2]int{})
	v, err := client(t, p, open).Evaluate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v[0] < 0.45 || v[0] > 0.6 || v[5] < -0.1 || v[5] > 0.2 {
		t.Errorf("opening position in a match: %v", v)
	}
}

func TestRejectsUnsupported(t *testing.T) {
	p := launch(t, Options{})
	ctx := context.Background()
	_, err := p.Do(ctx, bgcmd.CmdSetGame, "nackgammon", "0")
	var fe *protocol.FailureError
	if !errors.As(err, &fe) {
		t.Errorf("nackgammon: %v, want a failure response", err)
	}
	if _, err := p.Do(ctx, bgcmd.CmdGenMove); !errors.As(err, &fe) {
		t.Errorf("genmove without a position: %v, want a failure response", err)
	}
	// Still usable.
	s := state(money, bg.Standard.StartBoard(), 0, [2]int{3, 1})
	if m, err := client(t, p, s).GenMove(ctx); err != nil || m != "8/5 6/5" {
		t.Errorf("after failures: %q, %v", m, err)
	}
}

func TestOptions(t *testing.T) {
	var mu sync.Mutex
	var wire []string
	p := launch(t, Options{Plies: 1, Noise: 0.01, DeterministicNoise: true, Seed: 5,
		ExternalTranscript: func(sent bool, line string) {
			mu.Lock()
			wire = append(wire, fmt.Sprint(sent, " ", line))
			mu.Unlock()
		}})
	s := state(money, bg.Standard.StartBoard(), 1, [2]int{6, 5})
	if m, err := client(t, p, s).GenMove(context.Background()); err != nil || m != "24/13" {
		t.Errorf("6-5 opening at 1-ply: %q, %v", m, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(wire) != 2 || !strings.HasPrefix(wire[0], "true board:") || !strings.HasSuffix(wire[0], "jacobyrule on crawfordrule off beavers off") {
		t.Errorf("external transcript: %q", wire)
	}
	if _, err := Launch(context.Background(), Options{Plies: 9}); err == nil {
		t.Error("Launch with 9 plies succeeded")
	}
}

func TestKilledGnubg(t *testing.T) {
	p := launch(t, Options{})
	s := state(money, bg.Standard.StartBoard(), 0, [2]int{3, 1})
	c := client(t, p, s)
	if err := syscall.Kill(p.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.Exited()
	start := time.Now()
	_, err := c.GenMove(context.Background())
	if !errors.Is(err, protocol.ErrEngineExited) {
		t.Errorf("genmove after gnubg died: %v, want ErrEngineExited", err)
	}
	var fe *protocol.FailureError
	if errors.As(err, &fe) {
		t.Errorf("genmove after gnubg died: %v is a failure response", err)
	}
	if _, err := p.Do(context.Background(), "genmove"); !errors.Is(err, protocol.ErrEngineExited) {
		t.Errorf("second genmove: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestHungGnubg(t *testing.T) {
	p := launch(t, Options{Timeout: 300 * time.Millisecond})
	s := state(money, bg.Standard.StartBoard(), 0, [2]int{3, 1})
	c := client(t, p, s)
	if err := syscall.Kill(p.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := c.GenMove(context.Background())
	if !errors.Is(err, protocol.ErrTimeout) {
		t.Errorf("genmove to a stopped gnubg: %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timeout took %v", d)
	}
	// A Do in progress is aborted by Close, which returns promptly.
	p2 := launch(t, Options{})
	c2 := client(t, p2, s)
	if err := syscall.Kill(p2.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := c2.GenMove(context.Background()); done <- err }()
	time.Sleep(100 * time.Millisecond)
	start = time.Now()
	if err := p2.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("genmove succeeded while closing")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("genmove still blocked after Close")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	if _, err := p2.Do(context.Background(), "genmove"); !errors.Is(err, player.ErrClosed) {
		t.Errorf("Do after Close: %v", err)
	}
}

func TestCPUTime(t *testing.T) {
	o := Options{Binary: peertest.Gnubg(t), Timeout: time.Minute}
	p, err := Launch(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if p.CPUTime() <= 0 {
		t.Errorf("CPU time after Close: %v", p.CPUTime())
	}
	t.Logf("gnubg start-up CPU time %v", p.CPUTime())
}

// benchPositions collects positions with dice from random games.
func benchPositions(n int) [][2]string {
	rng := rand.New(rand.NewPCG(1, 2))
	var out [][2]string
	for len(out) < n {
		s := bg.NewMatch(bg.Rules{Variant: bg.Standard, Cube: true})
		dice := bg.NewDice(rng.Uint64(), 3)
		first, d0, d1 := dice.Opening()
		if err := s.StartGame(first, d0, d1); err != nil {
			panic(err)
		}
		for s.GameState == bg.GamePlaying && len(out) < n {
			switch s.Decision() {
			case bg.DecideMove:
				pos, mid := gnubgid.Encode(s)
				out = append(out, [2]string{pos, mid})
				moves := s.LegalMoves()
				if err := s.Play(moves[rng.IntN(len(moves))]); err != nil {
					panic(err)
				}
			default:
				if err := s.SetDice(dice.Roll()); err != nil {
					panic(err)
				}
			}
		}
	}
	return out
}

// BenchmarkGnubgDecision0Ply measures chequer-play decisions through the
// adapter at 0-ply: set_position and genmove per decision.
func BenchmarkGnubgDecision0Ply(b *testing.B) {
	benchDecisions(b, launch(b, Options{}), benchPositions(200))
}

func TestLaunchFailures(t *testing.T) {
	start := time.Now()
	_, err := Launch(context.Background(), Options{Binary: "/bin/false"})
	if !errors.Is(err, protocol.ErrEngineExited) {
		t.Errorf("Launch of a program that exits: %v, want ErrEngineExited", err)
	}
	if _, err := Launch(context.Background(), Options{Binary: "/nonexistent/gnubg"}); err == nil {
		t.Error("Launch of a missing program succeeded")
	}
	// A program that never listens: the start timeout ends the wait.
	sleeper := filepath.Join(t.TempDir(), "sleeper")
	if err := os.WriteFile(sleeper, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Launch(context.Background(), Options{Binary: sleeper, StartTimeout: 300 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Launch of a program that never listens: %v, want a deadline error", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("failures took %v", d)
	}
}
