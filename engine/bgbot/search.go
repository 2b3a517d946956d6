package bgbot

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Level is how a Bot judges positions.
type Level int

// The levels.
const (
	LevelRandom    Level = iota // uniform choice among legal moves; never doubles, always takes
	LevelHeuristic              // the hand-written Heuristic
	LevelNet                    // the neural network
)

var levelNames = [...]string{"random", "heuristic", "net"}

func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel reads "random", "heuristic" or "net".
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if strings.EqualFold(s, n) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("unknown level %q (want random, heuristic or net)", s)
}

// MaxPlies is the deepest search a Bot accepts.
const MaxPlies = 3

// Config configures a Bot.
type Config struct {
	Level Level
	// Plies is the search depth: 0 judges each legal move by one
	// evaluation of the position after it; N > 0 averages over the 21
	// rolls N plies deep, after move filters (see Filters) prune the
	// candidates at each shallower depth.
	Plies int
	// CubePlies is the least depth of the cube decisions: they are judged
	// max(Plies, CubePlies) deep. A cube decision comes once a turn, so a
	// bot can afford to judge it deeper than each of its moves.
	CubePlies int
	// Noise is the standard deviation, in equity, of the Gaussian noise
	// added to the score of each candidate move at the root (and to the
	// cube decision's equities), like gnubg's noise setting. 0 is none.
	Noise float64
	// DoubleMargin, MoneyDoubleMargin and PassMargin shift the cube
	// decisions, in equity normalised to the cube (in matches converted to
	// match winning chances at the score): the bot doubles only where
	// double beats no double by more than DoubleMargin in matches and
	// MoneyDoubleMargin in money play, and passes where double/take is
	// within PassMargin of double/pass for the doubler (a negative margin
	// takes more). 0, the default, is the model's own decision; a margin
	// offsets a bias of the probabilities near the doubling and take points.
	DoubleMargin, PassMargin float64
	MoneyDoubleMargin        float64
	// JanowskiOneWay judges a match cube that only one side can still use
	// (see OneWayCubeEfficiency) with the position's own Janowski x (the
	// rule until 2026-11-27) instead of as fully live.
	JanowskiOneWay bool
	// MoneyCubeEfficiency is the Janowski x of contact positions in money
	// play, 0 < x <= 1; 0 means MoneyContactCubeEfficiency (gnubg's
	// CubeEfficiency, 0.68, is what bgbot used until 2026-11-27).
	MoneyCubeEfficiency float64
	// CubeWeights are more networks for the cube decisions of a bot
	// judging them at 0 ply: the decision uses the mean of their
	// probabilities and the bot's own (outside exact bearoff positions),
	// to cut the evaluation noise that near the doubling and take points
	// turns into wrong decisions, at the cost of one evaluation a network a
	// decision. With one second network it cut the cube errors measured
	// offline by a quarter to a third; on its own it gained nothing
	// measurable against gnubg 0-ply in raw results (docs/bgbot.md, More
	// networks for the cube). The bgbot engine's default player uses it
	// together with MoveWeights.
	CubeWeights []*Weights
	// CubeAlone has 0-ply cube decisions judge positions by the mean of
	// CubeWeights' networks alone, leaving the bot's own network out: for
	// networks fitted to the doubling window (bgtrain supervise
	// --sample-window), which judge those positions better than a network
	// fitted to every position of play. It needs CubeWeights.
	CubeAlone bool
	// MoveWeights are more networks for the moves of a bot searching 0
	// ply: once the bot's network has scored every legal move, the
	// MoveKeep it scores best (within the first filter's margin) are
	// scored again by the mean of its probabilities and these networks'
	// (outside exact bearoff positions). A mean of networks trained apart
	// misjudges less than either, and its errors matter most among the
	// few moves a decision is between; re-scoring only those costs one
	// evaluation a network and kept move, not one a legal move. With
	// CubeWeights, one second network gained about 0.015 points a money
	// game against gnubg 0-ply, luck-adjusted (docs/bgbot.md, Second
	// opinions).
	MoveWeights []*Weights
	// MoveKeep is how many moves MoveWeights re-score (DefaultMoveKeep
	// when 0).
	MoveKeep int
	// CubefulMoves makes Move choose, as gnubg does, by the cubeful
	// equity the opponent faces on roll after each move, in place of
	// cubeless equity (money) or dead-cube match winning chances
	// (matches). With V11's networks it took 0.66 mEMG a decision off
	// the chequer error on the match move set and brought bgbot level
	// with gnubg 0-ply in gnubg's verdict (docs/bgbot.md, Cubeful chequer
	// play); the bgbot engine turns it on by default.
	CubefulMoves bool
	// CubelessClasses are the position classes (of the position before
	// the move) in which CubefulMoves is set aside and moves are chosen
	// by cubeless equity.
	CubelessClasses []int
	// RaceGammons replaces the network's gammon chances in a race where
	// a side with all 15 checkers on the board faces one whose count to
	// finish is known, by the chances that side's rolls to its first
	// checker off and the other's rolls to finish give: from the one-sided
	// bearoff database, and a short one-sided search for checkers still
	// outside the home board (racegammon.go). It needs a 15-checker
	// Bearoff (with gammon distributions); without one it does nothing.
	RaceGammons bool
	// Seed seeds the bot's random source (random moves and noise).
	Seed uint64
	// Weights for LevelNet; nil uses DefaultWeights.
	Weights *Weights
	// Filters are the move filters; the zero value means DefaultFilters.
	Filters [MaxPlies]Filter
	// Evaluator, when set, replaces the level's evaluator (LevelRandom
	// still chooses at random).
	Evaluator Evaluator
	// Bearoff, when set, answers races in which both sides are in its
	// database exactly, in place of the evaluator. NewBot builds one
	// (DefaultBearoffCheckers) for LevelNet when neither Bearoff nor
	// Evaluator is set and NoBearoff is false; share one between bots to
	// save the build time.
	Bearoff   *Bearoff
	NoBearoff bool
	// Bearoff2, when set, answers races in which both sides are in it
	// exactly (probabilities, and money cube decisions from its cubeful
	// equities), ahead of Bearoff. NewBot never builds one.
	Bearoff2 *Bearoff2
	// NoCache turns off the evaluation cache a searching net-level bot
	// keeps (for benchmarks and tests of the cache itself).
	NoCache bool
	// Pruner, when set, ranks the replies at each roll of a search 1 ply
	// or deeper, in positions with contact, and only the PruneKeep it
	// ranks best (DefaultPruneKeep when 0) are judged by the evaluator.
	// It is read only, so bots may share one. The root's candidates are
	// never pruned.
	Pruner    *Pruner
	PruneKeep int
	// RootKeep, when above 0 with a Pruner, prunes the root too: of the
	// legal moves in a position with contact only the RootKeep the pruner
	// ranks best are judged by the evaluator (and the move filters).
	RootKeep int
}

