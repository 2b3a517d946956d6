package bgbot

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/ratings"
)

func TestProbsEquityAndInvert(t *testing.T) {
	p := Probs{0.6, 0.2, 0.05, 0.1, 0.01}
	if got, want := p.Equity(), float32(2*0.6-1+0.2-0.1+0.05-0.01); math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("equity %v, want %v", got, want)
	}
	if q := p.Invert(); math.Abs(float64(q.Equity()+p.Equity())) > 1e-6 || q.Invert() != p {
		t.Errorf("invert %v of %v", q, p)
	}
	s := Probs{1.2, 0.9, 0.95, 0.3, 0.5}.Sanitize()
	if s != (Probs{1, 0.9, 0.9, 0, 0}) {
		t.Errorf("sanitize %v", s)
	}
}

func TestOutcome(t *testing.T) {
	var b backgammon.Board
	b[backgammon.Opponent][5] = 15
	if p, over := Outcome(&b, 15); !over || p != (Probs{1, 1, 0, 0, 0}) {
		t.Errorf("gammon: %v %v", p, over)
	}
	b[backgammon.Opponent][5], b[backgammon.Opponent][20] = 14, 1
	if p, _ := Outcome(&b, 15); p != (Probs{1, 1, 1, 0, 0}) {
		t.Errorf("backgammon: %v", p)
	}
	b[backgammon.Opponent][20] = 0
	if p, _ := Outcome(&b, 15); p != (Probs{1, 0, 0, 0, 0}) {
		t.Errorf("single: %v", p)
	}
	b[backgammon.OnRoll][0] = 1
	if _, over := Outcome(&b, 15); over {
		t.Error("game with checkers left is over")
	}
}

func TestFeaturesStart(t *testing.T) {
	e := newEncoder()
	b := backgammon.Standard.StartBoard()
	x := make([]float32, NumInputs)
	nz := e.encode(&b, x, nil)
	for i := range x {
		nonzero := x[i] != 0
		listed := false
		for _, j := range nz {
			listed = listed || int(j) == i
		}
		if nonzero != listed {
			t.Fatalf("input %d = %v, listed %v", i, x[i], listed)
		}
	}
	me := x[tdInputs:]
	if math.Abs(float64(me[HandPips]*167-167)) > 1e-3 || me[HandHome] != 1.0/6 || me[HandBlots] != 0 || me[HandShots] != 0 {
		t.Errorf("start features %v", me[:HandPerSide])
	}
	if x[tdInputs+HandPips] != x[tdInputs+HandPerSide+HandPips] {
		t.Error("start position not symmetric")
	}
	if !Contact(&b) {
		t.Error("start position has no contact")
	}
	// A blot 6 away from an opponent checker is hit by 17 of 36 rolls
	// (any 6, 5-1, 4-2, 3-3, 2-2) when nothing blocks.
	var c backgammon.Board
	c[backgammon.OnRoll][9] = 1    // my 10-point: their 15-point
	c[backgammon.Opponent][20] = 1 // their 21-point: 6 away
	c[backgammon.OnRoll][0] = 14   // rest of mine
	c[backgammon.Opponent][0] = 14 // rest of theirs
	if got := e.shotFigures(&c[backgammon.OnRoll], &c[backgammon.Opponent]).shots; got != 17 {
		t.Errorf("shots at a blot 6 away: %d, want 17", got)
	}
}

