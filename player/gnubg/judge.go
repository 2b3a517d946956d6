package gnubg

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// Judge asks gnubg (the program bin, at plies) for the cubeless
// probabilities of each position before the roll, money play, for the
// player on roll, in the order of backgammon's Probs: win, win gammon, win
// backgammon, lose gammon, lose backgammon. jobs gnubg processes share the
// work; progress, when set, is told after each position. The first error
// stops every process.
func Judge(ctx context.Context, bin string, plies, jobs int, boards []backgammon.Board, progress func(done, total int)) ([][5]float64, error) {
	out := make([][5]float64, len(boards))
	errs := make([]error, max(jobs, 1))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	next := make(chan int)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fail := func(j int, err error) {
		errs[j] = err
		cancel()
	}
	for j := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := Launch(ctx, Options{Binary: bin, Plies: plies, Timeout: time.Minute})
			if err != nil {
				fail(j, err)
				for range next {
				}
				return
			}
			defer p.Close()
			c := &bgcmd.Client{R: p}
			rules := backgammon.Rules{Variant: backgammon.Standard}
			if err := c.SetGame(ctx, bgcmd.FromRules(rules)); err != nil {
				fail(j, err)
			}
			for i := range next {
				if errs[j] != nil {
					continue
				}
				s := backgammon.NewMatch(rules)
				s.GameState, s.Board = backgammon.GamePlaying, boards[i]
				pos, mid := gnubgid.Encode(s)
				if err := c.SetPosition(ctx, pos, mid); err != nil {
					fail(j, fmt.Errorf("position %s: %w", pos, err))
					continue
				}
				ev, err := c.Evaluate(ctx)
				if err != nil {
					fail(j, fmt.Errorf("position %s: %w", pos, err))
					continue
				}
				copy(out[i][:], ev[:5])
				mu.Lock()
				done++
				if progress != nil {
					progress(done, len(boards))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range boards {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("gnubg judge: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gnubg judge: %w", err)
	}
	return out, nil
}