// DefaultMoveKeep is how many moves Config.MoveWeights re-score: on the
// gnubg-judged move set, keeping 2 gained nine tenths of what scoring
// every move with the mean gained, 3 all of it.
const DefaultMoveKeep = 3

// Filter is a gnubg-style move filter: after the candidates are scored at
// one depth, keep at most Keep of them, and only those within Margin
// equity of the best, for the next depth.
type Filter struct {
	Keep   int
	Margin float32
}

// DefaultFilters are the move filters applied after depth 0, 1, ... of a
// search, similar to gnubg's defaults: keep 8 within 0.16 after 0-ply, 3
// within 0.06 after 1-ply, 2 within 0.03 after 2-ply.
func DefaultFilters() [MaxPlies]Filter {
	return [MaxPlies]Filter{{Keep: 8, Margin: 0.16}, {Keep: 3, Margin: 0.06}, {Keep: 2, Margin: 0.03}}
}

// Bot chooses moves and cube actions. It is for one goroutine at a time.
type Bot struct {
	cfg      Config
	ev       Evaluator
	rng      *rand.Rand
	gens     [MaxPlies + 1]*backgammon.MoveGen
	rolls    [21]roll
	checkers int
	cands    []candidate
	met      *MET
	bearoff  *Bearoff
	bearoff2 *Bearoff2
	cache    *evalCache  // nil unless the bot owns a fixed network
	cubeEvs  []Evaluator // Config.CubeWeights' evaluators
	moveEvs  []Evaluator // Config.MoveWeights' evaluators
	race     *raceCounts // nil unless Config.RaceGammons and a 15-checker database
	pruneBuf *prunerScratch
	ranked   []rankedBoard
	idx      []int
}

