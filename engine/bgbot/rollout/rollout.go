// Package rollout rolls out backgammon positions and decisions with bgbot:
// many games played from a position by the bot on both sides (or by
// another Player), their results averaged. It rolls out cubeless or
// cubeful, in money play or at a match score (with bgbot's match equity
// table), with quasi-random dice (the first roll stratified over the 36
// rolls or the 21 distinct ones), variance reduction by luck correction,
// truncation after a number of turns and at the bearoff databases, on any
// number of cores; a rollout's state is plain data that can be saved,
// resumed and extended, and a rollout stopped and extended gives exactly
// the figures of one run straight through.
//
// The units: cubeless figures are the probabilities and cubeless money
// equity of the player whose decision is rolled out; cubeful figures are,
// in money play, points won per unit of the cube at the decision (a
// double/pass is +1), and in match play that player's match winning chance.
package rollout

import (
	"context"
	"fmt"
	"io"
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
	// Stratify is how the quasi-random dice spread the first roll: over
	// the 36 rolls (36, or 0), every trial counting once, or over the 21
	// distinct rolls (21), a trial counting its first roll's chance times
	// 21 (a non-double twice a double), so that any 21 consecutive trials
	// from a multiple of 21 weigh the first roll exactly.
	Stratify int `json:"stratify"`
	// NoVarianceReduction turns the luck correction off.
	NoVarianceReduction bool `json:"no_variance_reduction"`
	// CubelessLuck corrects the cubeful result's luck with the cubeless
	// stand-in of luckOutputs rather than the bot's cubeful equity.
	CubelessLuck bool `json:"cubeless_luck"`
	// NoBearoffTruncation plays trials out inside the bearoff databases.
	// By default (as gnubg's rollouts) a trial that reaches a position the
	// databases answer exactly ends there with the database's value: in a
	// cubeless rollout where both sides are in the one-sided or two-sided
	// database, in a cubeful money rollout where the two-sided database
	// holds the position (its exact cubeful equities). A cubeful match is
	// played out: the database has no match equities, and the cube model
	// on its probabilities would not be exact.
	NoBearoffTruncation bool `json:"no_bearoff_truncation"`
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
	// Trials played so far; the sums of their weights and of their
	// squares (each 1 unless the first roll is stratified over the 21
	// rolls); and the weighted sums of the trial outputs and of their
	// squares (win, win gammon, win backgammon, lose gammon, lose
	// backgammon, cubeless equity, cubeful).
	Trials   int              `json:"trials"`
	Weight   float64          `json:"weight"`
	WeightSq float64          `json:"weight_sq"`
	Sum      [outputs]float64 `json:"sum"`
	SumSq    [outputs]float64 `json:"sum_sq"`
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
		est := func(k int) Estimate { return estimate(a, k) }
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

// estimate is the weighted mean of output k of a's trials and its
// standard error: the weighted spread of the trials, corrected to n-1
// degrees of freedom, over the effective number of trials (the square of
// the weights' sum over the sum of their squares). With every weight 1
// these are the plain mean and the spread over the square root of n.
func estimate(a *Alternative, k int) Estimate {
	if a.Trials == 0 || a.Weight <= 0 {
		return Estimate{}
	}
	e := Estimate{Mean: a.Sum[k] / a.Weight}
	if a.Trials > 1 {
		n := float64(a.Trials)
		variance := max(0, a.SumSq[k]/a.Weight-e.Mean*e.Mean) * n / (n - 1)
		e.StdErr = math.Sqrt(variance*a.WeightSq) / a.Weight
	}
	return e
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

// RunConfig says how to run a rollout's trials; none of it but the
// players and the databases changes the results.
type RunConfig struct {
	// NewBot makes the bot that plays both sides; it is called once per
	// worker. Its Plies and CubePlies are the rollout's depths. It also
	// judges the positions for the luck correction and at truncation,
	// whoever plays.
	NewBot func() (*bgbot.Bot, error)
	// NewPlayer, when set, makes the player that decides in place of the
	// bot, once per worker; Run closes it when it is an io.Closer.
	NewPlayer func() (Player, error)
	// Bearoff and Bearoff2 are the databases trials end in (unless
	// Settings.NoBearoffTruncation); nil builds the one-sided database of
	// bgbot.DefaultBearoffCheckers checkers and the two-sided one of
	// bgbot.MaxBearoff2Checkers.
	Bearoff  *bgbot.Bearoff
	Bearoff2 *bgbot.Bearoff2
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
	by21 := false
	switch r.Settings.Stratify {
	case 0, 36:
	case 21:
		if r.Settings.PlainDice {
			return fmt.Errorf("rollout: the first roll stratified over the 21 rolls needs quasi-random dice")
		}
		by21 = true
	default:
		return fmt.Errorf("rollout: stratify over %d rolls: want 36 or 21", r.Settings.Stratify)
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
	var one *bgbot.Bearoff
	var two *bgbot.Bearoff2
	if !r.Settings.NoBearoffTruncation {
		one, two = rc.Bearoff, rc.Bearoff2
		if one == nil {
			if one, err = bgbot.NewBearoff(bgbot.DefaultBearoffCheckers); err != nil {
				return fmt.Errorf("rollout: %w", err)
			}
		}
		if two == nil {
			if two, err = bgbot.NewBearoff2(bgbot.MaxBearoff2Checkers); err != nil {
				return fmt.Errorf("rollout: %w", err)
			}
		}
	}
	workers := max(rc.Workers, 1)
	players := make([]worker, workers)
	defer func() {
		for i := range players {
			if c, ok := players[i].play.(io.Closer); ok {
				c.Close()
			}
		}
	}()
	for w := range players {
		p := &players[w]
		p.met, p.settings, p.one, p.two, p.by21 = met, &r.Settings, one, two, by21
		if p.bot, err = rc.NewBot(); err != nil {
			return fmt.Errorf("rollout: %w", err)
		}
		p.play, p.botPlays = botPlayer{p.bot}, true
		if rc.NewPlayer != nil {
			if p.play, err = rc.NewPlayer(); err != nil {
				return fmt.Errorf("rollout: %w", err)
			}
			p.botPlays = false
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
		// A batch once begun is played to its end: a trial stopped half
		// way would leave the batch unadded.
		trialCtx := context.WithoutCancel(ctx)
		outs := make([][outputs]float64, len(jobs))
		weights := make([]float64, len(jobs))
		errs := make([]error, workers)
		var wg sync.WaitGroup
		next := make(chan int)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := &players[w]
				for j := range next {
					if errs[w] != nil {
						continue
					}
					jb := jobs[j]
					outs[j], weights[j], errs[w] = p.trial(trialCtx, starts[jb.alt], &r.Alternatives[jb.alt], quasi, jb.trial)
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
			w := weights[j]
			for k, v := range outs[j] {
				a.Sum[k] += w * v
				a.SumSq[k] += w * v * v
			}
			a.Weight += w
			a.WeightSq += w * w
			a.Trials++
		}
		if rc.Checkpoint != nil {
			if err := rc.Checkpoint(r); err != nil {
				return fmt.Errorf("rollout: %w", err)
			}
		}
	}
}

// worker plays trials: its player decides, its bot judges the positions
// for the luck correction and at truncation.
type worker struct {
	bot      *bgbot.Bot
	play     Player
	botPlays bool // play is bot deciding for itself
	met      *bgbot.MET
	settings *Settings
	by21     bool
	one      *bgbot.Bearoff  // nil without bearoff truncation
	two      *bgbot.Bearoff2 // nil without bearoff truncation
	// table holds, for each of the 21 rolls, the bot's choice of move
	// and its probabilities from the mover's view.
	table [21]choice
}

type choice struct {
	move  backgammon.Move
	probs bgbot.Probs
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
// outputs from the view of the alternative's player, and its weight.
func (p *worker) trial(ctx context.Context, start *backgammon.State, a *Alternative, quasi *quasiDice, t int) ([outputs]float64, float64, error) {
	st := *start // start has never been played on: its move generator is unset
	root := st.Move
	if a.Invert {
		root = 1 - root
	}
	if !p.settings.Cubeful {
		st.Cube = false
	}
	dice := newTrialDice(quasi, p.by21, p.settings.Seed, t)
	weight := dice.weight()
	fail := func(err error) ([outputs]float64, float64, error) { return [outputs]float64{}, 0, err }
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
			return fail(fmt.Errorf("trial %d has no end after %d turns", t, turn))
		}
		mover := st.Move
		mayDouble := !(turn == 0 && a.NoDoubleFirst)
		if out, ok, err := p.bearoffEnd(&st, root, a.BaseCube, mayDouble); err != nil || ok {
			return sub(out, luck), weight, err
		}
		if p.settings.Truncate > 0 && turn >= p.settings.Truncate {
			out, err := p.truncated(&st, root, a.BaseCube)
			return sub(out, luck), weight, err
		}
		if st.Decision() == backgammon.DecideCube && mayDouble {
			dbl, err := p.play.Double(ctx, &st)
			if err != nil {
				return fail(err)
			}
			if dbl {
				before := st // the position the double is made in
				if err := st.Double(); err != nil {
					return fail(err)
				}
				ans, err := p.play.Take(ctx, &st)
				if err != nil {
					return fail(err)
				}
				if ans == backgammon.Beaver && !st.CanBeaver() {
					ans = backgammon.Take
				}
				if ans == backgammon.Drop {
					// The game ends; its cubeless figures are the
					// player's (or the bot's) view of the position the
					// double was made in.
					pr := p.bot.Probs(st.Board)
					if j, ok := p.play.(Judge); ok && !p.botPlays {
						if pr, err = j.Probs(ctx, &before); err != nil {
							return fail(err)
						}
					}
					pr = view(pr, mover)
					if err := st.AnswerDouble(ans); err != nil {
						return fail(err)
					}
					out := probsOutputs(pr)
					out[outCubeful] = p.finalCubeful(&st, root, a.BaseCube)
					return sub(out, luck), weight, nil
				}
				if err := st.AnswerDouble(ans); err != nil {
					return fail(err)
				}
			}
		}
		d1, d2 := dice.roll(turn)
		played := false
		var m backgammon.Move
		if !p.settings.NoVarianceReduction {
			// The luck of the roll: the bot's view of the result of its
			// choice with the dice rolled, less the mean over all 36. Any
			// function of the position and the roll keeps the correction
			// unbiased, so it holds whoever chooses the move played.
			var mean [outputs]float64
			var actual [outputs]float64
			for hi := 1; hi <= 6; hi++ {
				for lo := 1; lo <= hi; lo++ {
					c := &p.table[rollIndex(hi, lo)]
					c.move, c.probs, _ = p.bot.ChooseMove(st.Board, hi, lo)
					o, err := p.luckOutputs(&st, c, root, a.BaseCube)
					if err != nil {
						return fail(err)
					}
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
			if p.botPlays && st.Money() && !bgbotCubefulMoves(p.bot) {
				// Money play moves by cubeless equity: the choice is made.
				m, played = p.table[rollIndex(d1, d2)].move, true
			}
		}
		if err := st.SetDice(d1, d2); err != nil {
			return fail(err)
		}
		if !played {
			var err error
			if m, err = p.play.Move(ctx, &st); err != nil {
				return fail(err)
			}
		}
		if err := st.Play(m); err != nil {
			return fail(err)
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
			return sub(out, luck), weight, nil
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
// probabilities after the move c from root's view, their cubeless equity
// and, in a cubeful rollout, the bot's cubeful equity of the position
// after the move, its opponent on roll and free to double (the cube model
// on c's probabilities, no further search). With Settings.CubelessLuck the
// cubeful figure is a cubeless stand-in: the cubeless equity at the
// current cube (money) or the match winning chance with the cube dead.
// Any such figure keeps the correction unbiased, since over the 36 rolls
// it averages to nothing; the closer it follows the cubeful result, the
// more variance it removes.
func (p *worker) luckOutputs(st *backgammon.State, c *choice, root, base int) ([outputs]float64, error) {
	mover := st.Move
	pr := c.probs
	if mover != root {
		pr = pr.Invert()
	}
	out := probsOutputs(pr)
	if !p.settings.Cubeful {
		return out, nil
	}
	after := st.Board.Apply(c.move)
	_, over := bgbot.Outcome(&after, st.Variant.Checkers())
	switch {
	case p.settings.CubelessLuck || over:
		// A finished game's cubeless figures at the cube are its result.
		if st.Money() {
			out[outCubeful] = out[outEquity] * float64(st.CubeValue) / float64(base)
		} else {
			out[outCubeful] = p.deadMWC(st, root, pr, st.CubeValue)
		}
	default:
		next := *st
		next.Board, next.Move, next.Turn = after.Swap(), 1-mover, 1-mover
		v, err := p.cubefulAt(&next, c.probs.Invert(), root, base, true)
		if err != nil {
			return out, err
		}
		out[outCubeful] = v
	}
	return out, nil
}

// cubefulAt is root's cubeful figure of st before the roll of its player
// on roll, by the bot's cube model on pr (the probabilities of the player
// on roll, who doubles where the model says so if mayDouble): points per
// unit of the base cube in money play, the match winning chance in a
// match.
func (p *worker) cubefulAt(st *backgammon.State, pr bgbot.Probs, root, base int, mayDouble bool) (float64, error) {
	mover := st.Move
	if !st.Money() && st.CrawfordGame {
		if mover != root {
			pr = pr.Invert()
		}
		return p.deadMWC(st, root, pr, st.CubeValue), nil
	}
	ce, err := p.bot.CubeWith(st, pr)
	if err != nil {
		return 0, err
	}
	return cubeView(st, ce, root, base, mayDouble), nil
}

// cubeView turns the cube equities of st's player on roll into root's
// cubeful figure.
func cubeView(st *backgammon.State, ce bgbot.CubeEquities, root, base int, mayDouble bool) float64 {
	v := ce.NoDouble
	if mayDouble && st.CanDouble() && ce.ShouldDouble() {
		v = min(ce.DoubleTake, ce.DoublePass)
	}
	mover := st.Move
	if st.Money() {
		v *= float64(st.CubeValue) / float64(base)
		if mover != root {
			v = -v
		}
	} else if mover != root {
		v = 1 - v
	}
	return v
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
func (p *worker) deadMWC(st *backgammon.State, root int, pr bgbot.Probs, cube int) float64 {
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
func (p *worker) finalCubeful(st *backgammon.State, root, base int) float64 {
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
func (p *worker) truncated(st *backgammon.State, root, base int) ([outputs]float64, error) {
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
	out[outCubeful] = cubeView(st, ce, root, base, true)
	return out, nil
}

// bearoffEnd ends a trial at st, before the roll of its player on roll,
// when the bearoff databases answer st exactly (see
// Settings.NoBearoffTruncation): it returns root's outputs there and true.
// The player on roll may double first when mayDouble.
func (p *worker) bearoffEnd(st *backgammon.State, root, base int, mayDouble bool) ([outputs]float64, bool, error) {
	var out [outputs]float64
	if p.one == nil || st.Variant.Checkers() != 15 || bgbot.Contact(&st.Board) {
		return out, false, nil
	}
	if p.settings.Cubeful && !st.Money() {
		return out, false, nil
	}
	pr, inTwo := p.two.Probs(&st.Board)
	if !inTwo {
		if p.settings.Cubeful {
			return out, false, nil // the one-sided database has no cubeful equities
		}
		var ok bool
		if pr, ok = p.one.Probs(&st.Board); !ok {
			return out, false, nil
		}
	}
	rootProbs := pr
	if st.Move != root {
		rootProbs = pr.Invert()
	}
	out = probsOutputs(rootProbs)
	if !p.settings.Cubeful {
		return out, true, nil
	}
	if 2*st.CubeValue >= st.CubeCap() {
		return out, false, nil // a capped cube, which the database does not know
	}
	own := bgbot.CubeCentred
	switch st.CubeOwner {
	case -1:
	case st.Move:
		own = bgbot.CubeOwned
	default:
		own = bgbot.CubeUnavailable
	}
	ce, _ := p.two.MoneyCube(&st.Board, own == bgbot.CubeCentred)
	if own == bgbot.CubeUnavailable {
		v, _ := p.two.Cubeful(&st.Board, own)
		ce = bgbot.CubeEquities{NoDouble: v}
	}
	// The database's equities assume both sides double, take and pass
	// optimally from here on, as gnubg's truncation does.
	v := ce.NoDouble
	if mayDouble && own != bgbot.CubeUnavailable && ce.ShouldDouble() {
		v = min(ce.DoubleTake, ce.DoublePass)
	}
	v *= float64(st.CubeValue) / float64(base)
	if st.Move != root {
		v = -v
	}
	out[outCubeful] = v
	return out, true, nil
}
