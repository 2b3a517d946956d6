package rollout

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

var rules = backgammon.Rules{Cube: true, Crawford: true}

func newBot() (*bgbot.Bot, error) { return bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet}) }

func state(t *testing.T, pos, match string) *backgammon.State {
	t.Helper()
	s, err := gnubgid.DecodeState(pos, match, rules)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every turn of the quasi-random dice sees each of the 36 rolls once in
// each aligned block of 36 trials, and the first two turns every pair of
// rolls once in 1,296 trials.
func TestQuasiRandomDiceStratify(t *testing.T) {
	q := newQuasiDice(7)
	for _, turn := range []int{0, 1, 2, 5, 40, 127} {
		for block := 0; block < 3; block++ {
			var seen [36]int
			for g := block * 36; g < block*36+36; g++ {
				d1, d2 := q.roll(turn, g)
				seen[(d1-1)*6+d2-1]++
			}
			for r, n := range seen {
				if n != 1 {
					t.Fatalf("turn %d block %d: roll %d seen %d times", turn, block, r, n)
				}
			}
		}
	}
	pairs := map[[4]int]int{}
	for g := 0; g < 1296; g++ {
		a, b := q.roll(0, g)
		c, d := q.roll(1, g)
		pairs[[4]int{a, b, c, d}]++
	}
	if len(pairs) != 1296 {
		t.Errorf("the first two turns of 1296 trials hold %d distinct pairs of rolls, want 1296", len(pairs))
	}
	if a, b := newQuasiDice(8).roll(0, 0); [2]int{a, b} == [2]int(func() [2]int { x, y := q.roll(0, 0); return [2]int{x, y} }()) {
		// Not an error in itself; check a longer stretch differs.
		same := true
		for g := 0; g < 36 && same; g++ {
			x1, y1 := q.roll(0, g)
			x2, y2 := newQuasiDice(8).roll(0, g)
			same = x1 == x2 && y1 == y2
		}
		if same {
			t.Error("seeds 7 and 8 give the same first rolls")
		}
	}
}

// A rollout stopped part-way (cancelled after a checkpoint, saved, loaded)
// and extended gives exactly the sums of one run straight through with the
// same seed, for a cube decision (cubeful, truncated) and a chequer
// decision (cubeless), with different numbers of workers.
func TestRolloutStopAndExtendEqualsStraight(t *testing.T) {
	cube := state(t, "4PPgESBw5+ABJA", "MAGgAAAAAAAE")
	chequer := state(t, "4HPwATDgc/ABMA", "cAkAAAAAAAAA")
	if err := chequer.SetDice(5, 2); err != nil {
		t.Fatal(err)
	}
	bot, err := newBot()
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(chequer, bot)
	if err != nil {
		t.Fatal(err)
	}
	makers := map[string]func() (*Rollout, error){
		"cube": func() (*Rollout, error) {
			return NewCube(cube, rules, Settings{Seed: 3, Truncate: 4, Bot: "test"})
		},
		"chequer": func() (*Rollout, error) {
			return NewChequer(chequer, rules, Settings{Seed: 4, Truncate: 3, Bot: "test"}, cands[:2])
		},
	}
	for name, make := range makers {
		t.Run(name, func(t *testing.T) {
			straight, err := make()
			if err != nil {
				t.Fatal(err)
			}
			if err := straight.Run(context.Background(), 36, dbRunConfig(RunConfig{NewBot: newBot, Workers: 2, Batch: 12})); err != nil {
				t.Fatal(err)
			}

			path := filepath.Join(t.TempDir(), "state.json")
			part, err := make()
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			checkpoints := 0
			err = part.Run(ctx, 36, dbRunConfig(RunConfig{NewBot: newBot, Workers: 3, Batch: 12, Checkpoint: func(r *Rollout) error {
				checkpoints++
				if checkpoints == 2 {
					cancel()
				}
				return r.Save(path)
			}}))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("stopped run: %v, want cancelled", err)
			}
			resumed, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := resumed.Trials(); got != 24 {
				t.Fatalf("saved after two batches of 12: %d trials", got)
			}
			if err := resumed.SameQuestion(straight); err != nil {
				t.Fatal(err)
			}
			// Extend in two steps, the first to a count that is not a
			// multiple of the batch.
			if err := resumed.Run(context.Background(), 29, dbRunConfig(RunConfig{NewBot: newBot, Workers: 1, Batch: 12})); err != nil {
				t.Fatal(err)
			}
			if err := resumed.Run(context.Background(), 36, dbRunConfig(RunConfig{NewBot: newBot, Workers: 2, Batch: 36})); err != nil {
				t.Fatal(err)
			}
			for i := range straight.Alternatives {
				a, b := straight.Alternatives[i], resumed.Alternatives[i]
				if a.Trials != b.Trials || a.Sum != b.Sum || a.SumSq != b.SumSq {
					t.Errorf("%s: straight %d trials %v, stopped and extended %d trials %v", a.Name, a.Trials, a.Sum, b.Trials, b.Sum)
				}
			}
		})
	}
}

// The proper cube action follows the three cubeful results: no double
// unless both doubling results beat it, then the taker's cheaper choice.
func TestProperCubeAction(t *testing.T) {
	results := func(nd, dt, dp float64) []Result {
		return []Result{{Cubeful: &Estimate{Mean: nd}}, {Cubeful: &Estimate{Mean: dt}}, {Cubeful: &Estimate{Mean: dp}}}
	}
	for _, c := range []struct {
		nd, dt, dp float64
		want       string
	}{
		{0.5, 0.4, 1, NoDouble},
		{0.5, 0.5, 1, NoDouble},
		{0.5, 0.8, 1, DoubleTake},
		{0.5, 1.2, 1, DoublePass},
		{0.5, 1, 1, DoublePass},
	} {
		got, err := ProperCubeAction(results(c.nd, c.dt, c.dp))
		if err != nil || got != c.want {
			t.Errorf("ND %v DT %v DP %v: %q, %v; want %q", c.nd, c.dt, c.dp, got, err, c.want)
		}
	}
	if _, err := ProperCubeAction([]Result{{Name: NoDouble}}); err == nil {
		t.Error("one cubeless result: no error")
	}
}

// A state file of the first layout (no trial weights, no bearoff
// truncation, the cubeless luck correction) loads as the rollout it was:
// unit weights and the settings it ran with.
func TestLoadFirstLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.json")
	v1 := `{"format": "gamemill-rollout-1", "settings": {"seed": 3, "truncate": 0, "cubeful": true, "plain_dice": false, "no_variance_reduction": false, "bot": "test"},
  "rules": {"Variant": 0, "MatchLength": 0, "Cube": true, "Crawford": true, "Jacoby": false, "Beavers": false, "CubeLimit": 0},
  "alternatives": [{"name": "Position", "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "no_double_first": true, "base_cube": 1,
    "trials": 4, "sum": [2, 1, 0, 1, 0, 1.5, 2], "sum_sq": [2, 1, 0, 1, 0, 2.5, 4]}]}`
	if err := os.WriteFile(path, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	set := r.Settings
	if !set.NoBearoffTruncation || !set.CubelessLuck || set.Stratify != 36 {
		t.Errorf("settings %+v: want no bearoff truncation, the cubeless luck correction, 36 rolls", set)
	}
	a := r.Alternatives[0]
	if a.Weight != 4 || a.WeightSq != 4 {
		t.Errorf("weights %v, %v: want 4, 4", a.Weight, a.WeightSq)
	}
	if e := r.Results()[0].Equity; e.Mean != 0.375 {
		t.Errorf("equity %+v: want mean 0.375", e)
	}
}
