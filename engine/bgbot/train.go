package bgbot

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// TrainConfig configures TD(lambda) self-play training.
type TrainConfig struct {
	Games     int     // self-play games to play in this run
	Alpha     float64 // learning rate at the start of the run
	AlphaEnd  float64 // learning rate at the end (linear decay); 0 keeps Alpha
	Lambda    float64 // TD(lambda) trace decay
	Seed      uint64  // dice seed: game g (counted over the weights' life) uses NewDice(Seed, g)
	Workers   int     // parallel self-play workers, each on its own copy of the weights
	SyncEvery int     // games per worker between weight averages (default 250)
	// InputRate scales the learning rate of the first layer (input
	// weights and hidden biases) against the output layer's; 0 means 1.
	// About 60 inputs are on in a contact position, so one step moves a
	// hidden unit's input sum some 40 times as far as it moves any one
	// weight, which can drive a unit to the same activation for every
	// position (see Weights.HiddenUse).
	InputRate float64
	// Progress, when set, is called after every averaging with the number
	// of games played in this run and the current weights (which it must
	// not keep or modify after returning; Clone them to keep them).
	Progress func(games int, w *Weights) error
}

// Train improves w by self-play and returns it. Every game is played by the
// network against itself at 0-ply, driving backgammon.State (cubeless money
// play). After each game the worker applies the offline lambda-return form
// of TD(lambda): with E_t the network's judgement (from the mover's view) of
// the position after the t-th move, the target of the position before it
// is G_t = (1-lambda) E_t + lambda G'_{t+1}, where G' is the next target
// seen from the other side and the last target is the game's real outcome;
// each position then takes one gradient step toward its target. With
// several workers each plays SyncEvery games on its own copy, then the
// copies are averaged (synchronous parameter averaging), which keeps runs
// reproducible for a given seed and worker count.
func Train(ctx context.Context, w *Weights, cfg TrainConfig) (*Weights, error) {
	if cfg.Games < 0 || cfg.Alpha <= 0 || cfg.Lambda < 0 || cfg.Lambda > 1 {
		return nil, fmt.Errorf("train: bad configuration: games %d alpha %v lambda %v", cfg.Games, cfg.Alpha, cfg.Lambda)
	}
	workers := max(cfg.Workers, 1)
	sync := cfg.SyncEvery
	if sync <= 0 {
		sync = 250
	}
	alphaEnd := cfg.AlphaEnd
	if alphaEnd <= 0 {
		alphaEnd = cfg.Alpha
	}
	ws := make([]*trainWorker, workers)
	for i := range ws {
		tw, err := newTrainWorker(w.Clone(), cfg.InputRate)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		ws[i] = tw
	}
	start := w.Games
	played := 0
	for played < cfg.Games {
		round := min(sync*workers, cfg.Games-played)
		alpha := float32(cfg.Alpha + (alphaEnd-cfg.Alpha)*float64(played)/float64(max(cfg.Games, 1)))
		errs := make(chan error, workers)
		for k, tw := range ws {
			go func(k int, tw *trainWorker) {
				for g := k; g < round; g += workers {
					if err := ctx.Err(); err != nil {
						errs <- err
						return
					}
					id := start + uint64(played+g)
					if err := tw.game(backgammon.NewDice(cfg.Seed, id), float32(cfg.Lambda), alpha); err != nil {
						errs <- fmt.Errorf("game %d: %w", id, err)
						return
					}
				}
				errs <- nil
			}(k, tw)
		}
		var first error
		for range ws {
			if err := <-errs; err != nil && first == nil {
				first = err
			}
		}
		if first != nil {
			return nil, fmt.Errorf("train: %w", first)
		}
		played += round
		all := make([]*Weights, workers)
		for i, tw := range ws {
			all[i] = tw.w
		}
		w.Average(all)
		w.Games = start + uint64(played)
		for _, tw := range ws {
			tw.w.copyFrom(w)
		}
		if cfg.Progress != nil {
			if err := cfg.Progress(played, w); err != nil {
				return nil, fmt.Errorf("train: progress: %w", err)
			}
		}
	}
	return w, nil
}

func (w *Weights) copyFrom(src *Weights) {
	w.Games = src.Games
	for c, n := range w.nets {
		s := src.nets[c]
		copy(n.w1, s.w1)
		copy(n.b1, s.b1)
		copy(n.w2, s.w2)
		n.b2 = s.b2
	}
}

type trainWorker struct {
	w       *Weights
	ev      *NetEvaluator
	bot     *Bot
	pos     []backgammon.Board
	evs     []Probs
	targets []Probs
}

func newTrainWorker(w *Weights, inputRate float64) (*trainWorker, error) {
	ev := w.NewEvaluator()
	if inputRate > 0 {
		ev.inputRate = float32(inputRate)
	}
	bot, err := NewBot(Config{Level: LevelNet, Evaluator: ev})
	if err != nil {
		return nil, err
	}
	return &trainWorker{w: w, ev: ev, bot: bot}, nil
}

func (tw *trainWorker) game(dice *backgammon.Dice, lambda, alpha float32) error {
	s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard})
	first, d0, d1 := dice.Opening()
	if err := s.StartGame(first, d0, d1); err != nil {
		return err
	}
	tw.pos, tw.evs = tw.pos[:0], tw.evs[:0]
	for s.GameState == backgammon.GamePlaying {
		if len(tw.pos) > MaxGamePlies {
			return fmt.Errorf("no end after %d moves", len(tw.pos))
		}
		switch s.Decision() {
		case backgammon.NeedRoll:
			if err := s.SetDice(dice.Roll()); err != nil {
				return err
			}
		case backgammon.DecideMove:
			m, p, _ := tw.bot.ChooseMove(s.Board, s.Dice[0], s.Dice[1])
			tw.pos = append(tw.pos, s.Board)
			tw.evs = append(tw.evs, p)
			if err := s.Play(m); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unexpected decision %v", s.Decision())
		}
	}
	n := len(tw.pos)
	if cap(tw.targets) < n {
		tw.targets = make([]Probs, n)
	}
	t := tw.targets[:n]
	t[n-1] = tw.evs[n-1] // the winning move: its Outcome is exact
	for i := n - 2; i >= 0; i-- {
		next := t[i+1].Invert()
		for k := range t[i] {
			t[i][k] = (1-lambda)*tw.evs[i][k] + lambda*next[k]
		}
	}
	for i := range t {
		tw.ev.learn(&tw.pos[i], t[i], alpha)
	}
	return nil
}

// NewRandomWeights is NewWeights with a seeded source, for the trainer.
func NewRandomWeights(hidden int, seed uint64) (*Weights, error) {
	return NewWeightsLayout(LayoutV1, hidden, SeededRand(seed))
}

// SeededRand is the trainer's seeded source of initial weights.
func SeededRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x7765696768747321))
}
