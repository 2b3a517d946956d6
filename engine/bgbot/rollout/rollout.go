// Package rollout rolls out backgammon positions and decisions with bgbot:
// many games played from a position by the bot on both sides, their
// results averaged. It rolls out cubeless or cubeful, in money play or at
// a match score (with bgbot's match equity table), with quasi-random dice,
// variance reduction by luck correction and truncation, on any number of
// cores; a rollout's state is plain data that can be saved, resumed and
// extended, and a rollout stopped and extended gives exactly the figures of
// one run straight through.
//
// The units: cubeless figures are the probabilities and cubeless money
// equity of the player whose decision is rolled out; cubeful figures are,
// in money play, points won per unit of the cube at the decision (a
// double/pass is +1), and in match play that player's match winning chance.
package rollout

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// Settings are what a rollout's trials depend on. Two runs with the same
// settings play the same games.
type Settings struct {
	Seed uint64 `json:"seed"`
	// Truncate, above 0, stops each trial after that many turns and lets
	// the bot's evaluation there (cubeful when Cubeful) stand for the rest.
	Truncate int `json:"truncate"`
	// Cubeful plays the cube: doubles, takes and drops by the bot's cube
	// decisions. Otherwise no one doubles.
	Cubeful bool `json:"cubeful"`
	// PlainDice turns the quasi-random dice off.
	PlainDice bool `json:"plain_dice"`
	// NoVarianceReduction turns the luck correction off.
	NoVarianceReduction bool `json:"no_variance_reduction"`
	// Bot describes the bot that plays (its depths for chequer play and
	// cube decisions), so that a saved rollout goes on only with the same.
	Bot string `json:"bot"`
}

// The outputs of a trial, in the order of Alternative.Sum.
const (
	outWin = iota
	outWinGammon
	outWinBackgammon
	outLoseGammon
	outLoseBackgammon
	outEquity  // cubeless money equity
	outCubeful // points per unit of the decision's cube (money) or match winning chance
	outputs
)

// Alternative is one of the things a rollout compares: a position to roll
// out (after a move, or after a cube action) or a fixed result (a
// double/pass). Its sums grow as trials are added.
type Alternative struct {
	Name string `json:"name"`
	// PositionID and MatchID give the state rolled out, before the roll of
	// its player on roll (for a fixed result, the state of the decision).
	PositionID string `json:"position_id,omitempty"`
	MatchID    string `json:"match_id,omitempty"`
	// NoDoubleFirst forbids a double before the first roll (the decision
	// rolled out is not to double, or the player on roll has just taken).
	NoDoubleFirst bool `json:"no_double_first,omitempty"`
	// Invert reports the results from the view of the player not on roll
	// of the state rolled out (the one who has just moved).
	Invert bool `json:"invert,omitempty"`
	// BaseCube is the cube value that money results are counted in.
	BaseCube int `json:"base_cube"`
	// Fixed, when set, is the exact cubeful result; nothing is rolled out.
	Fixed *float64 `json:"fixed,omitempty"`
	// Trials played so far, and the sums of the trial outputs and of
	// their squares (win, win gammon, win backgammon, lose gammon, lose
	// backgammon, cubeless equity, cubeful).
	Trials int              `json:"trials"`
	Sum    [outputs]float64 `json:"sum"`
	SumSq  [outputs]float64 `json:"sum_sq"`
}

// Rollout is a rollout in progress: its settings, the rules of the game
// and its alternatives with what their trials have given so far.
type Rollout struct {
	Settings     Settings         `json:"settings"`
	Rules        backgammon.Rules `json:"rules"`
	Alternatives []Alternative    `json:"alternatives"`
}

// Estimate is a mean and its standard error.
type Estimate struct {
	Mean   float64 `json:"mean"`
	StdErr float64 `json:"stderr"`
}

