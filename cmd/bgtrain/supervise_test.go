package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
	"github.com/gamemill/gamemill/internal/peertest"
)

func TestSuperviseCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.bgnet")
	var stdout, stderr bytes.Buffer
	ctx := context.Background()
	if code := run(ctx, []string{"supervise", "--positions", "40", "-j", "2", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := bgbot.ParseWeights(data)
	if err != nil {
		t.Fatal(err)
	}
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	if w.Hidden != def.Hidden {
		t.Errorf("hidden %d, want the default's %d", w.Hidden, def.Hidden)
	}
	if !strings.Contains(stdout.String(), "wrote "+out) {
		t.Errorf("output: %s", stdout.String())
	}
	// Labels saved once can be fitted again, from the file.
	labels := filepath.Join(dir, "l.bin")
	if code := run(ctx, []string{"supervise", "--positions", "20", "--save-labels", labels, "--out", filepath.Join(dir, "v.bgnet")}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if code := run(ctx, []string{"supervise", "--labels", labels, "--epochs", "3", "--out", filepath.Join(dir, "w.bgnet")}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if code := run(ctx, []string{"supervise", "--labels", out, "--out", filepath.Join(dir, "x.bgnet")}, nil, &stdout, &stderr); code != 1 {
		t.Errorf("a weights file read as labels: exit %d, want 1", code)
	}
	// Several label files fit together: the same file twice is the same as
	// its positions twice over, and a bad file among good ones is named.
	twice := filepath.Join(dir, "twice.bin")
	both, _, err := readLabelFiles([]string{labels, labels})
	if err != nil {
		t.Fatal(err)
	}
	once, _, err := readLabelFiles([]string{labels})
	if err != nil || len(once) == 0 || len(both) != 2*len(once) || both[len(once)] != once[0] {
		t.Fatalf("two files: %d positions, one file %d (%v)", len(both), len(once), err)
	}
	writeLabelsFile(t, twice, both)
	for i, args := range [][]string{{"--labels", labels + "," + labels}, {"--labels", labels, "--labels", labels}, {"--labels", twice}} {
		name := filepath.Join(dir, fmt.Sprintf("m%d.bgnet", i))
		if code := run(ctx, append([]string{"supervise", "--epochs", "2", "--out", name}, args...), nil, &stdout, &stderr); code != 0 {
			t.Fatal(code, stderr.String())
		}
	}
	for i := 0; i < 2; i++ {
		a, errA := os.ReadFile(filepath.Join(dir, fmt.Sprintf("m%d.bgnet", i)))
		b, errB := os.ReadFile(filepath.Join(dir, "m2.bgnet"))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("fit %d of two label files differs from the fit of one file holding both", i)
		}
	}
	// --classes contact fits the contact network alone: a race is judged
	// as before, contact positions are not.
	var race backgammon.Board
	race[backgammon.OnRoll][0], race[backgammon.OnRoll][3] = 8, 7
	race[backgammon.Opponent][1], race[backgammon.Opponent][5] = 9, 6
	withRace := filepath.Join(dir, "race.bin")
	writeLabelsFile(t, withRace, append(once, bgbot.Labelled{Board: race, Probs: def.NewEvaluator().Evaluate(race).Invert()}))
	for _, fit := range []struct {
		classes  string
		raceKept bool
	}{{"contact", true}, {"contact,race", false}} {
		name := filepath.Join(dir, "c-"+fit.classes+".bgnet")
		if code := run(ctx, []string{"supervise", "--labels", withRace, "--classes", fit.classes, "--epochs", "3", "--alpha", "0.05", "--out", name}, nil, &stdout, &stderr); code != 0 {
			t.Fatal(code, stderr.String())
		}
		fitted, err := loadWeights(name)
		if err != nil {
			t.Fatal(err)
		}
		if before, after := def.NewEvaluator().Evaluate(race), fitted.NewEvaluator().Evaluate(race); (before == after) != fit.raceKept {
			t.Errorf("--classes %s: race judged %v before the fit, %v after", fit.classes, before, after)
		}
	}
	contactOnly, err := loadWeights(filepath.Join(dir, "c-contact.bgnet"))
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, d := range once {
		if bgbot.Class(&d.Board) == bgbot.ClassContact && def.NewEvaluator().Evaluate(d.Board) != contactOnly.NewEvaluator().Evaluate(d.Board) {
			moved++
		}
	}
	if moved == 0 {
		t.Error("a contact-only fit left every contact position's judgement as it was")
	}
	// --crashed gives a network of two classes (as TD training makes
	// them) a crashed network first; fitting it alone moves a crashed
	// position's judgement and leaves every contact position's as it was.
	plain, err := bgbot.NewWeightsLayout(bgbot.LayoutV2, 16, bgbot.SeededRand(3))
	if err != nil {
		t.Fatal(err)
	}
	plainFile := filepath.Join(dir, "plain.bgnet")
	if err := writeAtomic(plainFile, func(out io.Writer) error { _, err := plain.WriteTo(out); return err }); err != nil {
		t.Fatal(err)
	}
	var crash backgammon.Board
	crash[backgammon.OnRoll][0], crash[backgammon.OnRoll][6], crash[backgammon.OnRoll][12] = 10, 2, 3
	crash[backgammon.Opponent][19], crash[backgammon.Opponent][12], crash[backgammon.Opponent][7], crash[backgammon.Opponent][5] = 2, 5, 3, 5
	if bgbot.Class(&crash) != bgbot.ClassCrashed || plain.Classes() > bgbot.ClassCrashed {
		t.Fatalf("test setup: class %d, the starting network has %d classes", bgbot.Class(&crash), plain.Classes())
	}
	withCrash := filepath.Join(dir, "crash.bin")
	writeLabelsFile(t, withCrash, append(once, bgbot.Labelled{Board: crash, Probs: bgbot.Probs{0.05}}))
	split := filepath.Join(dir, "split.bgnet")
	if code := run(ctx, []string{"supervise", "--from", plainFile, "--labels", withCrash, "--crashed", "--classes", "crashed", "--epochs", "3", "--alpha", "0.05", "--out", split}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	crashFit, err := loadWeights(split)
	if err != nil {
		t.Fatal(err)
	}
	if crashFit.Classes() != bgbot.ClassCrashed+1 {
		t.Errorf("--crashed: %d networks", crashFit.Classes())
	}
	if before, after := plain.NewEvaluator().Evaluate(crash), crashFit.NewEvaluator().Evaluate(crash); before == after {
		t.Errorf("--crashed --classes crashed: the crashed position still judged %v", after)
	}
	for _, d := range once {
		if bgbot.Class(&d.Board) == bgbot.ClassContact && plain.NewEvaluator().Evaluate(d.Board) != crashFit.NewEvaluator().Evaluate(d.Board) {
			t.Fatalf("--crashed --classes crashed moved a contact position's judgement")
		}
	}
	// --leading then gives it a leading network; fitting that alone moves
	// a leading position's judgement and leaves the other positions' as
	// they were.
	var lead backgammon.Board
	lead[backgammon.OnRoll][23], lead[backgammon.OnRoll][12], lead[backgammon.OnRoll][7], lead[backgammon.OnRoll][5] = 2, 5, 3, 5
	lead[backgammon.Opponent][23], lead[backgammon.Opponent][12], lead[backgammon.Opponent][7], lead[backgammon.Opponent][5] = 5, 3, 2, 5
	if bgbot.Class(&lead) != bgbot.ClassContact || lead.Pips(backgammon.Opponent)-lead.Pips(backgammon.OnRoll) < bgbot.LeadingPips {
		t.Fatalf("test setup: class %d, lead %d", bgbot.Class(&lead), lead.Pips(backgammon.Opponent)-lead.Pips(backgammon.OnRoll))
	}
	withLead := filepath.Join(dir, "lead.bin")
	writeLabelsFile(t, withLead, append(once, bgbot.Labelled{Board: lead, Probs: bgbot.Probs{0.99, 0.5}}))
	stderr.Reset()
	if code := run(ctx, []string{"supervise", "--from", split, "--labels", withLead, "--classes", "leading", "--out", filepath.Join(dir, "y.bgnet")}, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no leading network") {
		t.Errorf("--classes leading without a leading network: exit %d, stderr %q; want 2 and the reason", code, stderr.String())
	}
	leadFile := filepath.Join(dir, "leading.bgnet")
	if code := run(ctx, []string{"supervise", "--from", split, "--labels", withLead, "--leading", "--classes", "leading", "--epochs", "3", "--alpha", "0.05", "--out", leadFile}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	leadFit, err := loadWeights(leadFile)
	if err != nil {
		t.Fatal(err)
	}
	if leadFit.Classes() != bgbot.NumClasses || leadFit.NetClass(&lead) != bgbot.ClassLeading {
		t.Fatalf("--leading: %d networks, the leading position judged by network %d", leadFit.Classes(), leadFit.NetClass(&lead))
	}
	if before, after := crashFit.NewEvaluator().Evaluate(lead), leadFit.NewEvaluator().Evaluate(lead); before == after {
		t.Errorf("--leading --classes leading: the leading position still judged %v", after)
	}
	for _, d := range append(once, bgbot.Labelled{Board: crash}) {
		if leadFit.NetClass(&d.Board) != bgbot.ClassLeading && crashFit.NewEvaluator().Evaluate(d.Board) != leadFit.NewEvaluator().Evaluate(d.Board) {
			t.Fatalf("--leading --classes leading moved the judgement of a position the leading network does not judge")
		}
	}
	// Without --crashed, a network with no crashed network cannot fit
	// "crashed" alone: its contact network would be fitted instead.
	stderr.Reset()
	if code := run(ctx, []string{"supervise", "--from", plainFile, "--labels", withCrash, "--classes", "crashed", "--out", filepath.Join(dir, "y.bgnet")}, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no crashed network") {
		t.Errorf("--classes crashed without a crashed network: exit %d, stderr %q; want 2 and the reason", code, stderr.String())
	}
	if code := run(ctx, []string{"supervise", "--labels", labels, "--classes", "contact,bearoff", "--out", filepath.Join(dir, "z.bgnet")}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("--classes bearoff: exit %d, want 2", code)
	}
	// --hidden widens the starting network before the fit; it never shrinks one.
	wide := filepath.Join(dir, "wide.bgnet")
	if code := run(ctx, []string{"supervise", "--labels", labels, "--hidden", fmt.Sprint(def.Hidden + 8), "--optimizer", "adam", "--batch", "4", "--alpha", "0.001", "--out", wide}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if got, err := loadWeights(wide); err != nil || got.Hidden != def.Hidden+8 {
		t.Errorf("--hidden %d: read back %v, %v", def.Hidden+8, got, err)
	}
	for _, args := range [][]string{{"--hidden", fmt.Sprint(def.Hidden - 1)}, {"--optimizer", "rmsprop"}, {"--batch", "0"}} {
		if code := run(ctx, append([]string{"supervise", "--labels", labels, "--out", filepath.Join(dir, "n.bgnet")}, args...), nil, &stdout, &stderr); code != 2 {
			t.Errorf("supervise %v: exit %d, want 2", args, code)
		}
	}
	stderr.Reset()
	if code := run(ctx, []string{"supervise", "--labels", labels + "," + out, "--out", filepath.Join(dir, "y.bgnet")}, nil, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), out) {
		t.Errorf("a weights file among label files: exit %d, %q", code, stderr.String())
	}
	// Starting from the file it wrote works; bad flags are refused.
	if code := run(ctx, []string{"supervise", "--from", out, "--positions", "10", "--out", filepath.Join(dir, "t.bgnet")}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	for _, args := range [][]string{{"--plies", "0"}, {"--epochs", "0"}, {"--alpha", "0"}, {"--from", filepath.Join(dir, "missing")}} {
		if code := run(ctx, append([]string{"supervise", "--positions", "10", "--out", filepath.Join(dir, "u.bgnet")}, args...), nil, &stdout, &stderr); code == 0 {
			t.Errorf("supervise %v accepted", args)
		}
	}
}

func TestMakeBearoffCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b.bgbo")
	var stdout, stderr bytes.Buffer
	ctx := context.Background()
	if code := run(ctx, []string{"makebearoff", "--checkers", "5", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	db, err := bgbot.ReadBearoff(f)
	if err != nil || db.Checkers != 5 {
		t.Errorf("read back: %v, %v", db, err)
	}
	// A duel's bots can use it; a missing file is an error.
	if code := run(ctx, []string{"duel", "--a", "net", "--b", "net", "--a-bearoff", out, "--b-cube-plies", "1", "--b-bearoff2", "2", "--cube", "--games", "4"}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if code := run(ctx, []string{"duel", "--a", "net", "--b", "net", "--b-bearoff", out + ".missing", "--games", "4"}, nil, &stdout, &stderr); code != 1 {
		t.Errorf("missing bearoff file: exit %d, want 1", code)
	}
	if code := run(ctx, []string{"makebearoff", "--checkers", "16", "--out", out}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("--checkers 16: exit %d, want 2", code)
	}
}

// TestSuperviseGnubgTeacher labels self-play positions with gnubg's 0-ply
// evaluation through two gnubg processes. The labels are gnubg's, not the
// network's (they differ from the default's own judgement), and they are
// for the player on roll (they come within a tenth of the default's
// judgement on average, where the other side's view would be far off).
func TestSuperviseGnubgTeacher(t *testing.T) {
	bin := peertest.Gnubg(t)
	dir := t.TempDir()
	labels := filepath.Join(dir, "g.bin")
	var stdout, stderr bytes.Buffer
	ctx := context.Background()
	args := []string{"supervise", "--teacher", "gnubg", "--gnubg", bin, "--plies", "0", "--positions", "60",
		"--alternatives", "2", "--workers", "2", "--save-labels", labels, "--out", filepath.Join(dir, "g.bgnet")}
	if code := run(ctx, args, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	f, err := os.Open(labels)
	if err != nil {
		t.Fatal(err)
	}
	data, groups, err := bgbot.ReadLabelledGroups(f)
	f.Close()
	if err != nil || len(data) != 60 || len(groups) != 60 {
		t.Fatalf("%d labels, %d groups, %v", len(data), len(groups), err)
	}
	if shared := 60 - len(slices.Compact(slices.Clone(groups))); shared < 20 {
		t.Errorf("only %d of 60 labels share a decision with the one before", shared)
	}
	// The ranking term fits grouped labels, with Adam only, and refuses
	// labels that do not record their decisions.
	ranked := filepath.Join(dir, "r.bgnet")
	if code := run(ctx, []string{"supervise", "--labels", labels, "--optimizer", "adam", "--rank", "1", "--out", ranked}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	} else if _, err := os.Stat(ranked); err != nil {
		t.Error(err)
	}
	plain := filepath.Join(dir, "plain.bin")
	writeLabelsFile(t, plain, data)
	for _, bad := range [][]string{{"--labels", labels, "--rank", "1"}, {"--labels", plain, "--optimizer", "adam", "--rank", "1"}, {"--labels", labels, "--optimizer", "adam", "--rank", "-1"}} {
		if code := run(ctx, append([]string{"supervise", "--out", filepath.Join(dir, "u.bgnet")}, bad...), nil, &stdout, &stderr); code != 2 {
			t.Errorf("supervise %v: exit %d, want 2", bad, code)
		}
	}
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	ev := def.NewEvaluator()
	var dist, flipped float64
	for _, d := range data {
		ours, label := float64(ev.Evaluate(d.Board).Equity()), float64(d.Probs.Equity())
		dist += math.Abs(label - ours)
		flipped += math.Abs(label + ours)
	}
	dist, flipped = dist/60, flipped/60
	t.Logf("gnubg's labels: %.4f from the default's judgement, %.4f from its judgement turned round", dist, flipped)
	if !(dist > 0.001) || !(dist < 0.1) || !(flipped > 3*dist) {
		t.Errorf("labels %.4f from the default's judgement and %.4f from it turned round", dist, flipped)
	}
	for _, bad := range [][]string{{"--teacher", "oracle"}, {"--teacher", "gnubg", "--plies", "9"}, {"--teacher", "self", "--plies", "0"}} {
		if code := run(ctx, append([]string{"supervise", "--positions", "10", "--out", filepath.Join(dir, "u.bgnet")}, bad...), nil, &stdout, &stderr); code != 2 {
			t.Errorf("supervise %v: exit %d, want 2", bad, code)
		}
	}
	missing := []string{"supervise", "--teacher", "gnubg", "--gnubg", filepath.Join(dir, "no-gnubg"), "--positions", "10", "--out", filepath.Join(dir, "m.bgnet")}
	if code := run(ctx, missing, nil, &stdout, &stderr); code != 1 {
		t.Errorf("a missing gnubg: exit %d, want 1", code)
	}
}

// TestReadLabelFilesGroups checks that grouped label files read together
// keep their groups apart (the second file's numbers move past the
// first's, so no group spans two files), and that one ungrouped file
// among them drops the groups.
func TestReadLabelFilesGroups(t *testing.T) {
	dir := t.TempDir()
	start := backgammon.Standard.StartBoard()
	data := []bgbot.Labelled{{Board: start, Probs: bgbot.Probs{0.5}}, {Board: start, Probs: bgbot.Probs{0.6}}, {Board: start, Probs: bgbot.Probs{0.4}}}
	write := func(name string, groups []int32) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := bgbot.WriteLabelledGroups(f, data, groups); err != nil || f.Close() != nil {
			t.Fatal(err)
		}
		return path
	}
	a, b, plain := write("a.bin", []int32{0, 0, 1}), write("b.bin", []int32{1, 1, 2}), write("p.bin", nil)
	all, groups, err := readLabelFiles([]string{a, b})
	if err != nil || len(all) != 6 {
		t.Fatalf("%d positions, %v", len(all), err)
	}
	// Unmoved, b's first group would run on from a's last one.
	if want := []int32{0, 0, 1, 3, 3, 4}; !slices.Equal(groups, want) {
		t.Errorf("groups %v, want %v", groups, want)
	}
	if _, groups, err := readLabelFiles([]string{a, plain}); err != nil || groups != nil {
		t.Errorf("a grouped and a plain file: groups %v, %v", groups, err)
	}
}

// TestSuperviseRaceOnly samples races only, past a 15-checker bearoff
// database's exact positions, and fits the race network (of layout 4):
// the labels must all be races the database does not answer, and the
// contact network must come out unchanged.
func TestSuperviseRaceOnly(t *testing.T) {
	dir := t.TempDir()
	db, err := bgbot.NewBearoff(15)
	if err != nil {
		t.Fatal(err)
	}
	dbFile := filepath.Join(dir, "b15.bgbo")
	f, err := os.Create(dbFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteTo(f); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	labels, out := filepath.Join(dir, "race.bin"), filepath.Join(dir, "r.bgnet")
	var stdout, stderr bytes.Buffer
	args := []string{"supervise", "--positions", "60", "--alternatives", "2", "--sample-classes", "race",
		"--bearoff", dbFile, "--layout", "4", "--classes", "race", "--save-labels", labels, "--out", out}
	if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	lf, err := os.Open(labels)
	if err != nil {
		t.Fatal(err)
	}
	data, groups, err := bgbot.ReadLabelledGroups(lf)
	lf.Close()
	if err != nil || len(data) != 60 || len(groups) != 60 {
		t.Fatalf("%d labels, %d groups (%v), want 60", len(data), len(groups), err)
	}
	for _, l := range data {
		if bgbot.Contact(&l.Board) {
			t.Fatalf("a contact position among race-only labels: %v", l.Board)
		}
		if _, exact := db.Probs(&l.Board); exact {
			t.Fatalf("a position the bearoff database answers was sampled: %v", l.Board)
		}
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := bgbot.ParseWeights(raw)
	if err != nil || w.Layout != bgbot.LayoutV4 {
		t.Fatalf("fitted network: layout %v (%v), want 4", w, err)
	}
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	var contact backgammon.Board // the start position
	for _, side := range []int{backgammon.OnRoll, backgammon.Opponent} {
		contact[side][5], contact[side][7], contact[side][12], contact[side][23] = 5, 3, 5, 2
	}
	a, b := def.NewEvaluator().Evaluate(contact), w.NewEvaluator().Evaluate(contact)
	if a != b {
		t.Errorf("a race-only fit changed a contact judgement: %v, was %v", b, a)
	}
	var race backgammon.Board
	race[backgammon.OnRoll][7], race[backgammon.OnRoll][3] = 3, 12
	race[backgammon.Opponent][9], race[backgammon.Opponent][2] = 2, 13
	if a, b := def.NewEvaluator().Evaluate(race), w.NewEvaluator().Evaluate(race); a == b {
		t.Errorf("the race fit left a race's judgement where it was: %v", a)
	}
	for _, bad := range [][]string{{"--sample-classes", "bogus"}, {"--layout", "9"}, {"--layout", "1"}, {"--sample-classes", "race", "--labels", labels}} {
		if code := run(context.Background(), append([]string{"supervise", "--positions", "5", "--out", filepath.Join(dir, "x.bgnet")}, bad...), nil, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
}

// TestSuperviseRecords labels the positions of a recorded 5-point match
// (bgbot against gnubg 0-ply) instead of self-play: every decision gives
// its group, the count is reported, --positions caps it, and --records
// with --labels is refused.
func TestSuperviseRecords(t *testing.T) {
	dir := t.TempDir()
	rec := "../../player/gnubg/verdict/testdata/bgbot-gnubg0-match5.mat"
	labels := filepath.Join(dir, "rec.bin")
	var stdout, stderr bytes.Buffer
	args := []string{"supervise", "--records", rec, "--alternatives", "1", "--positions", "100000", "--epochs", "1",
		"--save-labels", labels, "--out", filepath.Join(dir, "r.bgnet")}
	if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	m := regexp.MustCompile(`sampled (\d+) positions from (\d+) recorded decisions`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no sampling line:\n%s", stdout.String())
	}
	positions, _ := strconv.Atoi(m[1])
	decisions, _ := strconv.Atoi(m[2])
	// 84 + 105 unforced moves in gnubg's count, and forced ones besides.
	if decisions < 189 || positions <= decisions || positions > 3*decisions {
		t.Errorf("%d positions from %d decisions", positions, decisions)
	}
	lf, err := os.Open(labels)
	if err != nil {
		t.Fatal(err)
	}
	data, groups, err := bgbot.ReadLabelledGroups(lf)
	lf.Close()
	if err != nil || len(data) != positions || len(groups) != positions {
		t.Fatalf("%d labels, %d groups (%v), want %d", len(data), len(groups), err, positions)
	}
	stdout.Reset()
	args = []string{"supervise", "--records", filepath.Dir(rec), "--sample-classes", "race", "--positions", "25", "--epochs", "1", "--out", filepath.Join(dir, "r2.bgnet")}
	if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "sampled 25 positions from ") {
		t.Errorf("--positions 25 from a directory of records:\n%s", stdout.String())
	}
	if code := run(context.Background(), []string{"supervise", "--records", rec, "--labels", labels}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("--records with --labels: exit %d", code)
	}
}

// TestSuperviseScores samples the decisions of a recorded 5-point match
// (bgbot against gnubg 0-ply; game 1 before the Crawford game, game 2 the
// Crawford game, games 3 and 4 after it) by stage of play: the stages
// split the decisions, a money stage finds none there, and a stage that
// does not exist, or one without --records, is refused.
func TestSuperviseScores(t *testing.T) {
	dir := t.TempDir()
	rec := "../../engine/bgbot/benchset/testdata/crawford-match5.mat"
	decisions := func(stages ...string) int {
		t.Helper()
		if len(stages) == 0 {
			return sampledDecisions(t, dir, rec)
		}
		return sampledDecisions(t, dir, rec, "--sample-scores", strings.Join(stages, ","))
	}
	all := decisions()
	before, crawford, post := decisions("before"), decisions("crawford"), decisions("post-crawford")
	// The record's rolls, dances included: 31 in game 1, 50 in game 2,
	// 2 and 42 in games 3 and 4.
	if before != 31 || crawford != 50 || post != 44 || all != 125 || decisions("crawford", "post-crawford") != crawford+post {
		t.Errorf("before %d, crawford %d, post-crawford %d: want each of the %d decisions in one stage", before, crawford, post, all)
	}
	if n := decisions("money"); n != 0 {
		t.Errorf("money decisions in a match: %d", n)
	}
	var stdout, stderr bytes.Buffer
	for _, bad := range [][]string{{"--records", rec, "--sample-scores", "dmp"}, {"--sample-scores", "crawford"}} {
		if code := run(context.Background(), append([]string{"supervise", "--positions", "5", "--out", filepath.Join(dir, "x.bgnet")}, bad...), nil, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
}

// sampledDecisions runs supervise on the records rec with the extra
// arguments and returns how many recorded decisions it sampled from.
func sampledDecisions(t *testing.T, dir, rec string, extra ...string) int {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append([]string{"supervise", "--records", rec, "--positions", "100000", "--epochs", "1", "--out", filepath.Join(dir, "s.bgnet")}, extra...)
	if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
		t.Fatal(extra, code, stderr.String())
	}
	m := regexp.MustCompile(`sampled \d+ positions from (\d+) recorded decisions`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("%v: no sampling line:\n%s", extra, stdout.String())
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestSuperviseLead samples the recorded match's decisions by the mover's
// pip lead, alone and with a stage, counted against a walk of the record
// itself; a range that is not LO,HI with LO <= HI, or one without
// --records, is refused.
func TestSuperviseLead(t *testing.T) {
	dir := t.TempDir()
	rec := "../../engine/bgbot/benchset/testdata/crawford-match5.mat"
	m, err := recordfile.Load(rec)
	if err != nil {
		t.Fatal(err)
	}
	leads, stages := []int{}, []string{}
	if err := record.Walk(m, func(p *record.Position) error {
		if p.Action.Kind == record.Move {
			leads = append(leads, benchset.Lead(&p.State.Board))
			stages = append(stages, benchset.Stage(p.State))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	count := func(lo, hi int, stage string) int {
		n := 0
		for i, l := range leads {
			if lo <= l && l <= hi && (stage == "" || stages[i] == stage) {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		lo, hi int
		stage  string
	}{{20, 59, ""}, {-59, -20, ""}, {-19, 19, ""}, {0, 200, "crawford"}} {
		want := count(c.lo, c.hi, c.stage)
		args := []string{"--sample-lead", fmt.Sprintf("%d,%d", c.lo, c.hi)}
		if c.stage != "" {
			args = append(args, "--sample-scores", c.stage)
		}
		if want == 0 || want == len(leads) {
			t.Fatalf("%v: %d of %d decisions: the case tells nothing", args, want, len(leads))
		}
		if got := sampledDecisions(t, dir, rec, args...); got != want {
			t.Errorf("%v: sampled from %d decisions, the record has %d", args, got, want)
		}
	}
	var stdout, stderr bytes.Buffer
	for _, bad := range [][]string{{"--records", rec, "--sample-lead", "20"}, {"--records", rec, "--sample-lead", "59,20"}, {"--sample-lead", "20,59"}} {
		if code := run(context.Background(), append([]string{"supervise", "--positions", "5", "--out", filepath.Join(dir, "x.bgnet")}, bad...), nil, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
}

// TestSuperviseWindow samples only positions whose 0-ply win chance lies
// in --sample-window, by the starting network, and refuses windows that
// are not LO < HI within 0..1 or come with --labels.
func TestSuperviseWindow(t *testing.T) {
	dir := t.TempDir()
	labels := filepath.Join(dir, "win.bin")
	var stdout, stderr bytes.Buffer
	args := []string{"supervise", "--positions", "40", "--sample-window", "0.6,0.8", "--epochs", "1",
		"--save-labels", labels, "--out", filepath.Join(dir, "w.bgnet")}
	if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	lf, err := os.Open(labels)
	if err != nil {
		t.Fatal(err)
	}
	data, err := bgbot.ReadLabelled(lf)
	lf.Close()
	if err != nil || len(data) != 40 {
		t.Fatalf("%d labels (%v), want 40", len(data), err)
	}
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	ev := def.NewEvaluator()
	for _, l := range data {
		if win := ev.Evaluate(l.Board)[bgbot.Win]; win < 0.6 || win > 0.8 {
			t.Errorf("a position with win chance %.3f outside the window 0.6,0.8", win)
		}
	}
	for _, bad := range [][]string{{"--sample-window", "0.8,0.6"}, {"--sample-window", "0.5"}, {"--sample-window", "0.5,1.2"}, {"--sample-window", "0.5,0.9", "--labels", labels}} {
		if code := run(context.Background(), append([]string{"supervise", "--positions", "5", "--out", filepath.Join(dir, "x.bgnet")}, bad...), nil, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
}

// writeLabelsFile writes labels to path as bgtrain supervise reads them.
func writeLabelsFile(t *testing.T, path string, labels []bgbot.Labelled) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := bgbot.WriteLabelled(f, labels); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
