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

// TestGnubgMoveset has gnubg price every legal move of a match record's
// chequer decisions at 0 ply. The set reads back, and the equities are
// the mover's: bgbot's own choices give up a few thousandths a decision,
// while choosing the worst move gives up many times more (with the
// equities turned round, the two would swap).
func TestGnubgMoveset(t *testing.T) {
	bin := peertest.Gnubg(t)
	out := filepath.Join(t.TempDir(), "moves.txt")
	rec := "../../formats/mat/testdata/gnubg-7pt-cube.mat"
	stdout, stderr, code := runTool(t, "gnubg-moveset", "-q", "--plies", "0", "-j", "2", "--gnubg", bin, "--out", out, rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	set, err := benchset.ReadMoves(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
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
	worst := benchset.ScoreMoves(set, func(b backgammon.Board, d1, d2 int) backgammon.Board {
		for _, d := range set {
			if d.Board == b && d.Dice == [2]int{max(d1, d2), min(d1, d2)} {
				low := d.Results[0]
				for _, r := range d.Results {
					if r.Equity < low.Equity {
						low = r
					}
				}
				return low.Board
			}
		}
		return b
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
