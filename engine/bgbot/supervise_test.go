package bgbot

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// defaultNetAndBearoff are the embedded weights and the default bearoff
// database, which the sampling tests play with.
func defaultNetAndBearoff(t *testing.T) (*Weights, *Bearoff) {
	t.Helper()
	w, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	db, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	return w, db
}

func TestSupervisedGeneration(t *testing.T) {
	ctx := context.Background()
	w, db := defaultNetAndBearoff(t)
	boards, err := SamplePositions(ctx, w, db, 60, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) != 60 {
		t.Fatalf("%d positions, want 60", len(boards))
	}
	for i := range boards {
		if _, exact := bearoffExact(db, &boards[i]); exact {
			t.Fatalf("position %d is an exact bear-off", i)
		}
	}
	one, err := Label(ctx, w, db, nil, boards, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	three, err := Label(ctx, w, db, nil, boards, 1, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one {
		if one[i] != three[i] {
			t.Fatalf("position %d: labels differ with 1 and 3 workers: %v %v", i, one[i].Probs, three[i].Probs)
		}
	}
	// Fitting moves the network toward the labels: the squared error falls.
	loss := func(w *Weights) float64 {
		sq, _ := labelErrors(w, one)
		return sq
	}
	fitted := w.Clone()
	if err := Fit(ctx, fitted, one, 5, 0.01, 0.005, 1, nil); err != nil {
		t.Fatal(err)
	}
	if before, after := loss(w), loss(fitted); !(after < before) {
		t.Errorf("squared error to the labels %.5f before fitting, %.5f after", before, after)
	}
	if err := Fit(ctx, fitted, one, 0, 0.01, 0, 1, nil); err == nil {
		t.Error("Fit with 0 epochs: no error")
	}
}

func TestLabelledRoundTrip(t *testing.T) {
	data := []Labelled{
		{Board: backgammon.Standard.StartBoard(), Probs: Probs{0.5, 0.15, 0.01, 0.14, 0.01}},
		{Board: backgammon.Board{{0: 2}, {5: 1}}, Probs: Probs{1, 0, 0, 0, 0}},
	}
	var buf bytes.Buffer
	if err := WriteLabelled(&buf, data); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	got, err := ReadLabelled(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(data) || got[0] != data[0] || got[1] != data[1] {
		t.Fatalf("read back %v, want %v", got, data)
	}
	for _, bad := range [][]byte{raw[:len(raw)-1], raw[:3], append([]byte("XXXXX\n"), raw[6:]...)} {
		if _, err := ReadLabelled(bytes.NewReader(bad)); err == nil {
			t.Errorf("%d bytes of a damaged file accepted", len(bad))
		}
	}
	bad := slices.Clone(raw)
	bad[len(labelledMagic)+4] = 20 // 20 checkers on a point
	if _, err := ReadLabelled(bytes.NewReader(bad)); err == nil {
		t.Error("an impossible board accepted")
	}
}

func FuzzReadLabelled(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteLabelled(&buf, []Labelled{{Board: backgammon.Standard.StartBoard(), Probs: Probs{0.5, 0.1, 0, 0.1, 0}}}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(labelledMagic + "\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		data, err := ReadLabelled(bytes.NewReader(raw))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteLabelled(&out, data); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), raw[:out.Len()]) {
			t.Fatal("a file read back does not write back the same")
		}
	})
}

// TestSampleWithAlternatives checks that the alternatives are the
// positions after the moves the network ranked next to the one it played:
// each plain position reappears in order, and between two of them come
// positions after other legal moves of the same roll, each judged by the
// network no better than the move played.
func TestSampleWithAlternatives(t *testing.T) {
	ctx := context.Background()
	w, db := defaultNetAndBearoff(t)
	plain, err := SamplePositions(ctx, w, db, 40, 7)
	if err != nil {
		t.Fatal(err)
	}
	mixed, err := SampleWithAlternatives(ctx, w, db, 160, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(mixed) != 160 {
		t.Fatalf("%d positions, want 160", len(mixed))
	}
	ev := w.NewEvaluator()
	next, alts := 0, 0
	for i, b := range mixed {
		if err := b.Validate(backgammon.Standard); err != nil {
			t.Fatalf("position %d: %v", i, err)
		}
		if _, exact := bearoffExact(db, &b); exact {
			t.Fatalf("position %d is an exact bear-off", i)
		}
		if next < len(plain) && b == plain[next] {
			next++
			continue
		}
		if next == 0 {
			t.Fatalf("position %d comes before the first self-play position", i)
		}
		alts++
		// An alternative to the move that led to plain[next] (or to the end
		// of the game): the opponent, on roll, likes it at least as much.
		if next < len(plain) {
			after, played := ev.Evaluate(b).Equity(), ev.Evaluate(plain[next]).Equity()
			if after < played-1e-6 && !sameGameStart(plain[next]) {
				t.Errorf("position %d: the opponent's equity %.4f after the alternative is below %.4f after the move played", i, after, played)
			}
		}
	}
	if next < 20 || alts < 40 {
		t.Errorf("%d self-play positions and %d alternatives among 160", next, alts)
	}
}

// sameGameStart reports whether b is a game's first position (no move led
// to it, so there is nothing to compare an alternative with).
func sameGameStart(b backgammon.Board) bool { return b == backgammon.Standard.StartBoard() }

// FitAdam lowers the error to the labels, memorises a handful of
// positions, and gives the same weights from the same seed.
func TestFitAdam(t *testing.T) {
	ctx := context.Background()
	w, db := defaultNetAndBearoff(t)
	boards, err := SamplePositions(ctx, w, db, 40, 7)
	if err != nil {
		t.Fatal(err)
	}
	data, err := Label(ctx, w, db, nil, boards, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Labels the network is far from (each label seen from the other
	// side), so that there is something to learn.
	for i := range data {
		data[i].Probs = data[i].Probs.Invert()
	}
	a, b := w.Clone(), w.Clone()
	for _, f := range []*Weights{a, b} {
		if err := FitAdam(ctx, f, data, 40, 8, 0.003, 0.0005, 3, nil); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := labelErrors(w, data)
	after, _ := labelErrors(a, data)
	if !(after < before/2) {
		t.Errorf("squared error to the labels %.4f before fitting, %.4f after", before, after)
	}
	if !slices.Equal(a.nets[ClassContact].w1, b.nets[ClassContact].w1) || !slices.Equal(a.nets[ClassRace].w2, b.nets[ClassRace].w2) {
		t.Error("two fits from the same seed differ")
	}
	few := w.Clone()
	if err := FitAdam(ctx, few, data[:4], 400, 2, 0.003, 0.0005, 3, nil); err != nil {
		t.Fatal(err)
	}
	if _, m := labelErrors(few, data[:4]); m > 0.02 {
		t.Errorf("four positions fitted 400 times: an output still %.3f from its label", m)
	}
	for _, bad := range [][2]int{{0, 8}, {5, 0}} {
		if err := FitAdam(ctx, w.Clone(), data, bad[0], bad[1], 0.001, 0, 3, nil); err == nil {
			t.Errorf("FitAdam with %d epochs, batch %d: no error", bad[0], bad[1])
		}
	}
}

// labelErrors is w's summed squared error over the outputs of the labelled
// positions, and its largest single error.
func labelErrors(w *Weights, set []Labelled) (sq, maxAbs float64) {
	ev := w.NewEvaluator()
	for _, d := range set {
		p := ev.Evaluate(d.Board)
		for k := range p {
			e := float64(p[k] - d.Probs[k])
			sq += e * e
			maxAbs = max(maxAbs, math.Abs(e))
		}
	}
	return sq, maxAbs
}