// rankedBoard is a reply with the pruner's score, from the mover's view.
type rankedBoard struct {
	i     int
	score float32
}

type candidate struct {
	move  backgammon.Move
	board backgammon.Board // after the move, mover's view
	probs Probs
	score float32
}

// NewBot builds a bot from its configuration.
func NewBot(cfg Config) (*Bot, error) {
	if cfg.Plies < 0 || cfg.Plies > MaxPlies {
		return nil, fmt.Errorf("new bot: plies %d out of range 0..%d", cfg.Plies, MaxPlies)
	}
	if cfg.CubePlies < 0 || cfg.CubePlies > MaxPlies {
		return nil, fmt.Errorf("new bot: cube plies %d out of range 0..%d", cfg.CubePlies, MaxPlies)
	}
	if cfg.Noise < 0 || math.IsNaN(cfg.Noise) || math.IsInf(cfg.Noise, 0) {
		return nil, fmt.Errorf("new bot: noise %v must be a finite number >= 0", cfg.Noise)
	}
	if x := cfg.MoneyCubeEfficiency; !(x >= 0 && x <= 1) {
		return nil, fmt.Errorf("new bot: money cube efficiency %v must be within 0..1", x)
	}
	for _, m := range []float64{cfg.DoubleMargin, cfg.PassMargin, cfg.MoneyDoubleMargin} {
		if math.IsNaN(m) || math.IsInf(m, 0) || math.Abs(m) > 1 {
			return nil, fmt.Errorf("new bot: cube margin %v must be within -1..1", m)
		}
	}
	b := &Bot{
		cfg:      cfg,
		rng:      rand.New(rand.NewPCG(cfg.Seed, 0x6267626f74)),
		rolls:    allRolls(),
		checkers: 15,
		ev:       cfg.Evaluator,
		bearoff:  cfg.Bearoff,
		bearoff2: cfg.Bearoff2,
	}
	if cfg.PruneKeep < 0 {
		return nil, fmt.Errorf("new bot: prune keep %d", cfg.PruneKeep)
	}
	if cfg.PruneKeep == 0 {
		b.cfg.PruneKeep = DefaultPruneKeep
	}
	if cfg.Pruner != nil {
		b.pruneBuf = cfg.Pruner.scratch()
	}
	if cfg.Filters == ([MaxPlies]Filter{}) {
		b.cfg.Filters = DefaultFilters()
	}
	for i, f := range b.cfg.Filters {
		if f.Keep < 1 || f.Margin < 0 {
			return nil, fmt.Errorf("new bot: filter %d keeps %d within %v", i, f.Keep, f.Margin)
		}
	}
	if cfg.NoBearoff {
		b.bearoff = nil
	} else if b.bearoff == nil && cfg.Evaluator == nil && cfg.Level == LevelNet {
		db, err := NewBearoff(DefaultBearoffCheckers)
		if err != nil {
			return nil, fmt.Errorf("new bot: %w", err)
		}
		b.bearoff = db
	}
	if cfg.RaceGammons && b.bearoff != nil && b.bearoff.first != nil {
		b.race = newRaceCounts(b.bearoff)
	}
	for i := range b.gens {
		b.gens[i] = backgammon.NewMoveGen()
	}
	if cfg.CubeAlone && len(cfg.CubeWeights) == 0 {
		return nil, fmt.Errorf("new bot: cube decisions by the cube networks alone, but no cube networks given")
	}
	for i, w := range cfg.CubeWeights {
		if w == nil {
			return nil, fmt.Errorf("new bot: cube weights %d missing", i)
		}
		b.cubeEvs = append(b.cubeEvs, w.NewEvaluator())
	}
	for i, w := range cfg.MoveWeights {
		if w == nil {
			return nil, fmt.Errorf("new bot: move weights %d missing", i)
		}
		b.moveEvs = append(b.moveEvs, w.NewEvaluator())
	}
	if cfg.MoveKeep < 0 {
		return nil, fmt.Errorf("new bot: move keep %d", cfg.MoveKeep)
	}
	if cfg.MoveKeep == 0 {
		b.cfg.MoveKeep = DefaultMoveKeep
	}
	if b.ev == nil {
		switch cfg.Level {
		case LevelRandom, LevelHeuristic:
			b.ev = NewHeuristic()
		case LevelNet:
			w := cfg.Weights
			if w == nil {
				var err error
				if w, err = DefaultWeights(); err != nil {
					return nil, fmt.Errorf("new bot: %w", err)
				}
			}
			b.ev = w.NewEvaluator()
			if !cfg.NoCache && max(cfg.Plies, cfg.CubePlies) > 0 { // a 0-ply bot rarely meets a position twice
				b.cache = newEvalCache()
			}
		default:
			return nil, fmt.Errorf("new bot: unknown level %d", int(cfg.Level))
		}
	}
	return b, nil
}

