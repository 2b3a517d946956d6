package bgbot

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestSupervisedGeneration(t *testing.T) {
	ctx := context.Background()
	w, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	db, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
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
		ev := w.NewEvaluator()
		s := 0.0
		for _, d := range one {
			p := ev.Evaluate(d.Board)
			for k := range p {
				s += math.Pow(float64(p[k]-d.Probs[k]), 2)
			}
		}
		return s
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
