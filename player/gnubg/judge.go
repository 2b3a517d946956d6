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
	rules := backgammon.Rules{Variant: backgammon.Standard}
	err := shareOut(ctx, bin, plies, jobs, len(boards), progress, func(ctx context.Context, p *Player) (func(i int) error, error) {
		c := &bgcmd.Client{R: p}
		if err := c.SetGame(ctx, bgcmd.FromRules(rules)); err != nil {
			return nil, err
		}
		return func(i int) error {
			s := backgammon.NewMatch(rules)
			s.GameState, s.Board = backgammon.GamePlaying, boards[i]
			pos, mid := gnubgid.Encode(s)
			if err := c.SetPosition(ctx, pos, mid); err != nil {
				return fmt.Errorf("position %s: %w", pos, err)
			}
			ev, err := c.Evaluate(ctx)
			if err != nil {
				return fmt.Errorf("position %s: %w", pos, err)
			}
			copy(out[i][:], ev[:5])
			return nil
		}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("gnubg judge: %w", err)
	}
	return out, nil
}

// JudgeCubeful asks gnubg (the program bin, at plies) for the cubeful
// equity of n states' positions before the roll for its player on roll
// (Player.CubefulEquity: cubeful money equity in units of the cube, or the
// match winning chance in a match), sharing the work as Judge does. The
// states come from state(i), asked for as each is judged and possibly from
// several goroutines at once, so that millions of them need not be held
// in memory together.
func JudgeCubeful(ctx context.Context, bin string, plies, jobs, n int, state func(i int) *backgammon.State, progress func(done, total int)) ([]float64, error) {
	out := make([]float64, n)
	err := shareOut(ctx, bin, plies, jobs, n, progress, func(ctx context.Context, p *Player) (func(i int) error, error) {
		return func(i int) error {
			s := state(i)
			x, err := p.CubefulEquity(ctx, s)
			if err != nil {
				pos, mid := gnubgid.Encode(s)
				return fmt.Errorf("position %s:%s: %w", pos, mid, err)
			}
			out[i] = x
			return nil
		}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("gnubg judge: %w", err)
	}
	return out, nil
}

// shareOut runs jobs gnubg processes at plies over items 0..n-1: start
// readies each process and returns its work on one item. The first error
// stops every process; progress, when set, is told after each item.
func shareOut(ctx context.Context, bin string, plies, jobs, n int, progress func(done, total int), start func(ctx context.Context, p *Player) (func(i int) error, error)) error {
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
			work, err := start(ctx, p)
			if err != nil {
				fail(j, err)
			}
			for i := range next {
				if errs[j] != nil {
					continue
				}
				if err := work(i); err != nil {
					fail(j, err)
					continue
				}
				mu.Lock()
				done++
				if progress != nil {
					progress(done, n)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
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
			return err
		}
	}
	return ctx.Err()
}