func TestJanowskiPoints(t *testing.T) {
	// Without gammons the live-cube take point is 20% and the dead one 25%.
	take := func(x float64) float64 {
		lo, hi := 0.0, 1.0
		for range 60 {
			mid := (lo + hi) / 2
			// The doubler's double/take equity at the taker's chance mid.
			if 2*Janowski(Probs{Win: float32(1 - mid)}, CubeUnavailable, x) > 1 {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo
	}
	if tp := take(1); math.Abs(tp-0.2) > 1e-3 {
		t.Errorf("live take point %v, want 0.2", tp)
	}
	if tp := take(0); math.Abs(tp-0.25) > 1e-3 {
		t.Errorf("dead take point %v, want 0.25", tp)
	}
	if tp := take(CubeEfficiency); tp <= 0.2 || tp >= 0.25 {
		t.Errorf("take point at x=%v: %v", CubeEfficiency, tp)
	}
	if MoneyCube(Probs{Win: 0.55}, CubeEfficiency, true, false).ShouldDouble() {
		t.Error("doubles at 55%")
	}
	if !MoneyCube(Probs{Win: 0.74}, CubeEfficiency, true, false).ShouldDouble() {
		t.Error("no double at 74%")
	}
	if MoneyCube(Probs{Win: 0.9, WinGammon: 0.5}, CubeEfficiency, true, false).ShouldDouble() {
		t.Error("doubles when too good")
	}
}

func TestMET(t *testing.T) {
	m, err := NewMET(15, DefaultGammonRate)
	if err != nil {
		t.Fatal(err)
	}
	for a := 1; a <= 15; a++ {
		for b := 1; b <= 15; b++ {
			for _, pc := range []bool{false, true} {
				w := m.Win(a, b, pc)
				if math.Abs(w+m.Win(b, a, pc)-1) > 1e-12 {
					t.Fatalf("not symmetric at %d,%d", a, b)
				}
				if a > 1 && !pc && m.Win(a-1, b, pc) < w-1e-12 {
					t.Fatalf("not monotone at %d,%d", a, b)
				}
			}
		}
	}
	if m.Win(7, 7, false) != 0.5 || m.Win(0, 3, false) != 1 || m.Win(3, 0, false) != 0 {
		t.Error("edge values")
	}
	if w := m.Win(1, 2, false); w < 0.6 || w > 0.8 {
		t.Errorf("Crawford 1-away vs 2-away: %v", w)
	}
	if _, err := NewMET(0, 0.2); err == nil {
		t.Error("length 0 accepted")
	}
}

func TestWeightsRoundTrip(t *testing.T) {
	w, err := NewRandomWeights(16, 7)
	if err != nil {
		t.Fatal(err)
	}
	w.Games = 1234
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	r, err := ParseWeights(data)
	if err != nil {
		t.Fatal(err)
	}
	b := backgammon.Standard.StartBoard()
	if r.Games != 1234 || r.Hidden != 16 || r.NewEvaluator().Evaluate(b) != w.NewEvaluator().Evaluate(b) {
		t.Error("round trip changed the weights")
	}
	bad := append([]byte(nil), data...)
	bad[len(bad)-1] ^= 1
	if _, err := ParseWeights(bad); !errors.Is(err, ErrBadWeights) {
		t.Errorf("corrupt payload: %v", err)
	}
	if _, err := ParseWeights(data[:20]); !errors.Is(err, ErrBadWeights) {
		t.Errorf("short file: %v", err)
	}
	bad = append([]byte(nil), data...)
	bad[4] = 9
	if _, err := ParseWeights(bad); !errors.Is(err, ErrBadWeights) {
		t.Errorf("bad version: %v", err)
	}
	if _, err := DefaultWeights(); err != nil {
		t.Errorf("embedded weights: %v", err)
	}
}

func TestSigmoid(t *testing.T) {
	for x := float32(-20); x <= 20; x += 0.013 {
		want := 1 / (1 + math.Exp(-float64(x)))
		if d := math.Abs(float64(sigmoid(x)) - want); d > 2e-6 {
			t.Fatalf("sigmoid(%v) off by %v", x, d)
		}
	}
}

// TestMovesLegal plays games between every level and depth and checks each
// chosen move against the rules (State.Play rejects illegal moves).
func TestMovesLegal(t *testing.T) {
	ctx := context.Background()
	cases := []Config{
		{Level: LevelRandom, Seed: 3},
		{Level: LevelHeuristic},
		{Level: LevelNet},
		{Level: LevelNet, Noise: 0.05, Seed: 4},
		{Level: LevelNet, Plies: 1},
	}
	rules := []backgammon.Rules{
		{Variant: backgammon.Standard},
		{Variant: backgammon.Standard, Cube: true, Jacoby: true, Beavers: true},
		{Variant: backgammon.Standard, Cube: true, MatchLength: 5, Crawford: true},
		{Variant: backgammon.Hypergammon3, Cube: true},
		{Variant: backgammon.Nackgammon, Cube: true, MatchLength: 3, Crawford: true},
	}
	db, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		c.Bearoff = db
		a, err := NewBot(c)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewBot(Config{Level: LevelHeuristic})
		if err != nil {
			t.Fatal(err)
		}
		games := 6
		if c.Plies > 0 {
			games = 1
		}
		for g := range games {
			r := rules[(i+g)%len(rules)]
			s := backgammon.NewMatch(r)
			for !s.MatchOver() || (s.Money() && s.GameState == backgammon.GameNone) {
				if _, err := PlayGame(ctx, s, [2]*Bot{a, b}, backgammon.NewDice(uint64(i), uint64(g))); err != nil {
					t.Fatalf("%+v %+v: %v", c, r, err)
				}
				if s.Money() {
					break
				}
			}
		}
	}
}

func TestNoise(t *testing.T) {
	b := backgammon.Standard.StartBoard()
	pick := func(noise float64, seed uint64) string {
		bot, err := NewBot(Config{Level: LevelNet, Noise: noise, Seed: seed, NoBearoff: true})
		if err != nil {
			t.Fatal(err)
		}
		m, _, _ := bot.ChooseMove(b, 6, 2)
		return backgammon.Format(b, m)
	}
	if pick(0.5, 9) != pick(0.5, 9) {
		t.Error("same seed, different choice")
	}
	seen := map[string]bool{}
	for s := range uint64(20) {
		seen[pick(1, s)] = true
	}
	if len(seen) < 2 {
		t.Error("noise never changes the choice")
	}
	if _, err := NewBot(Config{Noise: -1}); err == nil {
		t.Error("negative noise accepted")
	}
	if _, err := NewBot(Config{Plies: MaxPlies + 1}); err == nil {
		t.Error("too many plies accepted")
	}
}

func TestTrainSmoke(t *testing.T) {
	w, err := NewRandomWeights(8, 1)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	_, err = Train(context.Background(), w, TrainConfig{Games: 20, Alpha: 0.1, Lambda: 0.7, Seed: 1, Workers: 2, SyncEvery: 5,
		Progress: func(int, *Weights) error { calls++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if w.Games != 20 || calls != 2 {
		t.Errorf("games %d, progress calls %d", w.Games, calls)
	}
	// Same seed and worker count: same weights.
	w2, _ := NewRandomWeights(8, 1)
	if _, err := Train(context.Background(), w2, TrainConfig{Games: 20, Alpha: 0.1, Lambda: 0.7, Seed: 1, Workers: 2, SyncEvery: 5}); err != nil {
		t.Fatal(err)
	}
	b := backgammon.Standard.StartBoard()
	if w.NewEvaluator().Evaluate(b) != w2.NewEvaluator().Evaluate(b) {
		t.Error("training is not reproducible")
	}
}

// TestDuelStrength plays 200 duplicate pairs (400 games) of cubeless money
// play per pairing and checks that the net beats the heuristic and the
// heuristic beats random, with the 95% interval above zero.
func TestDuelStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 800 games")
	}
	db, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(l Level, seed uint64) func() (*Bot, error) {
		return func() (*Bot, error) { return NewBot(Config{Level: l, Seed: seed, Bearoff: db}) }
	}
	for _, c := range []struct{ a, b Level }{{LevelNet, LevelHeuristic}, {LevelHeuristic, LevelRandom}} {
		pairs, err := Duel(context.Background(), DuelConfig{Pairs: 200, Seed: 42, Workers: 2}, mk(c.a, 1), mk(c.b, 2))
		if err != nil {
			t.Fatal(err)
		}
		s := ratings.PairedPointsPerGame(pairs)
		t.Logf("%v vs %v: %+.3f points per game, 95%% [%+.3f, %+.3f] over %d games", c.a, c.b, s.Mean, s.Low, s.High, s.N)
		if !(s.Low > 0) {
			t.Errorf("%v does not beat %v: interval [%v, %v]", c.a, c.b, s.Low, s.High)
		}
	}
}

// BenchmarkNetDecision measures 0-ply checker-play decisions of the net on
// one core, over positions from self-play games with their rolls.
func BenchmarkNetDecision(b *testing.B) { benchDecisions(b, 0) }

// BenchmarkNetDecision1Ply is BenchmarkNetDecision searching 1 ply.
func BenchmarkNetDecision1Ply(b *testing.B) { benchDecisions(b, 1) }

// BenchmarkNetDecision2Ply is BenchmarkNetDecision searching 2 plies.
func BenchmarkNetDecision2Ply(b *testing.B) { benchDecisions(b, 2) }

// BenchmarkNetDecisionMoveWeights is BenchmarkNetDecision with a second
// network of the default's size scoring the best moves again
// (Config.MoveWeights, DefaultMoveKeep).
func BenchmarkNetDecisionMoveWeights(b *testing.B) {
	w, err := DefaultWeights()
	if err != nil {
		b.Fatal(err)
	}
	benchDecisionsCfg(b, Config{Level: LevelNet, MoveWeights: []*Weights{w}})
}

// BenchmarkNetDecision1PlyNoCache and BenchmarkNetDecision2PlyNoCache are
// the same without the evaluation cache.
func BenchmarkNetDecision1PlyNoCache(b *testing.B) {
	benchDecisionsCfg(b, Config{Level: LevelNet, Plies: 1, NoCache: true})
}
func BenchmarkNetDecision2PlyNoCache(b *testing.B) {
	benchDecisionsCfg(b, Config{Level: LevelNet, Plies: 2, NoCache: true})
}

func benchDecisions(b *testing.B, plies int) {
	benchDecisionsCfg(b, Config{Level: LevelNet, Plies: plies})
}

func benchDecisionsCfg(b *testing.B, cfg Config) {
	type pos struct {
		b      backgammon.Board
		d1, d2 int
	}
	bot, err := NewBot(cfg)
	if err != nil {
		b.Fatal(err)
	}
	fast, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		b.Fatal(err)
	}
	var ps []pos
	rng := rand.New(rand.NewPCG(1, 2))
	for len(ps) < 2000 {
		s := backgammon.NewMatch(backgammon.Rules{})
		dice := backgammon.NewDice(rng.Uint64(), 0)
		first, d0, d1 := dice.Opening()
		_ = s.StartGame(first, d0, d1)
		for s.GameState == backgammon.GamePlaying {
			if s.Decision() == backgammon.NeedRoll {
				_ = s.SetDice(dice.Roll())
				continue
			}
			ps = append(ps, pos{s.Board, s.Dice[0], s.Dice[1]})
			m, _, _ := fast.ChooseMove(s.Board, s.Dice[0], s.Dice[1])
			_ = s.Play(m)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &ps[i%len(ps)]
		bot.ChooseMove(p.b, p.d1, p.d2)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}

func TestDeepSearch(t *testing.T) {
	b := backgammon.Standard.StartBoard()
	for plies := 2; plies <= MaxPlies; plies++ {
		if plies == 3 && testing.Short() {
			continue
		}
		bot, err := NewBot(Config{Level: LevelNet, Plies: plies})
		if err != nil {
			t.Fatal(err)
		}
		m, p, ok := bot.ChooseMove(b, 4, 2)
		if got := backgammon.Format(b, m); !ok || got != "8/4 6/4" {
			t.Errorf("%d-ply opening 42: %q %v", plies, got, p)
		}
		if q := bot.Probs(b); q[Win] < 0.4 || q[Win] > 0.6 {
			t.Errorf("%d-ply start position: %v", plies, q)
		}
	}
}
