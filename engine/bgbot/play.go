package bgbot

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// MaxGamePlies bounds a game played by PlayGame; no real game comes close.
const MaxGamePlies = 5000

// PlayGame plays one game of s's match between two bots, bots[i] playing
// seat i, with dice from dice, driving the State's turn machine. It
// returns the points won by seat 0 (negative when seat 1 won).
func PlayGame(ctx context.Context, s *backgammon.State, bots [2]*Bot, dice *backgammon.Dice) (int, error) {
	first, d0, d1 := dice.Opening()
	if err := s.StartGame(first, d0, d1); err != nil {
		return 0, fmt.Errorf("play game: %w", err)
	}
	for _, b := range bots {
		b.SetVariant(s.Variant)
	}
	for steps := 0; s.GameState == backgammon.GamePlaying; steps++ {
		if steps > 4*MaxGamePlies {
			return 0, fmt.Errorf("play game: no end after %d decisions", steps)
		}
		if steps%64 == 0 && ctx.Err() != nil {
			return 0, fmt.Errorf("play game: %w", ctx.Err())
		}
		var err error
		switch d := s.Decision(); d {
		case backgammon.DecideCube:
			var dbl bool
			if dbl, err = bots[s.Move].Double(s); err == nil {
				if dbl {
					err = s.Double()
				} else {
					err = s.SetDice(dice.Roll())
				}
			}
		case backgammon.NeedRoll:
			err = s.SetDice(dice.Roll())
		case backgammon.DecideTake:
			var a backgammon.Answer
			if a, err = bots[s.Turn].Take(s); err == nil {
				err = s.AnswerDouble(a)
			}
		case backgammon.DecideMove:
			var m backgammon.Move
			if m, _, err = bots[s.Move].Move(s); err == nil {
				err = s.Play(m)
			}
		default:
			err = fmt.Errorf("unexpected decision %v", d)
		}
		if err != nil {
			return 0, fmt.Errorf("play game: %w", err)
		}
	}
	if s.Winner == 0 {
		return s.Points, nil
	}
	return -s.Points, nil
}

// DuelConfig configures a duplicate-dice duel.
type DuelConfig struct {
	Pairs   int              // dice sequences; each is played twice, seats swapped
	Seed    uint64           // dice seed: pair i uses backgammon.NewDice(Seed, i)
	Workers int              // goroutines (at least 1)
	Rules   backgammon.Rules // the zero value is cubeless money play, standard variant
}

// Duel plays cfg.Pairs pairs of games between bots made by newA and newB
// (called once per worker, so each goroutine has its own bots). In each
// pair the same dice are played twice: A in seat 0, then A in seat 1. The
// result holds, per pair, the points A won in each of the two games, ready
// for ratings.PairedPointsPerGame. Results do not depend on scheduling for
// a fixed worker count.
func Duel(ctx context.Context, cfg DuelConfig, newA, newB func() (*Bot, error)) ([][2]float64, error) {
	if cfg.Pairs < 1 {
		return nil, fmt.Errorf("duel: %d pairs", cfg.Pairs)
	}
	workers := max(cfg.Workers, 1)
	pairs := make([][2]float64, cfg.Pairs)
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			errs <- func() error {
				a, err := newA()
				if err != nil {
					return err
				}
				b, err := newB()
				if err != nil {
					return err
				}
				for i := w; i < cfg.Pairs; i += workers {
					s := backgammon.NewMatch(cfg.Rules)
					p0, err := PlayGame(ctx, s, [2]*Bot{a, b}, backgammon.NewDice(cfg.Seed, uint64(i)))
					if err != nil {
						return fmt.Errorf("pair %d game 1: %w", i, err)
					}
					s = backgammon.NewMatch(cfg.Rules)
					p1, err := PlayGame(ctx, s, [2]*Bot{b, a}, backgammon.NewDice(cfg.Seed, uint64(i)))
					if err != nil {
						return fmt.Errorf("pair %d game 2: %w", i, err)
					}
					pairs[i] = [2]float64{float64(p0), float64(-p1)}
				}
				return nil
			}()
		}(w)
	}
	var first error
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, fmt.Errorf("duel: %w", first)
	}
	return pairs, nil
}
