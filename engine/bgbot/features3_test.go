package bgbot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestRaceFeatures(t *testing.T) {
	var s [25]int8
	s[7], s[12], s[2], s[3] = 2, 1, 5, 7 // two on my 8 point, one on 13, twelve home on 3 and 4
	r := make([]float32, RacePerSide)
	raceFeatures(&s, r)
	want := map[int]float32{
		RCross:      float32(2*1+1*2) / 10,
		RHomeIn:     float32(2*2+7) / 100,
		RSaveGammon: float32(2*2+7+3) / 100,
	}
	for i, v := range r {
		if v != want[i] {
			t.Errorf("feature %d = %v, want %v", i, v, want[i])
		}
	}

	// Three off: the one-hot says so and the gammon is saved.
	s = [25]int8{}
	s[0], s[5], s[20] = 4, 7, 1
	clear(r)
	raceFeatures(&s, r)
	if r[ROff+2] != 1 || r[RSaveGammon] != 0 || r[RCross] != 0.3 || r[RHomeIn] != 0.15 {
		t.Errorf("three off, one on the 21 point: %v", r)
	}
	for k := 0; k < 14; k++ {
		if k != 2 && r[ROff+k] != 0 {
			t.Errorf("off unit %d set with three off", k+1)
		}
	}
}

// TestWidenToLayout3 widens a layout-2 network to layout 3: it must judge
// every position as before, and the race inputs must reach the race
// network only (a weight on one moves races, not contact positions).
func TestWidenToLayout3(t *testing.T) {
	w, err := NewWeightsLayout(LayoutV2, 32, SeededRand(3))
	if err != nil {
		t.Fatal(err)
	}
	if w, err = w.SplitCrashed(); err != nil {
		t.Fatal(err)
	}
	wide, err := w.Widen(LayoutV3, w.Hidden, nil)
	if err != nil {
		t.Fatal(err)
	}
	if wide.Layout != LayoutV3 || InputsOf(LayoutV3) != NumInputsV3 {
		t.Fatalf("widened to layout %d", wide.Layout)
	}
	a, c := w.NewEvaluator(), wide.NewEvaluator()
	rng := rand.New(rand.NewPCG(4, 5))
	boards := samplePositions(t, rng, 3000)
	races := 0
	for _, b := range boards {
		if !Contact(&b) {
			races++
		}
		pa, pc := a.Evaluate(b), c.Evaluate(b)
		for k := range pa {
			if math.Abs(float64(pa[k]-pc[k])) > 1e-5 {
				t.Fatalf("%v: %v before widening, %v after", b, pa, pc)
			}
		}
	}
	if races < 50 {
		t.Fatalf("only %d races among the sample", races)
	}
	// Feed the "checkers to cross" input of the player on roll into every
	// hidden unit of the race network.
	n := wide.nets[ClassRace]
	for j := 0; j < n.hidden; j++ {
		n.w1[(NumInputsV2+RCross)*n.hidden+j] = 0.5
	}
	c = wide.NewEvaluator()
	movedRaces := 0
	for _, b := range boards {
		pa, pc := a.Evaluate(b), c.Evaluate(b)
		same := pa == pc
		if Contact(&b) && !same {
			t.Fatalf("a race input moved a contact position: %v", b)
		}
		var crossing bool
		for i := 6; i < 24; i++ {
			crossing = crossing || b[backgammon.OnRoll][i] > 0
		}
		if !Contact(&b) && crossing && !same {
			movedRaces++
		}
	}
	if movedRaces == 0 {
		t.Error("the race input moved no race with checkers still to come home")
	}
}

// BenchmarkNetEvaluateRace measures one evaluation of a race by networks
// of layouts 2 and 3 (256 hidden units, fresh weights), the cost of the
// race features.
func BenchmarkNetEvaluateRace(b *testing.B) {
	var bd backgammon.Board
	bd[backgammon.OnRoll][7], bd[backgammon.OnRoll][10], bd[backgammon.OnRoll][3] = 3, 2, 10
	bd[backgammon.Opponent][12], bd[backgammon.Opponent][4], bd[backgammon.Opponent][1] = 4, 6, 5
	for _, layout := range []int{LayoutV2, LayoutV3} {
		w, err := NewWeightsLayout(layout, 256, SeededRand(1))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("layout%d", layout), func(b *testing.B) {
			ev := w.NewEvaluator()
			for i := 0; i < b.N; i++ {
				ev.Evaluate(bd)
			}
		})
	}
}