// Result is what an alternative's trials say so far.
type Result struct {
	Name   string      `json:"name"`
	Trials int         `json:"trials"`
	Probs  [5]Estimate `json:"probs"`  // win, win gammon, win backgammon, lose gammon, lose backgammon
	Equity Estimate    `json:"equity"` // cubeless money equity
	// Cubeful is the cubeful result (absent in a cubeless rollout): points
	// per unit of the decision's cube in money play, the match winning
	// chance in match play. For a double/pass it is exact.
	Cubeful *Estimate `json:"cubeful,omitempty"`
	// CubefulEMG is, in match play, Cubeful as normalised equity (EMG):
	// -1 and +1 at the match winning chances of losing and winning a
	// single game at the decision's cube, linear between, as gnubg
	// shows match equities.
	CubefulEMG *Estimate `json:"cubeful_emg,omitempty"`
}

// Results are the estimates of every alternative.
func (r *Rollout) Results() []Result {
	out := make([]Result, len(r.Alternatives))
	for i := range r.Alternatives {
		a := &r.Alternatives[i]
		res := Result{Name: a.Name, Trials: a.Trials}
		if a.Fixed != nil {
			res.Cubeful = &Estimate{Mean: *a.Fixed}
			if lose, win, ok := r.singleGame(a); ok {
				res.CubefulEMG = &Estimate{Mean: 2*(*a.Fixed-lose)/(win-lose) - 1}
			}
			out[i] = res
			continue
		}
		est := func(k int) Estimate {
			if a.Trials == 0 {
				return Estimate{}
			}
			n := float64(a.Trials)
			e := Estimate{Mean: a.Sum[k] / n}
			if a.Trials > 1 {
				e.StdErr = math.Sqrt(max(0, (a.SumSq[k]-a.Sum[k]*a.Sum[k]/n)/(n-1)) / n)
			}
			return e
		}
		for k := range res.Probs {
			res.Probs[k] = est(k)
		}
		res.Equity = est(outEquity)
		if r.Settings.Cubeful {
			c := est(outCubeful)
			res.Cubeful = &c
			if lose, win, ok := r.singleGame(a); ok {
				e := Estimate{Mean: 2*(c.Mean-lose)/(win-lose) - 1, StdErr: 2 * c.StdErr / (win - lose)}
				res.CubefulEMG = &e
			}
		}
		out[i] = res
	}
	return out
}

// singleGame is, in match play, the match winning chances of the
// alternative's player after losing and after winning a single game at the
// decision's cube; ok is false in money play.
func (r *Rollout) singleGame(a *Alternative) (lose, win float64, ok bool) {
	s, err := gnubgid.DecodeState(a.PositionID, a.MatchID, r.Rules)
	if err != nil || s.Money() {
		return 0, 0, false
	}
	met, err := bgbot.DefaultMET()
	if err != nil {
		return 0, 0, false
	}
	root := s.Move
	if a.Invert {
		root = 1 - root
	}
	me, opp := need(s, root)
	pc := postCrawford(s)
	lose, win = met.Win(me, opp-a.BaseCube, pc), met.Win(me-a.BaseCube, opp, pc)
	return lose, win, win > lose
}

// Trials is the fewest trials any rolled-out alternative has had.
func (r *Rollout) Trials() int {
	n := -1
	for _, a := range r.Alternatives {
		if a.Fixed == nil && (n < 0 || a.Trials < n) {
			n = a.Trials
		}
	}
	return max(n, 0)
}

// RunConfig says how to run a rollout's trials; none of it changes the
// results.
type RunConfig struct {
	// NewBot makes the bot that plays both sides; it is called once per
	// worker. Its Plies and CubePlies are the rollout's depths.
	NewBot func() (*bgbot.Bot, error)
	// Workers is how many trials are played at once (1 when 0).
	Workers int
	// Batch is how many trials are added between checkpoints (36 when 0).
	Batch int
	// Checkpoint, when set, is called after each batch has been added.
	Checkpoint func(*Rollout) error
}

