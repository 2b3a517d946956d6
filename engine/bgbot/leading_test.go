package bgbot

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// A leading network judges exactly the contact positions, not crashed,
// where the side on roll leads by LeadingPips or more; splitting it off
// keeps what the weights compute, survives the file format, and a learning
// step on a leading position moves that network alone.
func TestSplitLeading(t *testing.T) {
	w, err := NewWeightsLayout(LayoutV4, 24, SeededRand(21))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.SplitLeading(); err == nil {
		t.Error("a leading network split off weights with no crashed network")
	}
	if w, err = w.SplitCrashed(); err != nil {
		t.Fatal(err)
	}
	split, err := w.SplitLeading()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := split.SplitLeading(); err == nil {
		t.Error("splitting twice accepted")
	}
	var buf bytes.Buffer
	if _, err := split.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	read, err := ParseWeights(buf.Bytes())
	if err != nil || read.Classes() != NumClasses {
		t.Fatalf("read back: %v, %v", read, err)
	}

	var leading []backgammon.Board
	before, after := w.NewEvaluator(), read.NewEvaluator()
	for _, b := range samplePositions(t, rand.New(rand.NewPCG(5, 6)), 3000) {
		lead := b.Pips(backgammon.Opponent) - b.Pips(backgammon.OnRoll)
		want := Class(&b)
		if want == ClassContact && lead >= LeadingPips {
			want = ClassLeading
			leading = append(leading, b)
		}
		if got := read.NetClass(&b); got != want {
			t.Fatalf("%v (lead %d, class %d): network %d, want %d", b, lead, Class(&b), got, want)
		}
		if got := w.NetClass(&b); got != Class(&b) {
			t.Fatalf("%v: three networks judge it by network %d, want its class %d", b, got, Class(&b))
		}
		if pb, pa := before.Evaluate(b), after.Evaluate(b); pb != pa {
			t.Fatalf("%v: %v before the split, %v after", b, pb, pa)
		}
	}
	if len(leading) < 20 {
		t.Fatalf("only %d leading positions in 3000", len(leading))
	}

	tr := read.Clone()
	ev := tr.NewEvaluator()
	p0 := ev.Evaluate(leading[0])
	ev.learn(&leading[0], Probs{1, 1, 1, 0, 0}, 0.1)
	if ev.Evaluate(leading[0]) == p0 {
		t.Error("learning on a leading position changed nothing")
	}
	for c, n := range tr.nets[:ClassLeading] {
		if !equalFloats(n.w1, read.nets[c].w1) || !equalFloats(n.w2, read.nets[c].w2) {
			t.Errorf("learning on a leading position changed network %d", c)
		}
	}
	if _, ok := ParseClass("leading"); ok {
		t.Error(`ParseClass accepts "leading", a class no position has`)
	}
}