// Config returns the bot's configuration.
func (bt *Bot) Config() Config { return bt.cfg }

// SetVariant tells the bot how many checkers each side has (15 unless the
// variant is a hypergammon).
func (bt *Bot) SetVariant(v backgammon.Variant) { bt.checkers = v.Checkers() }

// ChooseMove picks a move for the player on roll of board with dice d1, d2
// for cubeless money play. It returns the move, its probabilities from the
// mover's view at the bot's depth (zero for the random level) and false
// when no checker can move (the move is then empty, its probabilities
// those of the unchanged position).
func (bt *Bot) ChooseMove(board backgammon.Board, d1, d2 int) (backgammon.Move, Probs, bool) {
	return bt.choose(board, d1, d2, cubelessEquity, 1)
}

// cubelessEquity is ChooseMove's objective.
func cubelessEquity(_ *backgammon.Board, p Probs) float32 { return p.Equity() }

// choose is ChooseMove with the root objective obj of a candidate's board
// (mover's view) and probabilities (higher is better for the mover), whose
// units are noiseScale times those of equity. Deeper plies always use
// cubeless equity.
func (bt *Bot) choose(board backgammon.Board, d1, d2 int, obj func(*backgammon.Board, Probs) float32, noiseScale float32) (backgammon.Move, Probs, bool) {
	moves, boards := bt.gens[0].Generate(board, d1, d2)
	random := bt.cfg.Level == LevelRandom && bt.cfg.Evaluator == nil
	if len(moves) == 1 && moves[0].N == 0 {
		var p Probs
		if !random {
			p = bt.after(&boards[0], 0)
		}
		return moves[0], p, false
	}
	if random {
		i := bt.rng.IntN(len(moves))
		return moves[i], Probs{}, true
	}
	c := bt.cands[:0]
	rootKeep := 0
	if bt.cfg.Pruner != nil && Contact(&board) {
		rootKeep = bt.cfg.RootKeep
	}
	for _, i := range bt.replies(boards, rootKeep) {
		c = append(c, candidate{move: moves[i], board: boards[i]})
	}
	bt.cands = c
	for i := range c {
		c[i].probs = bt.after(&c[i].board, 0)
		c[i].score = obj(&c[i].board, c[i].probs) + noiseScale*bt.noise()
	}
	if bt.cfg.Plies == 0 && len(bt.moveEvs) > 0 && len(c) > 1 {
		c = prune(c, Filter{Keep: bt.cfg.MoveKeep, Margin: bt.cfg.Filters[0].Margin})
		for i := range c {
			c[i].probs = bt.meanProbs(c[i].board.Swap(), c[i].probs.Invert(), bt.moveEvs).Invert()
			c[i].score = obj(&c[i].board, c[i].probs) + noiseScale*bt.noise()
		}
	}
	for ply := 1; ply <= bt.cfg.Plies && len(c) > 1; ply++ {
		c = prune(c, bt.cfg.Filters[ply-1])
		for i := range c {
			c[i].probs = bt.after(&c[i].board, ply)
			c[i].score = obj(&c[i].board, c[i].probs) + noiseScale*bt.noise()
		}
	}
	best := 0
	for i := range c {
		if c[i].score > c[best].score {
			best = i
		}
	}
	return c[best].move, c[best].probs, true
}