// Run plays trials until every alternative has had trials of them. Trials
// are added in the order of their numbers, a batch at a time, so that a
// rollout stopped after a batch and run on later sums exactly the same
// numbers in the same order as one run straight through. When ctx is
// cancelled, Run stops after the batch in progress has been added and
// returns the context's error.
func (r *Rollout) Run(ctx context.Context, trials int, rc RunConfig) error {
	if trials < 1 {
		return fmt.Errorf("rollout: %d trials", trials)
	}
	if r.Settings.Truncate < 0 {
		return fmt.Errorf("rollout: truncation at %d turns", r.Settings.Truncate)
	}
	if rc.NewBot == nil {
		return fmt.Errorf("rollout: no bot")
	}
	starts := make([]*backgammon.State, len(r.Alternatives))
	for i := range r.Alternatives {
		a := &r.Alternatives[i]
		if a.Fixed != nil {
			continue
		}
		s, err := gnubgid.DecodeState(a.PositionID, a.MatchID, r.Rules)
		if err != nil {
			return fmt.Errorf("rollout: %s: %w", a.Name, err)
		}
		if s.GameState != backgammon.GamePlaying || (s.Decision() != backgammon.DecideCube && s.Decision() != backgammon.NeedRoll) {
			return fmt.Errorf("rollout: %s: not a position before the roll", a.Name)
		}
		if a.BaseCube < 1 {
			return fmt.Errorf("rollout: %s: base cube %d", a.Name, a.BaseCube)
		}
		starts[i] = s
	}
	met, err := bgbot.DefaultMET()
	if err != nil {
		return fmt.Errorf("rollout: %w", err)
	}
	var quasi *quasiDice
	if !r.Settings.PlainDice {
		quasi = newQuasiDice(r.Settings.Seed)
	}
	workers := max(rc.Workers, 1)
	bots := make([]*bgbot.Bot, workers)
	for w := range bots {
		if bots[w], err = rc.NewBot(); err != nil {
			return fmt.Errorf("rollout: %w", err)
		}
	}
	batch := rc.Batch
	if batch <= 0 {
		batch = 36
	}
	for {
		// The next batch of each alternative starts where it stopped.
		type job struct{ alt, trial int }
		var jobs []job
		for i := range r.Alternatives {
			a := &r.Alternatives[i]
			if a.Fixed != nil {
				continue
			}
			for t := a.Trials; t < min(a.Trials+batch, trials); t++ {
				jobs = append(jobs, job{i, t})
			}
		}
		if len(jobs) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("rollout: %w", err)
		}
		outs := make([][outputs]float64, len(jobs))
		errs := make([]error, workers)
		var wg sync.WaitGroup
		next := make(chan int)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := player{bot: bots[w], met: met, settings: &r.Settings}
				for j := range next {
					if errs[w] != nil {
						continue
					}
					jb := jobs[j]
					outs[j], errs[w] = p.trial(starts[jb.alt], &r.Alternatives[jb.alt], quasi, jb.trial)
				}
			}()
		}
		for j := range jobs {
			next <- j
		}
		close(next)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return fmt.Errorf("rollout: %w", err)
			}
		}
		for j, jb := range jobs {
			a := &r.Alternatives[jb.alt]
			for k, v := range outs[j] {
				a.Sum[k] += v
				a.SumSq[k] += v * v
			}
			a.Trials++
		}
		if rc.Checkpoint != nil {
			if err := rc.Checkpoint(r); err != nil {
				return fmt.Errorf("rollout: %w", err)
			}
		}
	}
}

// player plays trials with one bot.
type player struct {
	bot      *bgbot.Bot
	met      *bgbot.MET
	settings *Settings
	// table holds, for each of the 21 rolls, the bot's choice of move
	// and its probabilities from the mover's view.
	table [21]choice
}

type choice struct {
	move  backgammon.Move
	probs bgbot.Probs
	d1    int
	d2    int
}

// rollIndex numbers the 21 distinct rolls; rollWeight is each one's share
// of the 36.
func rollIndex(d1, d2 int) int {
	if d1 < d2 {
		d1, d2 = d2, d1
	}
	// d1 >= d2: rows 1..6 hold 1..6 entries.
	return (d1-1)*d1/2 + d2 - 1
}

func rollWeight(d1, d2 int) float64 {
	if d1 == d2 {
		return 1.0 / 36
	}
	return 2.0 / 36
}

