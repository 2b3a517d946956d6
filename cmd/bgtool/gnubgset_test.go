package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/peertest"
)

// TestGnubgBenchset has gnubg judge the positions of a match record at 0
// ply with two processes. The set reads back, and its probabilities are
// for the player on roll: bgbot's own 0-ply judgement comes within a few
// hundredths of them on average (had the set taken the other side's view,
// it would be off by most of a point), and far closer than a coin flip.
func TestGnubgBenchset(t *testing.T) {
	bin := peertest.Gnubg(t)
	out := filepath.Join(t.TempDir(), "set.txt")
	rec := "../../formats/mat/testdata/gnubg-7pt-cube.mat"
	stdout, stderr, code := runTool(t, "gnubg-benchset", "-q", "--plies", "0", "-j", "2", "--gnubg", bin, "--out", out, rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	set, err := benchset.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(set) < 20 || !strings.Contains(stdout, "positions judged by gnubg at 0 ply") {
		t.Fatalf("%d positions; printed %q", len(set), stdout)
	}
	w, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	ev := w.NewEvaluator()
	bot := func(b backgammon.Board) bgbot.Probs { return ev.Evaluate(b) }
	coin := func(backgammon.Board) bgbot.Probs { return bgbot.Probs{bgbot.Win: 0.5} }
	ours, flip := benchset.Scores(set, bot)[0], benchset.Scores(set, coin)[0]
	t.Logf("%d positions: bgbot %.4f from gnubg, a coin flip %.4f", len(set), ours.EquityError, flip.EquityError)
	if !(ours.EquityError < 0.12) || !(ours.EquityError < flip.EquityError/3) || math.Abs(ours.Bias) > 0.05 {
		t.Errorf("bgbot's distance from gnubg's judgement %+v, a coin flip's %+v", ours, flip)
	}
	for _, args := range [][]string{
		{"gnubg-benchset", rec},                                // no --out
		{"gnubg-benchset", "--out", out, "--stride", "0", rec}, // bad stride
		{"gnubg-benchset", "--out", out, "--plies", "9", rec},  // bad depth
	} {
		if _, stderr, code := runTool(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, stderr)
		}
	}
}

// TestGnubgMoveset has gnubg price every legal move of a match record's
// chequer decisions at 0 ply. The set reads back, and the equities are
// the mover's: bgbot's own choices give up a few thousandths a decision,
// while choosing the worst move gives up many times more (with the
// equities turned round, the two would swap).
func TestGnubgMoveset(t *testing.T) {
	bin := peertest.Gnubg(t)
	out := filepath.Join(t.TempDir(), "moves.txt")
	rec := "../../formats/mat/testdata/gnubg-7pt-cube.mat"
	stdout, set := makeMoveSet(t, "-q", "--plies", "0", "-j", "2", "--gnubg", bin, "--out", out, rec)
	if len(set) < 20 || !strings.Contains(stdout, "judged by gnubg at 0 ply") {
		t.Fatalf("%d decisions; printed %q", len(set), stdout)
	}
	w, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Weights: w})
	if err != nil {
		t.Fatal(err)
	}
	ours := benchset.ScoreMoves(set, benchset.BotChoice(bot))[0]
	worst := benchset.ScoreMoves(set, func(d *benchset.MoveDecision) backgammon.Board {
		low := d.Results[0]
		for _, r := range d.Results {
			if r.Equity < low.Equity {
				low = r
			}
		}
		return low.Board
	})[0]
	t.Logf("%d decisions: bgbot gives up %.4f a decision, the worst move %.4f", len(set), ours.Loss, worst.Loss)
	if ours.Unknown != 0 || !(ours.Loss < 0.03) || !(worst.Loss > 5*ours.Loss) {
		t.Errorf("bgbot %+v, worst moves %+v", ours, worst)
	}
}

