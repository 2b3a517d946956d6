// Package gobot is Gamemill's Go (weiqi) engine: Monte Carlo tree search
// (UCT with RAVE and priors) whose playouts are guided by 3x3 patterns
// and simple tactics, with tree priors from the larger patterns of its
// database (package pattern). cmd/gobot serves it over GTP.
package gobot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gamemill/gamemill/engine/gobot/pattern"
	"github.com/gamemill/gamemill/engine/gogame"
)

// Config is an engine's effort and knowledge.
type Config struct {
	// Playouts per move; with Threads 1 the same seed gives the same
	// moves. 0 means search by time only.
	Playouts int
	// Time per move; 0 with Playouts 0 means DefaultPlayouts. When both
	// are set the search stops at whichever comes first. GTP time_left
	// can shorten it.
	Time    time.Duration
	Threads int
	Seed    uint64
	// Patterns is the pattern database; nil plays without one (the
	// ablation: no 3x3 patterns in the playouts, no pattern priors).
	Patterns *pattern.DB
	// Resign below this win rate (0 never resigns).
	Resign float64
}

// DefaultPlayouts is the effort when neither playouts nor time is given.
const DefaultPlayouts = 1000

// ErrResign is returned by GenMove when the engine resigns.
var ErrResign = errors.New("resign")

// Engine is a game in progress as the engine sees it, and its search
// tree. It is for one goroutine at a time.
type Engine struct {
	cfg  Config
	pol  *policy
	game *gogame.Game
	komi float64
	size int

	tree     *node  // the last search's tree, kept for reuse
	treeBase *board // the position at tree's root
	treeTo   Color  // who moves at tree's root
	moves    int    // moves played, to reseed each search

	start   setup             // the stones before the first move
	history [][]gogame.Played // the moves before each play or genmove, for undo

	clock     [3]clock         // by colour, from time_left
	timeSet   bool             // time_settings was given
	spent     [3]time.Duration // by colour, on genmove since time_settings
	mainTime  time.Duration    // from time_settings
	budget    time.Duration    // the last genmove's time budget (0: none)
	overshoot time.Duration    // average time a move took beyond its budget
	byoTime   time.Duration
	byoStones int

	lastWinRate float64
	lastSims    int
}

// setup is how a game starts: stones on the empty board and who moves
// first. A handicap is black stones with White to move, kept as one so
// that the rules know it.
type setup struct {
	black, white []gogame.Move
	toPlay       Color // Empty: Black, with no stones
	handicap     bool
}

// clock is what time_left said for one colour; stones 0 is main time.
type clock struct {
	left   time.Duration
	stones int
	set    bool
}

// New returns an engine on an empty 19x19 board, komi 7.5.
func New(cfg Config) (*Engine, error) {
	if cfg.Threads < 1 {
		cfg.Threads = 1
	}
	if cfg.Playouts < 0 || cfg.Time < 0 {
		return nil, fmt.Errorf("gobot: negative effort (playouts %d, time %v)", cfg.Playouts, cfg.Time)
	}
	if cfg.Playouts == 0 && cfg.Time == 0 {
		cfg.Playouts = DefaultPlayouts
	}
	e := &Engine{cfg: cfg, pol: newPolicy(cfg.Patterns), komi: 7.5}
	if err := e.SetSize(19); err != nil {
		return nil, err
	}
	return e, nil
}

// SetSize sets the board size and clears the board.
func (e *Engine) SetSize(n int) error {
	if n < 5 || n > gogame.MaxSize {
		return fmt.Errorf("board size %d: gobot plays 5 to %d", n, gogame.MaxSize)
	}
	e.size = n
	return e.Clear()
}

// Size returns the board size.
func (e *Engine) Size() int { return e.size }

// Clear empties the board for a new game: the clocks start again from
// time_settings.
func (e *Engine) Clear() error {
	e.spent, e.clock, e.overshoot = [3]time.Duration{}, [3]clock{}, 0
	return e.restart(setup{})
}

// restart starts a new game from st: no moves, nothing to undo.
func (e *Engine) restart(st setup) error {
	g, err := e.newGame(st)
	if err != nil {
		return err
	}
	e.game, e.tree, e.moves, e.start, e.history = g, nil, 0, st, nil
	return nil
}

