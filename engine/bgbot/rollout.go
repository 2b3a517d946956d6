package bgbot

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// RolloutConfig sets up a cubeless rollout.
type RolloutConfig struct {
	// Trials is the number of games played from the position. The first
	// roll of trial t is roll t mod 36 of the 36, and the second roll
	// (t/36) mod 36, so that a multiple of 36 trials sees every first roll
	// equally often and a multiple of 1296 every pair of first rolls: the
	// rollout's largest source of variance, the early dice, is then
	// stratified rather than sampled.
	Trials int
	// Seed seeds the later dice: trial t uses NewDice(Seed, t).
	Seed uint64
	// Truncate, when above 0, stops a trial after that many plies and
	// lets the bot's evaluation of the position (before the roll) stand
	// for the rest of the game. 0 plays every trial to its end.
	Truncate int
	// Workers is how many trials are played at once, each worker with a
	// bot of its own (1 when 0). The result does not depend on it.
	Workers int
}

// RolloutResult is a rollout's estimate, from the view of the player on
// roll of the position rolled out.
type RolloutResult struct {
	Probs Probs
	// Equity is the mean cubeless money equity of the trials, StdErr its
	// standard error (over trials; the stratification makes it an upper
	// bound).
	Equity, StdErr float64
	Trials         int
}

// Rollout plays cfg.Trials games from board (before the roll, the player
// on roll being Board[1]) with bots from newBot playing both sides, and
// averages their results: 1 or 0 for a win, the gammon and backgammon
// rates, and cubeless equity. Trials are independent of how they are
// shared among workers, so a rollout is reproducible from its seed.
func Rollout(ctx context.Context, newBot func() (*Bot, error), board backgammon.Board, cfg RolloutConfig) (RolloutResult, error) {
	if cfg.Trials < 1 {
		return RolloutResult{}, fmt.Errorf("rollout: %d trials", cfg.Trials)
	}
	if cfg.Truncate < 0 {
		return RolloutResult{}, fmt.Errorf("rollout: truncation at %d plies", cfg.Truncate)
	}
	workers := min(max(cfg.Workers, 1), cfg.Trials)
	results := make([]Probs, cfg.Trials)
	next := make(chan int)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		bot, err := newBot()
		if err != nil {
			return RolloutResult{}, fmt.Errorf("rollout: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				if errs[w] != nil {
					continue
				}
				results[t], errs[w] = rolloutTrial(bot, board, t, cfg)
			}
		}()
	}
feed:
	for t := range cfg.Trials {
		select {
		case next <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return RolloutResult{}, fmt.Errorf("rollout: %w", err)
	}
	for _, err := range errs {
		if err != nil {
			return RolloutResult{}, err
		}
	}
	var res RolloutResult
	var sum, sq float64
	var acc [5]float64
	for _, p := range results {
		for i := range acc {
			acc[i] += float64(p[i])
		}
		e := float64(p.Equity())
		sum, sq = sum+e, sq+e*e
	}
	n := float64(cfg.Trials)
	for i := range acc {
		res.Probs[i] = float32(acc[i] / n)
	}
	res.Equity, res.Trials = sum/n, cfg.Trials
	if cfg.Trials > 1 {
		res.StdErr = math.Sqrt(max(0, (sq-sum*sum/n)/(n-1)) / n)
	}
	return res, nil
}

// rolloutTrial plays trial t from board and returns its outcome from the
// view of the player on roll at the start.
func rolloutTrial(bot *Bot, board backgammon.Board, t int, cfg RolloutConfig) (Probs, error) {
	dice := backgammon.NewDice(cfg.Seed, uint64(t))
	b := board
	for ply := 0; ; ply++ {
		if ply >= 4*MaxGamePlies {
			return Probs{}, fmt.Errorf("rollout: trial %d has no end after %d plies", t, ply)
		}
		// The player on roll of b is the starting player at even plies.
		flip := func(p Probs) Probs {
			if ply%2 == 1 {
				return p.Invert()
			}
			return p
		}
		if cfg.Truncate > 0 && ply >= cfg.Truncate {
			return flip(bot.probsAt(b, 0)), nil
		}
		var d1, d2 int
		switch {
		case ply == 0:
			d1, d2 = t%36/6+1, t%6+1
		case ply == 1:
			k := t / 36 % 36
			d1, d2 = k/6+1, k%6+1
		default:
			d1, d2 = dice.Roll()
		}
		m, _, _ := bot.ChooseMove(b, d1, d2)
		after := b.Apply(m)
		if p, over := Outcome(&after, bot.checkers); over {
			return flip(p), nil
		}
		b = after.Swap()
	}
}