// trial plays trial number t of alternative a from start and returns its
// outputs from the view of the alternative's player.
func (p *player) trial(start *backgammon.State, a *Alternative, quasi *quasiDice, t int) ([outputs]float64, error) {
	st := *start // start has never been played on: its move generator is unset
	root := st.Move
	if a.Invert {
		root = 1 - root
	}
	if !p.settings.Cubeful {
		st.Cube = false
	}
	dice := newTrialDice(quasi, p.settings.Seed, t)
	p.bot.SetVariant(st.Variant)
	var luck [outputs]float64 // the sum of the luck of every roll, from root's view
	view := func(pr bgbot.Probs, mover int) bgbot.Probs {
		if mover != root {
			return pr.Invert()
		}
		return pr
	}
	for turn := 0; ; turn++ {
		if turn >= 4*bgbot.MaxGamePlies {
			return [outputs]float64{}, fmt.Errorf("trial %d has no end after %d turns", t, turn)
		}
		mover := st.Move
		if p.settings.Truncate > 0 && turn >= p.settings.Truncate {
			out, err := p.truncated(&st, root, a.BaseCube)
			return sub(out, luck), err
		}
		if st.Decision() == backgammon.DecideCube && !(turn == 0 && a.NoDoubleFirst) {
			dbl, err := p.bot.Double(&st)
			if err != nil {
				return [outputs]float64{}, err
			}
			if dbl {
				if err := st.Double(); err != nil {
					return [outputs]float64{}, err
				}
				ans, err := p.bot.Take(&st)
				if err != nil {
					return [outputs]float64{}, err
				}
				if ans == backgammon.Drop {
					// The game ends; its cubeless figures are the bot's
					// view of the position the double was made in.
					pr := view(p.bot.Probs(st.Board), mover)
					if err := st.AnswerDouble(ans); err != nil {
						return [outputs]float64{}, err
					}
					out := probsOutputs(pr)
					out[outCubeful] = p.finalCubeful(&st, root, a.BaseCube)
					return sub(out, luck), nil
				}
				if err := st.AnswerDouble(ans); err != nil {
					return [outputs]float64{}, err
				}
			}
		}
		d1, d2 := dice.roll(turn)
		played := false
		var m backgammon.Move
		if !p.settings.NoVarianceReduction {
			// The luck of the roll: the bot's view of the result of its
			// choice with the dice rolled, less the mean over all 36.
			var mean [outputs]float64
			var actual [outputs]float64
			for hi := 1; hi <= 6; hi++ {
				for lo := 1; lo <= hi; lo++ {
					c := &p.table[rollIndex(hi, lo)]
					c.move, c.probs, _ = p.bot.ChooseMove(st.Board, hi, lo)
					o := p.luckOutputs(&st, view(c.probs, mover), root, a.BaseCube)
					w := rollWeight(hi, lo)
					for k := range mean {
						mean[k] += w * o[k]
					}
					if (hi == d1 && lo == d2) || (hi == d2 && lo == d1) {
						actual = o
					}
				}
			}
			for k := range luck {
				luck[k] += actual[k] - mean[k]
			}
			if st.Money() && !bgbotCubefulMoves(p.bot) {
				// Money play moves by cubeless equity: the choice is made.
				m, played = p.table[rollIndex(d1, d2)].move, true
			}
		}
		if err := st.SetDice(d1, d2); err != nil {
			return [outputs]float64{}, err
		}
		if !played {
			var err error
			if m, _, err = p.bot.Move(&st); err != nil {
				return [outputs]float64{}, err
			}
		}
		if err := st.Play(m); err != nil {
			return [outputs]float64{}, err
		}
		if st.GameState != backgammon.GamePlaying {
			var pr bgbot.Probs
			pr[bgbot.Win] = 1
			if st.ResultLevel >= backgammon.Gammon {
				pr[bgbot.WinGammon] = 1
			}
			if st.ResultLevel >= backgammon.Backgammon {
				pr[bgbot.WinBackgammon] = 1
			}
			out := probsOutputs(view(pr, st.Winner))
			out[outCubeful] = p.finalCubeful(&st, root, a.BaseCube)
			return sub(out, luck), nil
		}
	}
}

// bgbotCubefulMoves reports whether the bot chooses its moves by cubeful
// equity in money play (then the luck table's cubeless choice is not its
// move).
func bgbotCubefulMoves(b *bgbot.Bot) bool { return b.Config().CubefulMoves }

func sub(out, luck [outputs]float64) [outputs]float64 {
	for k := range out {
		out[k] -= luck[k]
	}
	return out
}