// prune keeps the candidates the filter allows, best first: at most
// f.Keep of the best scores, those within f.Margin of the best, in the
// order a stable sort by score puts them (equal scores in their order in
// c). It gathers the best f.Keep into c's front in one pass instead of
// sorting all of c; the rest of c is left in no particular order.
func prune(c []candidate, f Filter) []candidate {
	k := min(f.Keep, len(c))
	for i := range c {
		top := min(i, k) // c[:top] holds the best of c[:i], best first
		if top == k && !(c[i].score > c[k-1].score) {
			continue
		}
		x := c[i]
		j := top
		if top == k {
			j = k - 1
			c[i] = c[j] // the one pushed out of the best k
		}
		for ; j > 0 && x.score > c[j-1].score; j-- {
			c[j] = c[j-1]
		}
		c[j] = x
	}
	n := 1
	for n < k && c[n].score >= c[0].score-f.Margin {
		n++
	}
	return c[:n]
}

func (bt *Bot) noise() float32 {
	if bt.cfg.Noise == 0 {
		return 0
	}
	return float32(bt.rng.NormFloat64() * bt.cfg.Noise)
}

// after judges the position after a move (mover's view) plies deep, from
// the mover's view.
func (bt *Bot) after(b *backgammon.Board, plies int) Probs {
	if p, over := Outcome(b, bt.checkers); over {
		return p
	}
	return bt.evalPly(b.Swap(), plies).Invert()
}

// evalPly judges a position before the roll for the player on roll, plies
// deep: at 0 the evaluator itself; deeper, the average over the 21 rolls of
// the best move by 0-ply cubeless equity, judged plies-1 deep.
func (bt *Bot) evalPly(b backgammon.Board, plies int) Probs {
	if plies == 0 {
		if p, ok := bt.exactProbs(&b); ok {
			return p
		}
		var p Probs
		if bt.cache != nil {
			p = bt.cache.evaluate(bt.ev, &b)
		} else {
			p = bt.ev.Evaluate(b)
		}
		return bt.race.raceGammons(&b, p)
	}
	g := bt.gens[plies]
	keep := 0
	if bt.cfg.Pruner != nil && Contact(&b) {
		keep = bt.cfg.PruneKeep
	}
	var sum Probs
	for _, r := range bt.rolls {
		_, boards := g.Generate(b, int(r.d1), int(r.d2))
		bi := 0
		var bp Probs
		bestEq := float32(math.Inf(-1))
		for _, i := range bt.replies(boards, keep) {
			p := bt.after(&boards[i], 0)
			if e := p.Equity(); e > bestEq {
				bestEq, bp, bi = e, p, i
			}
		}
		if plies > 1 {
			bp = bt.after(&boards[bi], plies-1)
		}
		w := float32(r.w)
		for k := range sum {
			sum[k] += w * bp[k]
		}
	}
	for k := range sum {
		sum[k] /= 36
	}
	return sum
}

// replies returns the indexes of the boards (after a move, mover's view)
// that the evaluator judges: all of them when keep is 0 or they are no
// more than keep, else the keep the pruner ranks best (a finished game
// first).
func (bt *Bot) replies(boards []backgammon.Board, keep int) []int {
	idx := bt.idx[:0]
	if keep == 0 || len(boards) <= keep {
		for i := range boards {
			idx = append(idx, i)
		}
		bt.idx = idx
		return idx
	}
	r := bt.ranked[:0]
	for i := range boards {
		var score float32
		if p, over := Outcome(&boards[i], bt.checkers); over {
			score = 4 + p.Equity() // ahead of anything a network says
		} else {
			opp := boards[i].Swap()
			score = -bt.cfg.Pruner.equity(&opp, bt.pruneBuf)
		}
		r = append(r, rankedBoard{i, score})
	}
	bt.ranked = r
	slices.SortFunc(r, func(a, b rankedBoard) int { return cmp.Compare(b.score, a.score) })
	for _, x := range r[:keep] {
		idx = append(idx, x.i)
	}
	bt.idx = idx
	return idx
}