// TestGnubgMovesetClasses keeps the race decisions of a directory of
// records only, and says so in the set's header; an unknown class is a
// usage error.
func TestGnubgMovesetClasses(t *testing.T) {
	bin := peertest.Gnubg(t)
	out := filepath.Join(t.TempDir(), "races.txt")
	dir := "../../player/gnubg/verdict/testdata"
	_, stderr, code := runTool(t, "gnubg-moveset", "-q", "--plies", "0", "--classes", "race", "--gnubg", bin, "--out", out, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	set, err := benchset.ReadMoves(strings.NewReader(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	if len(set) < 5 || !strings.Contains(string(text), "--classes race") {
		t.Fatalf("%d race decisions from two matches:\n%s", len(set), text)
	}
	for _, d := range set {
		if bgbot.Contact(&d.Board) {
			t.Fatalf("a contact decision among races: %v", d.Board)
		}
	}
	if _, stderr, code := runTool(t, "gnubg-moveset", "--classes", "bearoff", "--out", out, dir); code != 2 || !strings.Contains(stderr, "bearoff") {
		t.Errorf("--classes bearoff: exit %d, %q", code, stderr)
	}
}

// TestGnubgMovesetScores keeps the Crawford game's decisions of a
// recorded 5-point match, and says so in the set's header; --scores needs
// --cubeful, and an unknown stage is a usage error.
func TestGnubgMovesetScores(t *testing.T) {
	bin := peertest.Gnubg(t)
	out := filepath.Join(t.TempDir(), "crawford.txt")
	rec := "../../engine/bgbot/benchset/testdata/crawford-match5.mat"
	stdout, set := makeMoveSet(t, "-q", "--plies", "0", "--cubeful", "--gnubg", bin, "--out", out, rec)
	all := len(set)
	stdout, set = makeMoveSet(t, "-q", "--plies", "0", "--cubeful", "--scores", "crawford", "--gnubg", bin, "--out", out, rec)
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Game 2 of the record is the Crawford game: 50 of its 125 rolls.
	if len(set) == 0 || len(set) >= all || !strings.Contains(string(text), "--cubeful --scores crawford") {
		t.Fatalf("%d Crawford-game decisions of %d (%s):\n%s", len(set), all, stdout, text)
	}
	for _, d := range set {
		if !d.State.CrawfordGame || d.State.Score != [2]int{4, 0} && d.State.Score != [2]int{0, 4} {
			t.Fatalf("a decision outside the Crawford game at 4-0: %+v", d.State)
		}
	}
	for _, bad := range [][]string{{"--scores", "crawford"}, {"--cubeful", "--scores", "dmp"}} {
		if _, stderr, code := runTool(t, append(append([]string{"gnubg-moveset"}, bad...), "--out", out, rec)...); code != 2 || !strings.Contains(stderr, "--scores") {
			t.Errorf("%q: exit %d, %q", bad, code, stderr)
		}
	}
}

// TestGnubgMovesetCubeful prices a 7-point match's decisions with the
// cube at 0 ply and checks the set against gnubg's own hint: for decisions
// at several cube states, the equities gnubg's hint lists for the best
// moves (its normalised cubeful equity, the unit of its error rates) are
// the set's best results' equities.
func TestGnubgMovesetCubeful(t *testing.T) {
	bin := peertest.Gnubg(t)
	out := filepath.Join(t.TempDir(), "cubeful.txt")
	rec := "../../formats/mat/testdata/gnubg-7pt-cube.mat"
	_, set := makeMoveSet(t, "--cubeful", "-q", "--plies", "0", "--gnubg", bin, "--out", out, rec)
	// One decision for each place of the cube, at a score other than 0-0.
	picked := map[int]*benchset.MoveDecision{}
	for i := range set {
		d := &set[i]
		if d.State == nil {
			t.Fatalf("decision %d has no match state", i)
		}
		place := d.State.CubeOwner
		if place >= 0 {
			place = (place-d.State.Move+2)%2 + 1 // 1 the mover's, 2 the opponent's
		}
		if _, ok := picked[place]; !ok && d.State.Score != [2]int{} && len(d.Results) >= 3 {
			picked[place] = d
		}
	}
	if len(picked) != 3 {
		t.Fatalf("decisions for %d places of the cube, want 3", len(picked))
	}
	for place, d := range picked {
		pos, mid := gnubgid.Encode(d.State)
		hint := gnubgHint(t, bin, pos, mid, len(d.Results))
		eqs := make([]float64, len(d.Results))
		for k, r := range d.Results {
			eqs[k] = r.Equity
		}
		slices.Sort(eqs)
		slices.Reverse(eqs)
		if len(hint) < 3 {
			t.Fatalf("%s:%s: gnubg's hint listed %d moves", pos, mid, len(hint))
		}
		for k, want := range hint {
			if math.Abs(eqs[k]-want) > 0.0011 {
				t.Errorf("cube place %d, %s:%s: the set's %d-th best result %.4f, gnubg's hint %.3f", place, pos, mid, k+1, eqs[k], want)
			}
		}
	}
}

// TestGnubgMovesetReprice prices a set narrowed to two choices again: at
// the depth that priced the full set, each decision with two results gets
// the full set's equities back (from a sentinel written in their place),
// a decision with one result is left alone, and the movers and the order
// stay. --reprice takes no records, and keeps every decision.
func TestGnubgMovesetReprice(t *testing.T) {
	bin := peertest.Gnubg(t)
	dir := t.TempDir()
	full, narrowed, repriced := filepath.Join(dir, "full.txt"), filepath.Join(dir, "narrow.txt"), filepath.Join(dir, "again.txt")
	rec := "../../formats/mat/testdata/gnubg-7pt-cube.mat"
	_, set := makeMoveSet(t, "--cubeful", "-q", "--plies", "0", "--gnubg", bin, "--out", full, rec)
	played := func(d *benchset.MoveDecision) backgammon.Board { return d.Played }
	first := func(d *benchset.MoveDecision) backgammon.Board { return d.Results[0].Board }
	two, err := benchset.Narrow(set, played, first)
	if err != nil {
		t.Fatal(err)
	}
	const sentinel = 0.5
	for i := range two {
		two[i].Results = slices.Clone(two[i].Results)
		for k := range two[i].Results {
			two[i].Results[k].Equity = sentinel
		}
	}
	f, err := os.Create(narrowed)
	if err != nil {
		t.Fatal(err)
	}
	if err := benchset.WriteMoves(f, nil, two); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, again := makeMoveSet(t, "--reprice", narrowed, "--plies", "0", "-j", "2", "--gnubg", bin, "--out", repriced, "-q")
	if len(again) != len(set) {
		t.Fatalf("%d decisions priced again, %d narrowed", len(again), len(set))
	}
	priced := 0
	for i, d := range again {
		if d.Board != set[i].Board || d.Mover != set[i].Mover || d.Played != set[i].Played || len(d.Results) != len(two[i].Results) {
			t.Fatalf("decision %d changed: %+v", i, d)
		}
		if len(d.Results) == 1 {
			if d.Results[0].Equity != sentinel {
				t.Errorf("decision %d: a lone result was priced again (%.5f)", i, d.Results[0].Equity)
			}
			continue
		}
		priced++
		for _, r := range d.Results {
			want := math.NaN()
			for _, o := range set[i].Results {
				if o.Board == r.Board {
					want = o.Equity
				}
			}
			if !(math.Abs(r.Equity-want) < 2e-5) {
				t.Errorf("decision %d: priced again %.5f, the full set %.5f", i, r.Equity, want)
			}
		}
	}
	if priced == 0 || priced == len(again) {
		t.Errorf("%d of %d decisions had two results", priced, len(again))
	}
	for _, bad := range [][]string{
		{"--reprice", narrowed, "--out", repriced, rec},
		{"--reprice", narrowed, "--stride", "2", "--out", repriced},
		{"--reprice", narrowed, "--cubeful", "--out", repriced},
		{"--reprice", narrowed, "--scores", "crawford", "--out", repriced},
		{"--out", repriced},
	} {
		if _, stderr, code := runTool(t, append([]string{"gnubg-moveset"}, bad...)...); code != 2 {
			t.Errorf("%q: exit %d, %q", bad, code, stderr)
		}
	}
}

// gnubgHint runs gnubg's hint at 0 ply, cubeful, for a position and match
// ID and returns the equities it lists, best first.
func gnubgHint(t *testing.T, bin, pos, mid string, moves int) []float64 {
	t.Helper()
	script := fmt.Sprintf("set player both human\nnew match 7\nset matchid %s\nset board %s\n"+
		"set evaluation chequerplay evaluation plies 0\nset evaluation chequerplay evaluation cubeful on\nhint %d\n", mid, pos, moves)
	cmd := exec.Command(bin, "-t", "-q", "-r")
	cmd.Stdin = strings.NewReader(script)
	text, err := cmd.Output()
	if err != nil {
		t.Fatalf("gnubg: %v", err)
	}
	var eqs []float64
	for _, line := range strings.Split(string(text), "\n") {
		_, after, ok := strings.Cut(line, "Eq.: ")
		if !ok || !strings.Contains(line, "Cubeful 0-ply") {
			continue
		}
		x, err := strconv.ParseFloat(strings.Fields(after)[0], 64)
		if err != nil {
			t.Fatalf("gnubg's hint line %q: %v", line, err)
		}
		eqs = append(eqs, x)
	}
	return eqs
}

// makeMoveSet runs gnubg-moveset with args, which name the --out file
// last but one, and reads the set back.
func makeMoveSet(t *testing.T, args ...string) (string, []benchset.MoveDecision) {
	t.Helper()
	stdout, stderr, code := runTool(t, append([]string{"gnubg-moveset"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(args[len(args)-2])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := benchset.ReadMoves(f)
	if err != nil {
		t.Fatal(err)
	}
	return stdout, set
}
