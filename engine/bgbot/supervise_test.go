package bgbot

import (
	"context"
	"math"
	"testing"
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
	one, err := Label(ctx, w, db, boards, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	three, err := Label(ctx, w, db, boards, 1, 3, nil)
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