// probsOutputs fills the cubeless outputs from probabilities.
func probsOutputs(p bgbot.Probs) [outputs]float64 {
	var out [outputs]float64
	for k := range 5 {
		out[k] = float64(p[k])
	}
	out[outEquity] = float64(p.Equity())
	return out
}

// luckOutputs is what the luck correction compares across rolls: the
// probabilities after a move from root's view, their cubeless equity and,
// in a cubeful rollout, a cubeful stand-in: the cubeless equity at the
// current cube (money) or the match winning chance with the cube dead.
// Any such figure keeps the correction unbiased, since over the 36 rolls
// it averages to nothing; the closer it follows the cubeful result, the
// more variance it removes.
func (p *player) luckOutputs(st *backgammon.State, pr bgbot.Probs, root, base int) [outputs]float64 {
	out := probsOutputs(pr)
	if p.settings.Cubeful {
		if st.Money() {
			out[outCubeful] = out[outEquity] * float64(st.CubeValue) / float64(base)
		} else {
			out[outCubeful] = p.deadMWC(st, root, pr, st.CubeValue)
		}
	}
	return out
}

// need is how many points each side still needs, root first.
func need(st *backgammon.State, root int) (me, opp int) {
	return st.MatchLength - st.Score[root], st.MatchLength - st.Score[1-root]
}

// postCrawford says whether the games after the current one are past the
// Crawford game.
func postCrawford(st *backgammon.State) bool {
	return st.PostCrawford || st.CrawfordGame || !st.Crawford
}

// deadMWC is root's match winning chance if the current game is played out
// for cube points with probabilities pr (root's view).
func (p *player) deadMWC(st *backgammon.State, root int, pr bgbot.Probs, cube int) float64 {
	me, opp := need(st, root)
	pc := postCrawford(st)
	f := func(x float32) float64 { return float64(x) }
	ws, wg, wb := f(pr[bgbot.Win]-pr[bgbot.WinGammon]), f(pr[bgbot.WinGammon]-pr[bgbot.WinBackgammon]), f(pr[bgbot.WinBackgammon])
	ls, lg, lb := f(1-pr[bgbot.Win]-pr[bgbot.LoseGammon]), f(pr[bgbot.LoseGammon]-pr[bgbot.LoseBackgammon]), f(pr[bgbot.LoseBackgammon])
	w := p.met.Win
	return ws*w(me-cube, opp, pc) + wg*w(me-2*cube, opp, pc) + wb*w(me-3*cube, opp, pc) +
		ls*w(me, opp-cube, pc) + lg*w(me, opp-2*cube, pc) + lb*w(me, opp-3*cube, pc)
}

// finalCubeful is root's cubeful result of a finished game: points per
// unit of base cube in money play, the match winning chance in a match.
func (p *player) finalCubeful(st *backgammon.State, root, base int) float64 {
	if !p.settings.Cubeful {
		return 0
	}
	pts := st.Points
	if st.Winner != root {
		pts = -pts
	}
	if st.Money() {
		return float64(pts) / float64(base)
	}
	// The score has been updated: the next game decides the rest.
	me, opp := need(st, root)
	return p.met.Win(me, opp, postCrawford(st))
}

// truncated is root's outputs at a truncated trial's last position: the
// bot's probabilities and, when cubeful, its cubeful equity there, the
// player on roll doubling where it would.
func (p *player) truncated(st *backgammon.State, root, base int) ([outputs]float64, error) {
	pr := p.bot.Probs(st.Board)
	mover := st.Move
	rootProbs := pr
	if mover != root {
		rootProbs = pr.Invert()
	}
	out := probsOutputs(rootProbs)
	if !p.settings.Cubeful {
		return out, nil
	}
	if !st.Money() && st.CrawfordGame {
		out[outCubeful] = p.deadMWC(st, root, rootProbs, st.CubeValue)
		return out, nil
	}
	ce, err := p.bot.Cube(st)
	if err != nil {
		return out, err
	}
	v := ce.NoDouble
	if st.CanDouble() && ce.ShouldDouble() {
		v = min(ce.DoubleTake, ce.DoublePass)
	}
	if st.Money() {
		v *= float64(st.CubeValue) / float64(base)
		if mover != root {
			v = -v
		}
	} else if mover != root {
		v = 1 - v
	}
	out[outCubeful] = v
	return out, nil
}
