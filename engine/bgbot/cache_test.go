package bgbot

import (
	"math/rand/v2"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// TestEvalCacheSameAnswers plays positions through a 1-ply bot with and
// without the cache: the moves and probabilities must be identical, and
// the cache must be hit.
func TestEvalCacheSameAnswers(t *testing.T) {
	cached, err := NewBot(Config{Level: LevelNet, Plies: 1})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewBot(Config{Level: LevelNet, Plies: 1, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if cached.cache == nil || plain.cache != nil {
		t.Fatal("cache not set up as configured")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	s := backgammon.NewMatch(backgammon.Rules{})
	dice := backgammon.NewDice(rng.Uint64(), 0)
	first, d0, d1 := dice.Opening()
	if err := s.StartGame(first, d0, d1); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 30 && s.GameState == backgammon.GamePlaying; {
		if s.Decision() == backgammon.NeedRoll {
			if err := s.SetDice(dice.Roll()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		m1, p1, _ := cached.ChooseMove(s.Board, s.Dice[0], s.Dice[1])
		m2, p2, _ := plain.ChooseMove(s.Board, s.Dice[0], s.Dice[1])
		if m1 != m2 || p1 != p2 {
			t.Fatalf("move %d: cached %v %v, plain %v %v", n, m1, p1, m2, p2)
		}
		if err := s.Play(m1); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if cached.cache.hits == 0 {
		t.Errorf("no cache hits in %d lookups", cached.cache.lookups)
	}
	t.Logf("%d hits in %d lookups", cached.cache.hits, cached.cache.lookups)
}