// Probs judges a position before the roll for the player on roll at the
// bot's search depth. It is what the cube decisions and the evaluate
// command use.
func (bt *Bot) Probs(b backgammon.Board) Probs { return bt.probsAt(b, bt.cfg.Plies) }

// CubeProbs is Probs as a cube decision at the bot's search depth sees b:
// at 0 ply, with Config.CubeWeights' networks averaged in.
func (bt *Bot) CubeProbs(b backgammon.Board) Probs { return bt.cubeProbs(b, bt.cfg.Plies) }

// exactProbs returns the probabilities of b from a bearoff database, and
// whether one holds b.
func (bt *Bot) exactProbs(b *backgammon.Board) (Probs, bool) {
	if bt.checkers != 15 {
		return Probs{}, false
	}
	if bt.bearoff2 != nil {
		if p, ok := bt.bearoff2.Probs(b); ok {
			return p, true
		}
	}
	if bt.bearoff != nil && !Contact(b) {
		return bt.bearoff.Probs(b)
	}
	return Probs{}, false
}

// finished reports whether either side of b has borne off every checker.
func (bt *Bot) finished(b backgammon.Board) bool {
	_, over := Outcome(&b, bt.checkers)
	sw := b.Swap()
	_, swOver := Outcome(&sw, bt.checkers)
	return over || swOver
}

// cubeProbs judges b before the roll for a cube decision plies deep: at 0
// ply, the mean of the bot's evaluation and Config.CubeWeights' networks,
// or of those networks alone with Config.CubeAlone (where no bearoff
// database answers exactly).
func (bt *Bot) cubeProbs(b backgammon.Board, plies int) Probs {
	if plies == 0 && bt.cfg.CubeAlone {
		return bt.othersProbs(b, bt.cubeEvs)
	}
	p := bt.probsAt(b, plies)
	if plies > 0 {
		return p
	}
	return bt.meanProbs(b, p, bt.cubeEvs)
}

// othersProbs is the mean of the judgements of b by evs alone; the bot's
// own 0-ply judgement where the game is over or a bearoff database
// answers exactly.
func (bt *Bot) othersProbs(b backgammon.Board, evs []Evaluator) Probs {
	if bt.overOrExact(&b) {
		return bt.probsAt(b, 0)
	}
	return bt.averaged(b, Probs{}, evs, len(evs))
}

// meanProbs is the mean of p, the bot's 0-ply judgement of b (before the
// roll, for the player on roll), and the judgements of evs; p itself where
// the game is over or a bearoff database answers exactly.
func (bt *Bot) meanProbs(b backgammon.Board, p Probs, evs []Evaluator) Probs {
	if len(evs) == 0 || bt.overOrExact(&b) {
		return p
	}
	return bt.averaged(b, p, evs, 1+len(evs))
}

// overOrExact reports whether b's game is over or a bearoff database
// answers b exactly: positions no other network is asked about.
func (bt *Bot) overOrExact(b *backgammon.Board) bool {
	if bt.finished(*b) {
		return true
	}
	_, ok := bt.exactProbs(b)
	return ok
}

// averaged adds the judgements of b by evs to sum, divides by n, and
// counts race gammons.
func (bt *Bot) averaged(b backgammon.Board, sum Probs, evs []Evaluator, n int) Probs {
	for _, ev := range evs {
		q := ev.Evaluate(b)
		for k := range sum {
			sum[k] += q[k]
		}
	}
	for k := range sum {
		sum[k] /= float32(n)
	}
	return bt.race.raceGammons(&b, sum)
}

// probsAt is Probs at depth plies.
func (bt *Bot) probsAt(b backgammon.Board, plies int) Probs {
	if p, over := Outcome(&b, bt.checkers); over {
		return p
	}
	sw := b.Swap()
	if p, over := Outcome(&sw, bt.checkers); over {
		return p.Invert()
	}
	return bt.evalPly(b, plies)
}
