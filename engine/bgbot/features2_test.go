package bgbot

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func encodeV2(t *testing.T, b *backgammon.Board) []float32 {
	t.Helper()
	e := newEncoderFor(LayoutV2)
	x := make([]float32, NumInputsV2)
	nz := e.encode(b, x, nil)
	seen := make([]bool, NumInputsV2)
	for _, j := range nz {
		seen[j] = true
	}
	for i, v := range x {
		if (v != 0) != seen[i] {
			t.Fatalf("input %d = %v, listed %v", i, v, seen[i])
		}
		if math.IsNaN(float64(v)) || v < 0 || v > 8 {
			t.Fatalf("input %d = %v out of range", i, v)
		}
	}
	return x
}

// Layout 2 starts with layout 1's inputs, unchanged.
func TestLayoutV2ExtendsV1(t *testing.T) {
	b := backgammon.Standard.StartBoard()
	x1 := make([]float32, NumInputs)
	e1 := newEncoder()
	e1.encode(&b, x1, nil)
	x2 := encodeV2(t, &b)
	for i := range x1 {
		if x1[i] != x2[i] {
			t.Fatalf("input %d: layout 1 %v, layout 2 %v", i, x1[i], x2[i])
		}
	}
	me, op := x2[NumInputs:NumInputs+ExtraPerSide], x2[NumInputs+ExtraPerSide:]
	for i := range me {
		if me[i] != op[i] {
			t.Errorf("start position: feature %d is %v for the player on roll, %v for the opponent", i, me[i], op[i])
		}
	}
	// At the start the back checkers on 24 face points 19, 17 and 12 within
	// 12 pips; the farthest (12) cannot be passed by any roll: no escapes.
	if me[XEscape] != 0 || me[XBackAnchor] != 1 || me[XFwdAnchor] != 1.0/6 || me[XPipLoss] != 0 {
		t.Errorf("start features %v", me)
	}
}

func TestEscTable(t *testing.T) {
	if escTable[0] != 36 {
		t.Errorf("no block: %d escapes, want 36", escTable[0])
	}
	// One point held 1 pip ahead: every roll passes it except 1-1, whose
	// first step lands on it: 35.
	if escTable[1] != 35 {
		t.Errorf("point 1 ahead: %d, want 35", escTable[1])
	}
	// A full six-prime right ahead (points 1..6 pips away): only a 7 or more
	// landing beyond it, and every landing is blocked, so nothing escapes.
	if escTable[0x3f] != 0 {
		t.Errorf("six-prime: %d, want 0", escTable[0x3f])
	}
	// A five-prime 1..5 ahead: only a 6 passes it directly (11 rolls); 6-6 too.
	if escTable[0x1f] != 11 {
		t.Errorf("five-prime: %d, want 11", escTable[0x1f])
	}
}

func TestExtraShotsAndBar(t *testing.T) {
	var b backgammon.Board
	// The player on roll has a blot on its 10 point (the opponent's 15) and
	// 14 checkers off; the opponent one checker on its 21 point, 6 pips
	// from the blot, and the rest on its ace point.
	b[backgammon.OnRoll][9] = 1
	b[backgammon.Opponent][20] = 1
	b[backgammon.Opponent][0] = 14
	x := encodeV2(t, &b)
	me := x[NumInputs : NumInputs+ExtraPerSide]
	if want := float32(17*15) / (36 * 12); math.Abs(float64(me[XPipLoss]-want)) > 1e-6 {
		t.Errorf("pip loss %v, want %v (17 shots costing 15 pips)", me[XPipLoss], want)
	}
	if me[XDoubleShot] != 0 {
		t.Errorf("double shots %v with one blot", me[XDoubleShot])
	}
	// On the bar against a five-point board: (5/6)^2 fails to enter.
	var c backgammon.Board
	c[backgammon.OnRoll][backgammon.BarIndex] = 2
	c[backgammon.OnRoll][5] = 13
	for i := 0; i < 5; i++ {
		c[backgammon.Opponent][i] = 3
	}
	y := encodeV2(t, &c)
	me = y[NumInputs : NumInputs+ExtraPerSide]
	if want := float32(25.0 / 36); math.Abs(float64(me[XBarFail]-want)) > 1e-6 {
		t.Errorf("bar fail %v, want %v", me[XBarFail], want)
	}
	if me[XBarMany] <= me[XBarFail] || me[XBarMany] > 1 {
		t.Errorf("two on the bar: %v", me[XBarMany])
	}
}