// newGame returns a game at st, before any move.
func (e *Engine) newGame(st setup) (*gogame.Game, error) {
	g, err := gogame.NewGame(gogame.Settings{Size: e.size, Komi: e.komi, Superko: true})
	if err != nil {
		return nil, err
	}
	switch {
	case st.handicap:
		err = g.SetFreeHandicap(st.black)
	case len(st.black)+len(st.white) > 0 || (st.toPlay != empty && st.toPlay != black):
		err = g.Setup(st.black, st.white, st.toPlay)
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

// rebuild returns the game from the start position with moves played.
func (e *Engine) rebuild(moves []gogame.Played) (*gogame.Game, error) {
	g, err := e.newGame(e.start)
	if err != nil {
		return nil, err
	}
	for i, p := range moves {
		if err := g.Play(p.Color, p.Move); err != nil {
			return nil, fmt.Errorf("replaying move %d of the game: %w", i+1, err)
		}
	}
	return g, nil
}

// SetKomi sets the komi for the rest of the game.
func (e *Engine) SetKomi(k float64) error {
	if math.IsNaN(k) || math.IsInf(k, 0) {
		return fmt.Errorf("komi %v: want a finite number", k)
	}
	e.komi = k
	return nil
}

// Game returns the game so far.
func (e *Engine) Game() *gogame.Game { return e.game }

// Play plays a move for c, checked by the rules (positional superko
// included). Either colour may move: GTP lets the controller play both.
// A failed move changes nothing; Undo takes back a move played.
func (e *Engine) Play(c Color, m gogame.Move) error {
	old, before := e.game, e.game.Moves()
	if err := e.play(c, m); err != nil {
		e.game = old
		return err
	}
	e.history = append(e.history, before)
	return nil
}

// turnTo makes it c's turn: after two passes it replays the game without
// them (GTP controllers may go on; the count of passes starts again), and
// out of turn it adds a pass for the other side. On failure e.game may be
// a new game with such a pass; the caller restores the old one.
func (e *Engine) turnTo(c Color) error {
	if e.game.Over() {
		if err := e.replay(nil); err != nil {
			return err
		}
	}
	if e.game.ToPlay() != c {
		if err := e.replay(&gogame.Played{Color: c.Opponent(), Move: gogame.Pass}); err != nil {
			return err
		}
	}
	return nil
}

// play plays m for c: out of turn as if the other side had passed, after
// two passes as if they had not ended the game. On failure e.game may be
// a new game with such a pass; the caller restores the old one.
func (e *Engine) play(c Color, m gogame.Move) error {
	if err := e.turnTo(c); err != nil {
		return err
	}
	if err := e.game.Play(c, m); err != nil {
		return err
	}
	e.moves++
	e.advanceTree(c, m)
	return nil
}

// replay rebuilds the game with its moves, less the passes that ended
// it (so that play can go on after them, as in a cleanup phase), and then
// extra if not nil: for controllers that play out of turn.
func (e *Engine) replay(extra *gogame.Played) error {
	old := e.game
	moves := old.Moves()
	for old.Over() && len(moves) > 0 && moves[len(moves)-1].Move == gogame.Pass {
		moves = moves[:len(moves)-1]
	}
	g, err := e.rebuild(moves)
	if err != nil {
		return err
	}
	if extra != nil {
		if err := g.Play(extra.Color, extra.Move); err != nil {
			return err
		}
	}
	e.game, e.tree = g, nil
	return nil
}

// SetFixedHandicap places n handicap stones in GTP's layout on the empty
// board.
func (e *Engine) SetFixedHandicap(n int) ([]gogame.Move, error) {
	ms, err := gogame.FixedHandicap(e.size, n)
	if err != nil {
		return nil, err
	}
	return ms, e.SetFreeHandicap(ms)
}

// SetFreeHandicap places handicap stones where the controller says, on
// the empty board.
func (e *Engine) SetFreeHandicap(ms []gogame.Move) error {
	if e.game.MoveCount() > 0 || !e.emptyBoard() {
		return fmt.Errorf("handicap: the board is not empty")
	}
	if err := gogame.CheckFreeHandicap(e.size, ms); err != nil {
		return err
	}
	return e.restart(setup{black: slices.Clone(ms), toPlay: white, handicap: true})
}

func (e *Engine) emptyBoard() bool {
	b := e.game.Board()
	return len(b.Stones(black))+len(b.Stones(white)) == 0
}

// SetTime records GTP time_settings: main time, then byo-yomi of byo for
// stones moves (Canadian; 1 stone is Japanese byo-yomi with one period).
// byo 0 means sudden death; main 0 with byo 0 and stones 0 means no
// limit.
func (e *Engine) SetTime(main, byo time.Duration, stones int) {
	e.mainTime, e.byoTime, e.byoStones = main, byo, stones
	e.timeSet, e.clock, e.spent = true, [3]clock{}, [3]time.Duration{}
}

// SetTimeLeft records GTP time_left for colour c: the time left in the
// current period and the stones to play in it (0 in main time).
func (e *Engine) SetTimeLeft(c Color, left time.Duration, stones int) {
	e.clock[c] = clock{left: left, stones: stones, set: true}
}

// lag is kept back from every move's share of the clock for the answer
// to reach the controller and the search to wind down.
const lag = 50 * time.Millisecond

// moveBudget returns the time for c's next move: --time, shortened to a
// share of what the clock leaves (0: no limit of time).
func (e *Engine) moveBudget(c Color) time.Duration {
	budget := e.cfg.Time
	if share, ok := e.clockShare(c); ok && (budget == 0 || share < budget) {
		budget = share
	}
	return budget
}

// clockShare returns the share of c's clock for one move, or false when
// there is no clock. In overtime it is 70% of the period's time over its
// stones; in main time with overtime to follow, the time left over
// max(15, empty points / 3) moves plus half an overtime move's share
// (what the main time lacks the period makes up); in sudden death, the
// time left over max(20, empty points / 2) moves. Less the lag and what
// moves have lately taken beyond their budget.
func (e *Engine) clockShare(c Color) (time.Duration, bool) {
	left, stones, ok := e.timeLeft(c)
	if !ok {
		return 0, false
	}
	var share time.Duration
	if stones > 0 {
		share = left * 7 / 10 / time.Duration(stones)
	} else {
		b := e.game.Board()
		empty := e.size*e.size - len(b.Stones(black)) - len(b.Stones(white))
		if e.byoTime > 0 && e.byoStones > 0 {
			share = left/time.Duration(max(empty/3, 15)) + e.byoTime*7/10/time.Duration(e.byoStones)/2
		} else {
			// Sudden death: nothing comes after, so plan for more moves.
			share = left / time.Duration(max(empty/2, 20))
		}
	}
	return max(share-lag-e.overshoot, 5*time.Millisecond), true
}

// timeLeft returns what c's clock holds: time_left's figures, else
// time_settings less the time gobot has spent on its moves. It is false
// with no clock: neither command, or time_settings' "no limit".
func (e *Engine) timeLeft(c Color) (left time.Duration, stones int, ok bool) {
	if e.timeSet && (e.byoTime > 0 && e.byoStones == 0 || e.mainTime == 0 && e.byoTime == 0) {
		return 0, 0, false
	}
	ck := e.clock[c]
	switch {
	case ck.set:
		left, stones = ck.left, ck.stones
	case e.timeSet:
		left = e.mainTime - e.spent[c]
	default:
		return 0, 0, false
	}
	if stones == 0 && left <= 0 && e.byoTime > 0 {
		// Main time is over: a new period starts.
		left, stones = e.byoTime, e.byoStones
	}
	return max(left, 0), stones, true
}

// position returns the board of the game.
func (e *Engine) position() *board {
	b, _ := newBoard(e.size)
	g := e.game.Board()
	for y := 0; y < e.size; y++ {
		for x := 0; x < e.size; x++ {
			if c := g.At(gogame.At(x, y)); c != gogame.Empty {
				b.place(c, b.pt(gogame.At(x, y)))
			}
		}
	}
	if m := e.game.Moves(); len(m) > 0 {
		b.last = b.pt(m[len(m)-1].Move)
		if len(m) > 1 {
			b.last2 = b.pt(m[len(m)-2].Move)
		}
	}
	pos := e.game.Position()
	if k := pos.Ko(e.game.ToPlay()); k != gogame.Pass {
		b.ko, b.koColor = b.pt(k), e.game.ToPlay()
	}
	return b
}

func (e *Engine) lastWasPass() bool {
	m := e.game.Moves()
	return len(m) > 0 && m[len(m)-1].Move == gogame.Pass
}

// advanceTree keeps the subtree under the move just played, if the tree
// has it.
func (e *Engine) advanceTree(c Color, m gogame.Move) {
	if e.tree == nil || e.treeTo != c {
		e.tree = nil
		return
	}
	pt := e.treeBase.pt(m)
	var next *node
	for _, ch := range e.tree.children {
		if ch.pt == pt {
			next = ch
		}
	}
	e.tree = nil
	if next != nil && next.expanded {
		e.tree = next
		e.treeTo = c.Opponent()
		e.treeBase = e.position()
		return
	}
}

// Result is what GenMove decided, with the search's figures.
type Result struct {
	Move     gogame.Move
	Resign   bool
	WinRate  float64 // of the chosen move, for the mover
	Playouts int
}

// GenMove chooses a move for c and plays it. With cleanup (GTP's
// kgs-genmove_cleanup) it does not pass while stones it judges dead
// remain on the board. The time it takes counts on c's clock.
func (e *Engine) GenMove(ctx context.Context, c Color, cleanup bool) (Result, error) {
	old, before := e.game, e.game.Moves()
	start := time.Now()
	e.budget = 0
	r, err := e.choose(ctx, c, cleanup)
	took := time.Since(start)
	e.spent[c] += took
	if e.budget > 0 {
		// What a move takes beyond its budget (setting up the search,
		// the simulation in flight) is kept back from later budgets.
		e.overshoot = (3*e.overshoot + max(took-e.budget, 0)) / 4
	}
	if err != nil || r.Resign {
		e.game = old
		return r, err
	}
	if err := e.play(c, r.Move); err != nil {
		e.game = old
		return r, fmt.Errorf("gobot chose an illegal move: %w", err)
	}
	e.history = append(e.history, before)
	return r, nil
}

// RegGenMove chooses a move for c as GenMove does, without playing it
// (GTP's reg_genmove).
func (e *Engine) RegGenMove(ctx context.Context, c Color) (Result, error) {
	old := e.game
	r, err := e.choose(ctx, c, false)
	e.game = old
	return r, err
}

// choose searches for c's move. It may replace e.game by the game with a
// pass for the other side (a move out of turn) or without the passes that
// ended it; the caller restores or keeps it.
func (e *Engine) choose(ctx context.Context, c Color, cleanup bool) (Result, error) {
	if err := e.turnTo(c); err != nil {
		return Result{}, err
	}
	pos := e.position()
	var dead []gogame.Move
	if cleanup {
		dead = e.deadOf(ctx, c.Opponent())
		// Take the dead stones off: fill a liberty of the dead chain
		// with the fewest, where that is safe.
		if pt := attackDead(pos, c, dead); pt != 0 && e.game.Legal(c, pos.move(pt)) == nil {
			return Result{Move: pos.move(pt), WinRate: e.lastWinRate}, nil
		}
	}
	// The opponent passed and the count already wins: pass and win.
	if len(dead) == 0 && e.lastWasPass() && e.wins(c, float64(pos.areaScore())) {
		own := e.ownership(ctx, pos, c, 200)
		if e.wins(c, own.margin) {
			return Result{Move: gogame.Pass, WinRate: 1}, nil
		}
	}
	s := e.newSearcher(pos, c)
	if len(dead) > 0 {
		// Capture them first: no pass at the root, the reused one too.
		s.noPass = true
		kept := s.root.children[:0]
		for _, ch := range s.root.children {
			if ch.pt != 0 {
				kept = append(kept, ch)
			}
		}
		s.root.children = kept
	}
	n := e.cfg.Playouts
	var deadline time.Time
	if b := e.moveBudget(c); b > 0 {
		deadline = time.Now().Add(b)
		e.budget = b
	}
	s.run(ctx, e.cfg.Threads, n, deadline, e.cfg.Seed^uint64(e.moves)*0x9e3779b97f4a7c15)
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	e.tree, e.treeBase, e.treeTo = s.root, pos, c
	var best *node
	for _, ch := range s.root.children {
		if best == nil || ch.n > best.n || (ch.n == best.n && ch.value() > best.value()) {
			best = ch
		}
	}
	if best == nil {
		return Result{Move: gogame.Pass, Playouts: s.sims}, nil
	}
	wr := best.w / math.Max(best.n, 1)
	r := Result{Move: pos.move(best.pt), WinRate: wr, Playouts: s.sims}
	e.lastWinRate, e.lastSims = wr, s.sims
	if e.cfg.Resign > 0 && wr < e.cfg.Resign && s.sims >= 200 && e.game.MoveCount() > e.size*2 {
		r.Resign = true
		return r, nil
	}
	return r, nil
}

func (e *Engine) wins(c Color, blackMargin float64) bool {
	m := blackMargin - e.komi
	if c == black {
		return m > 0
	}
	return m < 0
}

// newSearcher sets up a search from pos with c to move, reusing the
// tree when it is at this position.
func (e *Engine) newSearcher(pos *board, c Color) *searcher {
	s := &searcher{rootPos: pos, toPlay: c, komi: e.komi, db: e.cfg.Patterns, pol: e.pol}
	if e.lastWasPass() {
		s.rootPasses = 1
	}
	s.allow = func(pt int32) bool { return e.game.Legal(c, pos.move(pt)) == nil }
	root := e.tree
	if root == nil || e.treeTo != c || !sameStones(e.treeBase, pos) {
		root = &node{color: c.Opponent()}
	} else {
		// Children made deeper in the tree were not checked for
		// superko; check them now.
		kept := root.children[:0]
		for _, ch := range root.children {
			if ch.pt == 0 || s.allow(ch.pt) {
				kept = append(kept, ch)
			}
		}
		root.children = kept
	}
	s.root = root
	return s
}

func sameStones(a, b *board) bool {
	if a == nil || a.size != b.size || a.ko != b.ko {
		return false
	}
	for i := range a.color {
		if a.color[i] != b.color[i] {
			return false
		}
	}
	return true
}

// owned is an ownership estimate: by point, the share of playouts in
// which Black owned it, and the expected area margin for Black.
type owned struct {
	black  []float64 // by padded index
	margin float64
}

// ownership runs n playouts from pos with c to move and counts who owns
// each point at the end.
func (e *Engine) ownership(ctx context.Context, pos *board, c Color, n int) owned {
	w := &worker{b: &board{}, rng: newRand(e.cfg.Seed, uint64(e.moves)+7), pol: e.pol}
	o := owned{black: make([]float64, len(pos.color))}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		w.b.copyFrom(pos)
		w.playout(c, nil)
		for _, pt := range allPoints(pos) {
			if w.b.owner(pt) == black {
				o.black[pt]++
			}
		}
	}
	for _, pt := range allPoints(pos) {
		o.black[pt] /= float64(n)
		if o.black[pt] > 0.5 {
			o.margin++
		} else if o.black[pt] < 0.5 {
			o.margin--
		}
	}
	return o
}

func allPoints(b *board) []int32 {
	pts := make([]int32, 0, b.size*b.size)
	for y := int32(1); y <= b.size; y++ {
		for x := int32(1); x <= b.size; x++ {
			pts = append(pts, y*b.stride+x)
		}
	}
	return pts
}

// Dead returns the stones the engine judges dead: those whose point the
// other colour owns at the end of most playouts.
func (e *Engine) Dead(ctx context.Context) []gogame.Move {
	pos := e.position()
	o := e.ownership(ctx, pos, e.game.ToPlay(), e.scoringPlayouts())
	var dead []gogame.Move
	for _, pt := range allPoints(pos) {
		switch pos.color[pt] {
		case black:
			if o.black[pt] < 0.5 {
				dead = append(dead, pos.move(pt))
			}
		case white:
			if o.black[pt] > 0.5 {
				dead = append(dead, pos.move(pt))
			}
		}
	}
	return dead
}

// FinalScore counts the area with the stones Dead names removed: each
// point to whoever owns it in most playouts.
func (e *Engine) FinalScore(ctx context.Context) gogame.Score {
	pos := e.position()
	o := e.ownership(ctx, pos, e.game.ToPlay(), e.scoringPlayouts())
	s := gogame.Score{Komi: e.komi}
	for _, pt := range allPoints(pos) {
		switch {
		case o.black[pt] > 0.5:
			s.Black++
		case o.black[pt] < 0.5:
			s.White++
		}
	}
	return s
}

func (e *Engine) scoringPlayouts() int { return 1000 }

// Undo takes back the last play or genmove, with the pass that a move out
// of turn implied; captures and ko come back as they were.
func (e *Engine) Undo() error {
	if len(e.history) == 0 {
		return fmt.Errorf("cannot undo")
	}
	moves := e.history[len(e.history)-1]
	g, err := e.rebuild(moves)
	if err != nil {
		return fmt.Errorf("undo: %w", err)
	}
	e.game, e.tree, e.moves = g, nil, len(moves)
	e.history = e.history[:len(e.history)-1]
	return nil
}

// deadOf returns the stones of colour c that the ownership counts dead.
func (e *Engine) deadOf(ctx context.Context, c Color) []gogame.Move {
	var out []gogame.Move
	for _, m := range e.Dead(ctx) {
		if e.game.Board().At(m) == c {
			out = append(out, m)
		}
	}
	return out
}

// attackDead returns a liberty of the dead chain with the fewest
// liberties that c can fill without going into atari (or by capturing),
// or 0.
func attackDead(pos *board, c Color, dead []gogame.Move) int32 {
	best, bestLibs := int32(0), 1<<30
	for _, m := range dead {
		h := pos.chain[pos.pt(m)]
		libs := pos.chainLibs(h, 1<<30, nil)
		if len(libs) >= bestLibs {
			continue
		}
		for _, l := range libs {
			if pos.legal(c, l) && (len(libs) == 1 || pos.libsAfter(c, l, 2) >= 2) {
				best, bestLibs = l, len(libs)
				break
			}
		}
	}
	return best
}
