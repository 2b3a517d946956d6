package bgbot

import (
	"context"
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func rolloutBots(t testing.TB, db *Bearoff) func() (*Bot, error) {
	t.Helper()
	w, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	return func() (*Bot, error) {
		return NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db, NoBearoff: db == nil})
	}
}

// A rollout truncated after one ply over the 36 rolls is the bot's 1-ply
// evaluation: the same best moves, the same 0-ply judgements, averaged
// with the same weights.
func TestRolloutTruncatedAtOnePlyIsOnePly(t *testing.T) {
	newBot := rolloutBots(t, nil)
	bot, err := newBot()
	if err != nil {
		t.Fatal(err)
	}
	for _, board := range samplePositionsT(t, 5) {
		r, err := Rollout(context.Background(), newBot, board, RolloutConfig{Trials: 36, Truncate: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := bot.probsAt(board, 1)
		for i := range want {
			if math.Abs(float64(r.Probs[i]-want[i])) > 1e-5 {
				t.Fatalf("truncated rollout %v, 1-ply %v", r.Probs, want)
			}
		}
	}
}

func samplePositionsT(t testing.TB, n int) []backgammon.Board {
	t.Helper()
	w, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	all, err := SamplePositions(context.Background(), w, nil, 40*n, 5)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]backgammon.Board, 0, n)
	for i := 0; i < len(all) && len(out) < n; i += 40 {
		out = append(out, all[i])
	}
	return out
}

// A race rolled out to the end agrees with the bearoff database's exact
// figure within the rollout's error, the same for any number of workers;
// a sure win rolls out to exactly one.
func TestRolloutRace(t *testing.T) {
	db, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	newBot := rolloutBots(t, db)
	var race backgammon.Board
	race[backgammon.OnRoll][0], race[backgammon.OnRoll][2], race[backgammon.OnRoll][4] = 2, 2, 1
	race[backgammon.Opponent][1], race[backgammon.Opponent][3] = 2, 2
	exact, ok := db.Probs(&race)
	if !ok {
		t.Fatal("race not in the database")
	}
	cfg := RolloutConfig{Trials: 1296, Seed: 3, Workers: 1}
	one, err := Rollout(context.Background(), newBot, race, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	three, err := Rollout(context.Background(), newBot, race, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if one != three {
		t.Errorf("1 worker %+v, 3 workers %+v", one, three)
	}
	t.Logf("race: rollout %.4f (s.e. of equity %.4f), database %.4f", one.Probs[Win], one.StdErr, exact[Win])
	if d := math.Abs(float64(one.Probs[Win] - exact[Win])); d > 3*one.StdErr/2+0.01 {
		t.Errorf("rollout wins %.4f (equity s.e. %.4f), database %.4f", one.Probs[Win], one.StdErr, exact[Win])
	}

	var sure backgammon.Board
	sure[backgammon.OnRoll][0] = 1
	sure[backgammon.Opponent][23] = 1
	r, err := Rollout(context.Background(), newBot, sure, RolloutConfig{Trials: 36})
	if err != nil {
		t.Fatal(err)
	}
	if r.Probs != (Probs{Win: 1}) || r.Equity != 1 || r.StdErr != 0 {
		t.Errorf("sure win rolled out to %+v", r)
	}
	if _, err := Rollout(context.Background(), newBot, sure, RolloutConfig{}); err == nil {
		t.Error("no trials accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Rollout(ctx, newBot, race, RolloutConfig{Trials: 100}); err == nil {
		t.Error("a cancelled rollout returned no error")
	}
}

func BenchmarkRolloutTrial(b *testing.B) {
	newBot := rolloutBots(b, nil)
	bot, err := newBot()
	if err != nil {
		b.Fatal(err)
	}
	board := samplePositionsT(b, 1)[0]
	b.ResetTimer()
	for i := range b.N {
		if _, err := rolloutTrial(bot, board, i, RolloutConfig{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
