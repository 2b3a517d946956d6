package bgbot

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// pruneFixtures returns the default weights, the embedded pruner, the
// default bearoff database and n self-play positions from seed.
func pruneFixtures(t *testing.T, n int, seed uint64) (*Weights, *Pruner, *Bearoff, []backgammon.Board) {
	t.Helper()
	w, db := defaultNetAndBearoff(t)
	p, err := DefaultPruner()
	if err != nil {
		t.Fatal(err)
	}
	pos, err := SamplePositions(context.Background(), w, nil, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w, p, db, pos
}

// The pruner distilled from the default weights (the embedded one) keeps a
// searching bot's judgement: with every reply kept it changes nothing, and
// with the default four kept the 1-ply equity moves by a few thousandths.
func TestPrunedSearch(t *testing.T) {
	w, p, db, all := pruneFixtures(t, 2000, 77)
	mk := func(pr *Pruner, keep int) *Bot {
		b, err := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db, Plies: 1, Pruner: pr, PruneKeep: keep})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	full, pruned, keepAll := mk(nil, 0), mk(p, 0), mk(p, 1000)
	var diff float64
	n := 0
	for i := 0; i < len(all); i += 20 {
		want := full.Probs(all[i])
		if got := keepAll.Probs(all[i]); got != want {
			t.Fatalf("keeping every reply changed the 1-ply judgement: %v, want %v", got, want)
		}
		diff += math.Abs(float64(pruned.Probs(all[i]).Equity() - want.Equity()))
		n++
	}
	t.Logf("pruned 1-ply: mean |equity difference| %.5f over %d positions", diff/float64(n), n)
	if diff/float64(n) > 0.01 {
		t.Errorf("pruning moved the 1-ply equity by %.4f on average", diff/float64(n))
	}
	if _, err := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db, PruneKeep: -1}); err == nil {
		t.Error("PruneKeep -1 accepted")
	}
}

// Training brings a pruner's error well below that of a fresh one, and a
// written pruner reads back the same; damaged files are refused.
func TestPrunerTrainAndFile(t *testing.T) {
	w, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	boards, err := SamplePositions(context.Background(), w, nil, 1500, 3)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := PrunerSamples(context.Background(), w, boards, 3)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPruner(8, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	s := p.scratch()
	var before float64
	for i := range samples {
		d := float64(p.equity(&samples[i].Board, s) - samples[i].Equity)
		before += d * d
	}
	before = math.Sqrt(before / float64(len(samples)))
	after, err := TrainPruner(context.Background(), p, samples, 3, 0.01, 0.001, 4)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d samples: RMS %.3f untrained, %.3f trained", len(samples), before, after)
	if !(after < before/2) {
		t.Errorf("RMS %.3f after training, %.3f before", after, before)
	}
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ParsePruner(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if back.equity(&samples[0].Board, back.scratch()) != p.equity(&samples[0].Board, s) {
		t.Error("the pruner read back judges differently")
	}
	data := buf.Bytes()
	for name, bad := range map[string][]byte{
		"magic":    append([]byte("XXXX"), data[4:]...),
		"short":    data[:len(data)-4],
		"checksum": append(append([]byte{}, data[:len(data)-1]...), data[len(data)-1]^1),
	} {
		if _, err := ParsePruner(bad); err == nil {
			t.Errorf("%s: damaged pruner accepted", name)
		}
	}
	if _, err := NewPruner(0, rand.New(rand.NewPCG(1, 2))); err == nil {
		t.Error("0 hidden units accepted")
	}
	if _, err := TrainPruner(context.Background(), p, nil, 1, 0.1, 0.1, 1); err == nil {
		t.Error("training on no samples accepted")
	}
}

func FuzzParsePruner(f *testing.F) {
	p, _ := NewPruner(2, rand.New(rand.NewPCG(1, 2)))
	var buf bytes.Buffer
	p.WriteTo(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte("BGPR"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePruner(data)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := p.WriteTo(&out); err != nil || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("a pruner that parsed did not write back the same bytes (%v)", err)
		}
	})
}

func BenchmarkNetDecision1PlyPruned(b *testing.B) {
	w, _ := DefaultWeights()
	p, _ := DefaultPruner()
	boards, _ := SamplePositions(context.Background(), w, nil, 200, 9)
	for _, pr := range []*Pruner{nil, p} {
		name := "full"
		if pr != nil {
			name = "pruned"
		}
		b.Run(name, func(b *testing.B) {
			bot, err := NewBot(Config{Level: LevelNet, Weights: w, Plies: 1, Pruner: pr, NoCache: true})
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 1))
			for i := 0; b.Loop(); i++ {
				bot.ChooseMove(boards[i%len(boards)], rng.IntN(6)+1, rng.IntN(6)+1)
			}
		})
	}
}

// Pruning the root keeps the move when it keeps every legal move, and
// otherwise judges at most RootKeep of them.
func TestRootPruning(t *testing.T) {
	w, p, db, pos := pruneFixtures(t, 600, 8)
	full, _ := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db})
	all, _ := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db, Pruner: p, RootKeep: 1000})
	two, _ := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db, Pruner: p, RootKeep: 2})
	changed := 0
	for i, b := range pos {
		d1, d2 := i%6+1, i/6%6+1
		m, _, _ := full.ChooseMove(b, d1, d2)
		if got, _, _ := all.ChooseMove(b, d1, d2); b.Apply(got) != b.Apply(m) {
			t.Fatalf("keeping every root move changed the choice")
		}
		if got, _, _ := two.ChooseMove(b, d1, d2); b.Apply(got) != b.Apply(m) {
			changed++
		}
		if Contact(&b) && len(two.cands) > 2 {
			t.Fatalf("%d root candidates judged with RootKeep 2", len(two.cands))
		}
	}
	if changed == 0 {
		t.Error("keeping two root moves never changed a choice: is the root pruned at all?")
	}
}
