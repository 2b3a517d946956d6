package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
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