// TestCrashedRaceFeatures: crashed positions see the race features (a
// checker on the bar counted on the 25 point), ordinary contact positions
// do not, so a race-feature weight in the crashed network moves crashed
// positions and nothing else.
func TestCrashedRaceFeatures(t *testing.T) {
	var b backgammon.Board
	me, them := &b[backgammon.OnRoll], &b[backgammon.Opponent]
	me[0], me[1], me[2], me[3] = 5, 4, 2, 1          // 12 home, three off: crashed
	them[backgammon.BarIndex], them[20] = 1, 1       // one on the bar, one on my 4 point (its 21)
	them[12], them[5], them[4], them[3] = 3, 4, 3, 3 // and 13 more
	if Class(&b) != ClassCrashed {
		t.Fatalf("test board is %s, not crashed", ClassName(Class(&b)))
	}
	x := make([]float32, NumInputsV3)
	e3 := newEncoderFor(LayoutV3)
	e3.encode(&b, x, nil)
	for i, v := range x[NumInputsV2:] {
		if v != 0 {
			t.Errorf("layout 3 sets race feature %d = %v in a crashed position", i, v)
		}
	}
	e := newEncoderFor(LayoutV4)
	clear(x)
	e.encode(&b, x, nil)
	mine, theirs := x[NumInputsV2:NumInputsV2+RacePerSide], x[NumInputsV2+RacePerSide:]
	if mine[ROff+2] != 1 || mine[RHomeIn] != 0 || mine[RSaveGammon] != 0 {
		t.Errorf("bearing-off side's race features %v, want three off and home", mine)
	}
	// The opponent: the bar checker 19 pips from home and 3 crossovers
	// away, the one on its 21 point 15 and 3, its 13 point's three 7 and 2
	// each.
	if want := float32(19+15+3*7) / 100; math.Abs(float64(theirs[RHomeIn]-want)) > 1e-6 {
		t.Errorf("opponent's pips to come home %v, want %v", theirs[RHomeIn], want)
	}
	if want := float32(4+3+3*2) / 10; math.Abs(float64(theirs[RCross]-want)) > 1e-6 {
		t.Errorf("opponent's crossovers %v, want %v", theirs[RCross], want)
	}
	start := backgammon.Standard.StartBoard()
	clear(x)
	e.encode(&start, x, nil)
	for i, v := range x[NumInputsV2:] {
		if v != 0 {
			t.Errorf("race feature %d = %v in the starting position", i, v)
		}
	}

	// Widening a layout-3 network to layout 4 keeps what it computes,
	// whatever it had on the race inputs outside the race network.
	f, err := os.Open("weights/previous/v11.bgnet")
	if err != nil {
		t.Fatal(err)
	}
	old, err := ReadWeights(f)
	f.Close()
	if err != nil || old.Layout != LayoutV3 {
		t.Fatalf("V11: layout %v, %v", old, err)
	}
	n := old.nets[ClassCrashed]
	for j := 0; j < n.hidden; j++ {
		n.w1[(NumInputsV2+ROff+2)*n.hidden+j] = 1 // unused in layout 3
	}
	w, err := old.Widen(LayoutV4, old.Hidden, nil)
	if err != nil {
		t.Fatal(err)
	}
	boards := samplePositions(t, rand.New(rand.NewPCG(6, 7)), 3000)
	a, c := old.NewEvaluator(), w.NewEvaluator()
	for _, p := range boards {
		if a.Evaluate(p) != c.Evaluate(p) {
			t.Fatalf("widened to layout 4, %v judged differently", p)
		}
	}
	moved := w.Clone()
	n = moved.nets[ClassCrashed]
	for j := 0; j < n.hidden; j++ {
		n.w1[(NumInputsV2+RacePerSide+RHomeIn)*n.hidden+j] += 0.5
	}
	a, c = w.NewEvaluator(), moved.NewEvaluator()
	crashed := 0
	for _, p := range boards {
		same := a.Evaluate(p) == c.Evaluate(p)
		switch cls := Class(&p); {
		case cls == ClassCrashed && !same:
			crashed++
		case cls != ClassCrashed && !same:
			t.Fatalf("a crashed network's race input moved a %s position: %v", ClassName(cls), p)
		}
	}
	if crashed == 0 {
		t.Error("the race input moved no crashed position")
	}
}
