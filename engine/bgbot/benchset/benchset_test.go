package benchset

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
)

func newBots(t testing.TB) (*bgbot.Weights, func() (*bgbot.Bot, error)) {
	w, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	return w, func() (*bgbot.Bot, error) {
		return bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Weights: w, NoBearoff: true})
	}
}

// A set made, written and read back is the same set; scored against its
// own rollouts it has no error, and a judge that always says "even" has.
func TestMakeWriteReadScore(t *testing.T) {
	w, newBot := newBots(t)
	var done []int
	set, err := Make(context.Background(), w, nil, 3, 7, 1, newBot, bgbot.RolloutConfig{Trials: 36, Seed: 2}, func(d int) { done = append(done, d) })
	if err != nil {
		t.Fatal(err)
	}
	if len(set) != 3 || len(done) != 3 || done[2] != 3 {
		t.Fatalf("%d positions, progress %v", len(set), done)
	}
	var buf bytes.Buffer
	if err := Write(&buf, []string{"made by a test"}, set); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(set) || !strings.HasPrefix(buf.String(), "# made by a test\n") {
		t.Fatalf("read back %d positions from\n%s", len(back), buf.String())
	}
	for i := range set {
		if back[i].Board != set[i].Board || back[i].Rollout.Probs[bgbot.Win]-set[i].Rollout.Probs[bgbot.Win] > 1e-5 {
			t.Errorf("position %d: %+v, wrote %+v", i, back[i], set[i])
		}
	}
	byBoard := map[backgammon.Board]bgbot.Probs{}
	for _, p := range back {
		byBoard[p.Board] = p.Rollout.Probs
	}
	all, contact, race := Scores(back, func(b backgammon.Board) bgbot.Probs { return byBoard[b] })
	if all.Positions != 3 || contact.Positions+race.Positions != 3 || all.EquityError > 1e-4 || all.WinError > 1e-4 {
		t.Errorf("self score %+v", all)
	}
	even, _, _ := Scores(back, func(backgammon.Board) bgbot.Probs { return bgbot.Probs{bgbot.Win: 0.5} })
	if even.EquityError <= 0 || even.EquityRMS < even.EquityError || even.RolloutStdErr <= 0 {
		t.Errorf("'even' score %+v", even)
	}
}

func TestReadErrors(t *testing.T) {
	const good = "4HPwATDgc/ABMA 0.5 0.1 0 0.1 0 0 0.05"
	for text, want := range map[string]string{
		"# c\n" + good + " 7\n":                          "line 2: 9 fields",
		"nonsense 0.5 0.1 0 0.1 0 0 0.05\n":              "line 1: position ID",
		"4HPwATDgc/ABMA 1.5 0.1 0 0.1 0 0 0.05\n":        "line 1: win: 1.5 out of range",
		"4HPwATDgc/ABMA 0.5 0.1 0 0.1 0 NaN 0.05\n":      "line 1: equity: \"NaN\" is not a finite number",
		good + "\n4HPwATDgc/ABMA 0.5 0.1 0 0.1 0 0 -1\n": "line 2: stderr: -1 out of range",
	} {
		if _, err := Read(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	if set, err := Read(strings.NewReader(good + "\n\n# end\n")); err != nil || len(set) != 1 {
		t.Errorf("good line: %v, %v", set, err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add("4HPwATDgc/ABMA 0.5 0.1 0 0.1 0 0 0.05\n")
	f.Add("# comment\n\n4HPwATDgc/ABMA 1 1 1 0 0 3 0\n")
	f.Add("AAAAAAAAAAAAAA 0 0 0 0 0 0 0\n")
	f.Fuzz(func(t *testing.T, text string) {
		set, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, nil, set); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&buf)
		if err != nil || len(again) != len(set) {
			t.Fatalf("round trip of %q: %d positions, %v", text, len(again), err)
		}
		for i := range set {
			if again[i].Board != set[i].Board {
				t.Fatalf("round trip changed position %d", i)
			}
		}
	})
}

// The committed set (engine/bgbot/testdata/benchset.txt) reads, its
// rollouts are tight enough to measure with, and it ranks the embedded
// network's 1-ply evaluation above its 0-ply one, as a yardstick must.
func TestCommittedSet(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "benchset.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		set = set[:100]
	}
	w, _ := newBots(t)
	db, err := bgbot.NewBearoff(bgbot.DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	var scores [2]Score
	for plies := range 2 {
		bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Weights: w, Bearoff: db, Plies: plies})
		if err != nil {
			t.Fatal(err)
		}
		scores[plies], _, _ = Scores(set, func(b backgammon.Board) bgbot.Probs { return bot.Probs(b) })
	}
	t.Logf("%d positions: equity error %.4f at 0 ply, %.4f at 1 ply; rollout s.e. %.4f", len(set), scores[0].EquityError, scores[1].EquityError, scores[0].RolloutStdErr)
	if scores[0].RolloutStdErr > 0.03 || !(scores[1].EquityError < scores[0].EquityError) {
		t.Errorf("0 ply %+v, 1 ply %+v", scores[0], scores[1])
	}
}
