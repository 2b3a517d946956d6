package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
)

// benchset writes a set that benchmark reads and scores; bad flags and a
// damaged set are errors with the right exit status.
func TestBenchsetAndBenchmark(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set.txt")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"benchset", "--positions", "3", "--trials", "36", "--workers", "2", "--out", set}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("benchset: exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(set)
	if err != nil {
		t.Fatal(err)
	}
	positions, err := benchset.Read(f)
	f.Close()
	if err != nil || len(positions) != 3 {
		t.Fatalf("read %d positions: %v", len(positions), err)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"benchmark", "--set", set, "--plies", "1"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("benchmark: exit %d: %s", code, stderr.String())
	}
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "embedded weights at 1 ply") || !regexp.MustCompile(`(?m)^all +3 `).MatchString(stdout.String()) ||
		!regexp.MustCompile(fmt.Sprintf(`hidden units in use .*: contact \d+/%d`, def.Hidden)).MatchString(stdout.String()) ||
		!regexp.MustCompile(`(?m)^  doubles \d+\.\d\d \(\d+ wrong, \d+ missed\), takes .*, redoubles \d+\.\d\d$`).MatchString(stdout.String()) {
		t.Errorf("benchmark printed:\n%s", stdout.String())
	}
	if err := os.WriteFile(set, []byte("4HPwATDgc/ABMA 0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"benchmark", "--set", set}, 1, "set.txt: line 1: 2 fields"},
		{[]string{"benchmark", "--plies", "9"}, 2, "--plies must be within"},
		{[]string{"benchset", "--trials", "0"}, 2, "must be at least 1"},
	} {
		stderr.Reset()
		if code := run(context.Background(), c.args, nil, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}

// makepruner writes a pruner that bgbot reads; bad flags are usage errors.
func TestMakePruner(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.bgpr")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"makepruner", "--positions", "300", "--hidden", "4", "--epochs", "1", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("makepruner: exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bgbot.ParsePruner(data); err != nil || !strings.Contains(stdout.String(), "4 hidden units") {
		t.Errorf("pruner file: %v; printed %q", err, stdout.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"makepruner", "--hidden", "0"}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("--hidden 0: exit %d (%s)", code, stderr.String())
	}
}

// benchmark's --move-weights and --cube-weights score the bot's second
// opinions: the main network asked twice changes nothing, another network
// changes the chequer and cube figures; bad values are usage errors.
func TestBenchmarkSecondOpinions(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../engine/bgbot/testdata/gnubg2-moves.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	moves := filepath.Join(dir, "moves.txt")
	if err := os.WriteFile(moves, []byte(strings.Join(lines[:204], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	other, err := bgbot.NewRandomWeights(16, 3)
	if err != nil {
		t.Fatal(err)
	}
	same, random := filepath.Join(dir, "same.bgnet"), filepath.Join(dir, "random.bgnet")
	for path, w := range map[string]*bgbot.Weights{same: def, random: other} {
		if err := writeAtomic(path, func(out io.Writer) error { _, err := w.WriteTo(out); return err }); err != nil {
			t.Fatal(err)
		}
	}
	bench := func(extra ...string) (chequer, cube string) {
		t.Helper()
		args := append([]string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--moves", moves}, extra...)
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		out := stdout.String()
		i := strings.Index(out, "chequer play on")
		j := strings.Index(out, "  doubles")
		if i < 0 || j < 0 || !regexp.MustCompile(`(?m)^all +200 `).MatchString(out[i:]) {
			t.Fatalf("%v printed:\n%s", args, out)
		}
		return out[i:], out[j : j+strings.Index(out[j:], "\n")]
	}
	plainMoves, plainCube := bench()
	if m, c := bench("--move-weights", same, "--cube-weights", same); m != plainMoves || c != plainCube {
		t.Errorf("the main network as its own second opinion changed the figures:\n%s\n%s\nagainst\n%s\n%s", m, c, plainMoves, plainCube)
	}
	if m, c := bench("--move-weights", random, "--move-keep", "5"); m == plainMoves || c != plainCube {
		t.Errorf("--move-weights: chequer figures changed %v (want true), cube figures changed %v (want false)", m != plainMoves, c != plainCube)
	}
	if m, c := bench("--cube-weights", random); m != plainMoves || c == plainCube {
		t.Errorf("--cube-weights: chequer figures changed %v (want false), cube figures changed %v (want true)", m != plainMoves, c != plainCube)
	}
	// A 10-checker database read from a file is the one the benchmark
	// builds by default, so --bearoff with it changes nothing; the
	// 15-checker one answers races the network judged before, so it
	// changes both the chequer and the cube figures of a network that
	// judges races badly (which shows the file is used: the set holds no
	// race of 10 checkers or fewer a side).
	makeBearoff := func(checkers string) string {
		t.Helper()
		path := filepath.Join(dir, "bearoff"+checkers+".bgbo")
		var mkOut, mkErr bytes.Buffer
		if code := run(context.Background(), []string{"makebearoff", "--checkers", checkers, "--out", path}, nil, &mkOut, &mkErr); code != 0 {
			t.Fatalf("makebearoff: exit %d: %s", code, mkErr.String())
		}
		return path
	}
	if m, c := bench("--bearoff", makeBearoff("10")); m != plainMoves || c != plainCube {
		t.Errorf("--bearoff with the default 10-checker database changed the figures:\n%s\n%s", m, c)
	}
	// Judged by a random network, so that the database's exact answers
	// surely differ from the network's in some race (the default network
	// now plays the set's few races as the database does).
	randomMoves, randomCube := bench("--weights", random)
	if m, c := bench("--weights", random, "--bearoff", makeBearoff("15")); m == randomMoves || c == randomCube {
		t.Errorf("--bearoff with the 15-checker database: chequer figures changed %v, cube figures changed %v (want both)", m != randomMoves, c != randomCube)
	}
	damaged := filepath.Join(dir, "damaged.bgbo")
	if err := os.WriteFile(damaged, []byte("not a bearoff database"), 0o644); err != nil {
		t.Fatal(err)
	}
	// --choices scores the move set's own judge after the network: its
	// best result in every decision gives up nothing.
	if m, _ := bench("--choices", moves); !strings.HasPrefix(m, plainMoves) || !regexp.MustCompile(`judge on .*\n.*\nall +200 +0\.00 +100\.0%`).MatchString(m[len(plainMoves):]) {
		t.Errorf("--choices with the set itself printed:\n%s", m)
	}
	// --versus scores another network on the same decisions after the
	// first: the main network against itself gives up nothing more in any
	// decision; the random network gives up more than it, by an interval.
	if m, _ := bench("--versus", same); !strings.HasPrefix(m, plainMoves) ||
		!regexp.MustCompile(`less --versus's, decision by decision.*\nall +200 +\+0\.00 \[\+0\.00, \+0\.00\]`).MatchString(m) {
		t.Errorf("--versus the same network printed:\n%s", m)
	}
	if m, _ := bench("--weights", random, "--versus", same); !regexp.MustCompile(`less --versus's, decision by decision.*\nall +200 +\+[0-9.]+ \[\+[0-9.]+, `).MatchString(m) {
		t.Errorf("a random network --versus the default printed:\n%s", m)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"benchmark", "--move-keep", "0"}, 2, "--move-keep must be at least 1"},
		{[]string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--moves", moves, "--versus", filepath.Join(dir, "missing.bgnet")}, 1, "--versus: weights: open"},
		{[]string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--bearoff", filepath.Join(dir, "missing.bgbo")}, 1, "--bearoff: open"},
		{[]string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--bearoff", damaged}, 1, "--bearoff: " + damaged},
		{[]string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--move-weights", ","}, 1, "--move-weights: empty file name"},
		{[]string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--cube-weights", filepath.Join(dir, "missing.bgnet")}, 1, "--cube-weights: weights: open"},
		{[]string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--moves", moves, "--choices", filepath.Join(dir, "missing.txt")}, 1, "missing.txt"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), c.args, nil, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}

// TestBenchmarkNarrowOut narrows a cubeful move set made from a record to
// the bot's and the judge's choices: each decision keeps the judge's best
// result and the bot's, one result where they agree. The players of the
// record are checked against both choosers, and the decision-by-decision
// intervals come at the level asked for.
func TestBenchmarkNarrowOut(t *testing.T) {
	dir := t.TempDir()
	m, err := recordfile.Load("../../formats/mat/testdata/gnubg-7pt-cube.mat")
	if err != nil {
		t.Fatal(err)
	}
	set, err := benchset.DecisionsFromRecords([]*record.Match{m}, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	// The judge here: fewer pips left is better, so its best is known.
	pipsLeft := func(b *backgammon.Board) float64 {
		n := 0
		for p, c := range b[backgammon.OnRoll] {
			n += (p + 1) * int(c)
		}
		return float64(n)
	}
	for i := range set {
		for k := range set[i].Results {
			set[i].Results[k].Equity = -pipsLeft(&set[i].Results[k].Board) / 1000
		}
	}
	moves, narrowed := filepath.Join(dir, "moves.txt"), filepath.Join(dir, "narrow.txt")
	if err := writeAtomic(moves, func(w io.Writer) error { return benchset.WriteMoves(w, nil, set) }); err != nil {
		t.Fatal(err)
	}
	args := []string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--moves", moves, "--choices", moves,
		"--cubeful-moves", "--narrow-out", narrowed, "--confidence", "0.99"}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"less the judge's, decision by decision (mEMG a decision, 99% interval)",
		"moves played in the records that are each one's choice",
		"wrote " + narrowed,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("printed no %q:\n%s", want, out)
		}
	}
	for _, p := range m.Players {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(strings.Join(strings.Fields(p), "_")) + ` +\d+ +[0-9.]+% +[0-9.]+%$`).MatchString(out) {
			t.Errorf("no agreement row for %q:\n%s", p, out)
		}
	}
	got, err := readMoveSet(narrowed)
	if err != nil || len(got) != len(set) {
		t.Fatalf("read %d narrowed decisions of %d: %v", len(got), len(set), err)
	}
	bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, CubefulMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	choose := benchset.BotChoice(bot)
	differ := 0
	for i := range got {
		best := set[i].Results[0]
		for _, r := range set[i].Results {
			if r.Equity > best.Equity {
				best = r
			}
		}
		mine := choose(&set[i])
		want := map[backgammon.Board]bool{best.Board: true, mine: true}
		if len(got[i].Results) != len(want) {
			t.Fatalf("decision %d: %d results, want %d", i, len(got[i].Results), len(want))
		}
		for _, r := range got[i].Results {
			if !want[r.Board] {
				t.Fatalf("decision %d keeps a result neither chose", i)
			}
		}
		if len(want) == 2 {
			differ++
		}
	}
	if differ == 0 || !strings.Contains(out, fmt.Sprintf("%d where the choices differ", differ)) {
		t.Errorf("%d decisions differ; printed:\n%s", differ, out)
	}
	// --versus alone narrows to the two networks' choices: a random
	// network's differ from the default's, and the default's stay.
	random, err := bgbot.NewRandomWeights(16, 5)
	if err != nil {
		t.Fatal(err)
	}
	randomPath := filepath.Join(dir, "random.bgnet")
	if err := writeAtomic(randomPath, func(w io.Writer) error { _, err := random.WriteTo(w); return err }); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"benchmark", "--set", "../../engine/bgbot/testdata/benchset.txt", "--moves", moves,
		"--cubeful-moves", "--versus", randomPath, "--narrow-out", narrowed}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("--versus --narrow-out: exit %d: %s", code, stderr.String())
	}
	got, err = readMoveSet(narrowed)
	if err != nil || len(got) != len(set) {
		t.Fatalf("read %d narrowed decisions of %d: %v", len(got), len(set), err)
	}
	differ = 0
	for i := range got {
		mine := choose(&set[i])
		if !slices.ContainsFunc(got[i].Results, func(r benchset.MoveResult) bool { return r.Board == mine }) {
			t.Fatalf("decision %d lost the default's choice", i)
		}
		if len(got[i].Results) == 2 {
			differ++
		}
	}
	if differ == 0 || !strings.Contains(stdout.String(), fmt.Sprintf("%d where the choices differ", differ)) {
		t.Errorf("%d decisions differ from a random network's; printed:\n%s", differ, stdout.String())
	}
	for _, bad := range [][]string{
		{"benchmark", "--moves", moves, "--narrow-out", narrowed},
		{"benchmark", "--moves", moves, "--choices", moves, "--confidence", "1"},
	} {
		var o, e bytes.Buffer
		if code := run(context.Background(), bad, nil, &o, &e); code != 2 {
			t.Errorf("%v: exit %d, %s", bad, code, e.String())
		}
	}
}
