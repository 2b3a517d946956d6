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

	// With groups: both readers take the file, only one returns them.
	buf.Reset()
	groups := []int32{0, 7}
	if err := WriteLabelledGroups(&buf, data, groups); err != nil {
		t.Fatal(err)
	}
	raw = buf.Bytes()
	got, g, err := ReadLabelledGroups(bytes.NewReader(raw))
	if err != nil || len(got) != 2 || got[1] != data[1] || !slices.Equal(g, groups) {
		t.Fatalf("read back %v groups %v (%v), want %v and %v", got, g, err, data, groups)
	}
	if plain, err := ReadLabelled(bytes.NewReader(raw)); err != nil || len(plain) != 2 {
		t.Errorf("ReadLabelled on a grouped file: %d positions, %v", len(plain), err)
	}
	if _, _, err := ReadLabelledGroups(bytes.NewReader(raw[:len(raw)-2])); err == nil {
		t.Error("a grouped file cut short in its groups accepted")
	}
	if _, g, err := ReadLabelledGroups(bytes.NewReader(raw[:0:0])); err == nil || g != nil {
		t.Error("an empty file accepted")
	}
	if err := WriteLabelledGroups(&buf, data, groups[:1]); err == nil {
		t.Error("one group for two positions written")
	}
}

func FuzzReadLabelled(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteLabelled(&buf, []Labelled{{Board: backgammon.Standard.StartBoard(), Probs: Probs{0.5, 0.1, 0, 0.1, 0}}}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(labelledMagic + "\xff\xff\xff\xff"))
	buf.Reset()
	if err := WriteLabelledGroups(&buf, []Labelled{{Board: backgammon.Standard.StartBoard(), Probs: Probs{0.5, 0.1, 0, 0.1, 0}}}, []int32{3}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, raw []byte) {
		data, groups, err := ReadLabelledGroups(bytes.NewReader(raw))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteLabelledGroups(&out, data, groups); err != nil {
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

// TestSampleDecisions checks the decision groups: the boards are
// SampleWithAlternatives' own, each group is one contiguous run, and the
// members of a group of two or more are different results of one roll
// played from the self-play position just before the group.
func TestSampleDecisions(t *testing.T) {
	ctx := context.Background()
	w, db := defaultNetAndBearoff(t)
	mixed, err := SampleWithAlternatives(ctx, w, db, 300, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	boards, groups, err := SampleDecisions(ctx, w, db, 300, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(boards, mixed) || len(groups) != len(boards) {
		t.Fatalf("%d boards (%d groups) differ from SampleWithAlternatives' %d", len(boards), len(groups), len(mixed))
	}
	runs := groupRuns(groups, len(groups))
	seen := map[int32]bool{}
	shared := 0
	for g := range len(runs) - 1 {
		lo, hi := runs[g], runs[g+1]
		if seen[groups[lo]] {
			t.Fatalf("group %d comes back at position %d", groups[lo], lo)
		}
		seen[groups[lo]] = true
		if hi-lo < 2 {
			continue
		}
		shared += hi - lo
		if lo == 0 {
			t.Fatalf("a group of %d opens the sample", hi-lo)
		}
		// The position the decision was taken in, mover on roll.
		from := boards[lo-1]
		found := false
		for d1 := 1; d1 <= 6 && !found; d1++ {
			for d2 := d1; d2 <= 6 && !found; d2++ {
				_, results := backgammon.LegalMoves(from, d1, d2)
				legal := map[backgammon.Board]bool{}
				for _, r := range results {
					legal[r.Swap()] = true
				}
				found = true
				for _, b := range boards[lo:hi] {
					found = found && legal[b]
				}
			}
		}
		if !found {
			t.Errorf("group at %d..%d: no roll from position %d reaches all its members", lo, hi, lo-1)
		}
		for i := lo; i < hi; i++ {
			for j := lo; j < i; j++ {
				if boards[i] == boards[j] {
					t.Errorf("group at %d..%d holds position %d twice", lo, hi, i)
				}
			}
		}
	}
	if shared < 200 {
		t.Errorf("only %d of 300 positions share a decision with others", shared)
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

// TestFitAdamRanked checks the ranking term: from the same start, seed
// and labels, a fit with it leaves the siblings of a decision closer to
// their labels' differences (each one's equity error less its group's
// mean) than the plain fit does, and it is reproducible.
func TestFitAdamRanked(t *testing.T) {
	ctx := context.Background()
	w, db := defaultNetAndBearoff(t)
	boards, groups, err := SampleDecisions(ctx, w, db, 400, 11, 4)
	if err != nil {
		t.Fatal(err)
	}
	data, err := Label(ctx, w, db, nil, boards, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	fit := func(g []int32, rank float64) *Weights {
		f := w.Clone()
		if err := FitAdamRanked(ctx, f, data, g, rank, 6, 16, 0.001, 0.0002, 5, nil); err != nil {
			t.Fatal(err)
		}
		return f
	}
	plain, ranked := fit(nil, 0), fit(groups, 4)
	before := siblingError(w, data, groups)
	p, r := siblingError(plain, data, groups), siblingError(ranked, data, groups)
	t.Logf("siblings' centred squared equity error: %.6f before, %.6f plain fit, %.6f ranked fit", before, p, r)
	if !(r < p) || !(r < before) {
		t.Errorf("ranked fit %.6f, plain fit %.6f, before %.6f: the ranking term did not bring the siblings closer", r, p, before)
	}
	if again := fit(groups, 4); !slices.Equal(again.nets[ClassContact].w1, ranked.nets[ClassContact].w1) {
		t.Error("two ranked fits from the same seed differ")
	}
	same := w.Clone()
	if err := FitAdam(ctx, same, data, 6, 16, 0.001, 0.0002, 5, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(same.nets[ClassContact].w1, plain.nets[ClassContact].w1) {
		t.Error("FitAdamRanked without groups differs from FitAdam")
	}
	if err := FitAdamRanked(ctx, w.Clone(), data, groups[:10], 1, 1, 16, 0.001, 0, 5, nil); err == nil {
		t.Error("groups shorter than the positions: no error")
	}
}

// siblingError is the mean over positions in groups of two or more of the
// squared difference between w's equity error and its group's mean error.
func siblingError(w *Weights, data []Labelled, groups []int32) float64 {
	ev := w.NewEvaluator()
	runs := groupRuns(groups, len(groups))
	var sum float64
	n := 0
	for g := range len(runs) - 1 {
		members := data[runs[g]:runs[g+1]]
		if len(members) < 2 {
			continue
		}
		errs := make([]float64, len(members))
		var mean float64
		for i, d := range members {
			errs[i] = float64(ev.Evaluate(d.Board).Equity() - d.Probs.Equity())
			mean += errs[i] / float64(len(members))
		}
		for _, e := range errs {
			sum += (e - mean) * (e - mean)
			n++
		}
	}
	return sum / float64(max(n, 1))
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

// TestSampleRecordedDecisions samples the decisions of a short game
// played by the net itself, recorded: each decision's group holds the
// played move's position and the net's best moves' (the same here, so
// 1+alternatives distinct positions at most), positions come once, the
// groups number the decisions in order, and keep and n are obeyed.
func TestSampleRecordedDecisions(t *testing.T) {
	ctx := context.Background()
	w, db := defaultNetAndBearoff(t)
	bot, err := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db})
	if err != nil {
		t.Fatal(err)
	}
	var ds []RecordedDecision
	b := backgammon.Standard.StartBoard()
	dice := backgammon.NewDice(5, 0)
	for range 400 { // to the game's end, so that it reaches a race
		d0, d1 := dice.Roll()
		m, _, moved := bot.ChooseMove(b, d0, d1)
		if !moved {
			b = b.Swap()
			continue
		}
		after := b.Apply(m)
		ds = append(ds, RecordedDecision{Board: b, Dice: [2]int{d0, d1}, Played: after})
		if _, over := Outcome(&after, 15); over {
			break
		}
		b = after.Swap()
	}
	boards, groups, err := SampleRecordedDecisions(ctx, w, db, ds, 2, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) != len(groups) || len(boards) < len(ds) {
		t.Fatalf("%d boards, %d groups from %d decisions", len(boards), len(groups), len(ds))
	}
	seen := map[backgammon.Board]bool{}
	size := map[int32]int{}
	for i, b := range boards {
		if seen[b] {
			t.Fatalf("position %d comes twice", i)
		}
		seen[b] = true
		size[groups[i]]++
		if i > 0 && groups[i] != groups[i-1] && groups[i] != groups[i-1]+1 {
			t.Fatalf("groups jump from %d to %d", groups[i-1], groups[i])
		}
	}
	for g, n := range size {
		if n > 3 {
			t.Errorf("group %d has %d positions, want at most 1+2", g, n)
		}
	}
	if !seen[ds[0].Played.Swap()] {
		t.Error("the first move's position is not sampled")
	}
	races, _, err := SampleRecordedDecisions(ctx, w, db, ds, 2, func(b *backgammon.Board) bool { return !Contact(b) }, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(races) == 0 {
		t.Fatal("no race positions from a whole game")
	}
	for _, b := range races {
		if Contact(&b) {
			t.Fatal("keep let a contact position through")
		}
	}
	if few, _, err := SampleRecordedDecisions(ctx, w, db, ds, 2, nil, 5); err != nil || len(few) != 5 {
		t.Errorf("n = 5 gave %d positions (%v)", len(few), err)
	}
}