// Widening keeps what the network computes.
func TestWidenKeepsEvaluation(t *testing.T) {
	w, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	layout := max(w.Layout, LayoutV2) // the default may already be wider
	wide, err := w.Widen(layout, w.Hidden+16, SeededRand(3))
	if err != nil {
		t.Fatal(err)
	}
	if wide.Layout != layout || wide.Hidden != w.Hidden+16 {
		t.Fatalf("widened to layout %d, %d hidden", wide.Layout, wide.Hidden)
	}
	a, c := w.NewEvaluator(), wide.NewEvaluator()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range samplePositions(t, rng, 200) {
		pa, pc := a.Evaluate(b), c.Evaluate(b)
		for k := range pa {
			if math.Abs(float64(pa[k]-pc[k])) > 1e-5 {
				t.Fatalf("%v: %v before widening, %v after", b, pa, pc)
			}
		}
	}
	if _, err := wide.Widen(LayoutV1, wide.Hidden, nil); err == nil {
		t.Error("narrowing accepted")
	}
}

// samplePositions plays random games and keeps n positions before a roll.
func samplePositions(t *testing.T, rng *rand.Rand, n int) []backgammon.Board {
	t.Helper()
	bot, err := NewBot(Config{Level: LevelRandom, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var out []backgammon.Board
	for g := uint64(0); len(out) < n; g++ {
		dice := backgammon.NewDice(rng.Uint64(), g)
		s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard})
		first, d0, d1 := dice.Opening()
		if err := s.StartGame(first, d0, d1); err != nil {
			t.Fatal(err)
		}
		for moves := 0; s.GameState == backgammon.GamePlaying && len(out) < n && moves < 4*MaxGamePlies; moves++ {
			switch s.Decision() {
			case backgammon.NeedRoll:
				if err := s.SetDice(dice.Roll()); err != nil {
					t.Fatal(err)
				}
			case backgammon.DecideMove:
				out = append(out, s.Board)
				m, _, _ := bot.ChooseMove(s.Board, s.Dice[0], s.Dice[1])
				if err := s.Play(m); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("decision %v", s.Decision())
			}
		}
	}
	return out
}

func TestWeightsRoundTripV2(t *testing.T) {
	w, err := NewWeightsLayout(LayoutV2, 12, SeededRand(9))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := ParseWeights(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b := backgammon.Standard.StartBoard()
	if r.Layout != LayoutV2 || r.NewEvaluator().Evaluate(b) != w.NewEvaluator().Evaluate(b) {
		t.Error("layout-2 round trip changed the weights")
	}
	if _, err := NewWeightsLayout(7, 12, nil); err == nil {
		t.Error("layout 7 accepted")
	}
}

// BenchmarkNetEvaluateWide measures one evaluation of networks of each
// input layout and several widths (fresh random weights: a trained
// network of the same shape costs the same), which splits the cost of
// layout 2's features from that of the hidden units.
func BenchmarkNetEvaluateWide(b *testing.B) {
	for _, layout := range []int{LayoutV1, LayoutV2} {
		for _, hidden := range []int{80, 128, 256} {
			w, err := NewWeightsLayout(layout, hidden, SeededRand(1))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("layout%d-%d", layout, hidden), func(b *testing.B) {
				ev := w.NewEvaluator()
				bd := backgammon.Standard.StartBoard()
				for i := 0; i < b.N; i++ {
					ev.Evaluate(bd)
				}
			})
		}
	}
}

// BenchmarkNetDecisionV2 is BenchmarkNetDecision with a layout-2 network
// of 128 hidden units, fresh (widening never shrinks the 256-unit
// default); it costs what a trained one does.
func BenchmarkNetDecisionV2(b *testing.B) {
	wide, err := NewWeightsLayout(LayoutV2, 128, SeededRand(1))
	if err != nil {
		b.Fatal(err)
	}
	benchDecisionsCfg(b, Config{Level: LevelNet, Weights: wide})
}
