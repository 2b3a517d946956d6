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

	timeLeft   time.Duration // from time_left; 0 when not given
	stonesLeft int
	mainTime   time.Duration // from time_settings
	byoTime    time.Duration
	byoStones  int

	lastWinRate float64
	lastSims    int
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

// Clear empties the board.
func (e *Engine) Clear() error {
	g, err := gogame.NewGame(gogame.Settings{Size: e.size, Komi: e.komi, Superko: true})
	if err != nil {
		return err
	}
	e.game, e.tree, e.moves = g, nil, 0
	return nil
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
func (e *Engine) Play(c Color, m gogame.Move) error {
	if e.game.Over() {
		// A move after two passes: GTP controllers may go on; start the
		// count of passes again.
		if err := e.replay(nil); err != nil {
			return err
		}
	}
	if e.game.ToPlay() != c {
		if err := e.replay(&gogame.Played{Color: c.Opponent(), Move: gogame.Pass}); err != nil {
			return err
		}
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
	g, err := gogame.NewGame(gogame.Settings{Size: e.size, Komi: e.komi, Superko: true})
	if err != nil {
		return err
	}
	if h := old.Handicap(); len(h) > 0 {
		if err := g.SetFreeHandicap(h); err != nil {
			return err
		}
	}
	moves := old.Moves()
	for old.Over() && len(moves) > 0 && moves[len(moves)-1].Move == gogame.Pass {
		moves = moves[:len(moves)-1]
	}
	for _, p := range moves {
		if err := g.Play(p.Color, p.Move); err != nil {
			return fmt.Errorf("replaying the game: %w", err)
		}
	}
	if extra != nil {
		if err := g.Play(extra.Color, extra.Move); err != nil {
			return err
		}
	}
	e.game, e.tree = g, nil
	return nil
}

// SetFixedHandicap places n handicap stones in GTP's layout.
func (e *Engine) SetFixedHandicap(n int) ([]gogame.Move, error) {
	ms, err := e.game.SetFixedHandicap(n)
	e.tree = nil
	return ms, err
}

// SetFreeHandicap places handicap stones where the controller says.
func (e *Engine) SetFreeHandicap(ms []gogame.Move) error {
	e.tree = nil
	return e.game.SetFreeHandicap(ms)
}

// SetTime records GTP time_settings.
func (e *Engine) SetTime(main, byo time.Duration, stones int) {
	e.mainTime, e.byoTime, e.byoStones = main, byo, stones
	e.timeLeft, e.stonesLeft = 0, 0
}

// SetTimeLeft records GTP time_left for the engine's colour.
func (e *Engine) SetTimeLeft(left time.Duration, stones int) {
	e.timeLeft, e.stonesLeft = left, stones
}

// moveBudget returns the time for the next move: --time, shortened to a
// share of what time_left says remains.
func (e *Engine) moveBudget() time.Duration {
	budget := e.cfg.Time
	var share time.Duration
	switch {
	case e.timeLeft > 0 && e.stonesLeft > 0: // byo-yomi: a share of the period
		share = e.timeLeft / time.Duration(e.stonesLeft) * 8 / 10
	case e.timeLeft > 0: // main time: spread over the moves likely left
		movesLeft := max(len(e.position().empty)/3, 15)
		share = e.timeLeft / time.Duration(movesLeft)
	case e.mainTime > 0 && e.timeLeft == 0 && e.moves == 0:
		share = e.mainTime / time.Duration(max(e.size*e.size/3, 15))
	}
	if share > 0 && (budget == 0 || share < budget) {
		budget = max(share, 50*time.Millisecond)
	}
	return budget
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
// remain on the board.
func (e *Engine) GenMove(ctx context.Context, c Color, cleanup bool) (Result, error) {
	if e.game.Over() {
		if err := e.replay(nil); err != nil {
			return Result{}, err
		}
	}
	if e.game.ToPlay() != c {
		if err := e.replay(&gogame.Played{Color: c.Opponent(), Move: gogame.Pass}); err != nil {
			return Result{}, err
		}
	}
	pos := e.position()
	var dead []gogame.Move
	if cleanup {
		dead = e.deadOf(ctx, c.Opponent())
		// Take the dead stones off: fill a liberty of the dead chain
		// with the fewest, where that is safe.
		if pt := attackDead(pos, c, dead); pt != 0 && e.game.Legal(c, pos.move(pt)) == nil {
			return e.finish(c, Result{Move: pos.move(pt), WinRate: e.lastWinRate})
		}
	}
	// The opponent passed and the count already wins: pass and win.
	if len(dead) == 0 && e.lastWasPass() && e.wins(c, float64(pos.areaScore())) {
		own := e.ownership(ctx, pos, c, 200)
		if e.wins(c, own.margin) {
			return e.finish(c, Result{Move: gogame.Pass, WinRate: 1})
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
	if b := e.moveBudget(); b > 0 {
		deadline = time.Now().Add(b)
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
		return e.finish(c, Result{Move: gogame.Pass, Playouts: s.sims})
	}
	wr := best.w / math.Max(best.n, 1)
	r := Result{Move: pos.move(best.pt), WinRate: wr, Playouts: s.sims}
	e.lastWinRate, e.lastSims = wr, s.sims
	if e.cfg.Resign > 0 && wr < e.cfg.Resign && s.sims >= 200 && e.game.MoveCount() > e.size*2 {
		r.Resign = true
		return r, nil
	}
	return e.finish(c, r)
}

func (e *Engine) finish(c Color, r Result) (Result, error) {
	if err := e.Play(c, r.Move); err != nil {
		return r, fmt.Errorf("gobot chose an illegal move: %w", err)
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

// Undo takes back the last move.
func (e *Engine) Undo() error {
	moves := e.game.Moves()
	if len(moves) == 0 {
		return fmt.Errorf("cannot undo: no moves")
	}
	old := e.game
	g, err := gogame.NewGame(gogame.Settings{Size: e.size, Komi: e.komi, Superko: true})
	if err != nil {
		return err
	}
	if h := old.Handicap(); len(h) > 0 {
		if err := g.SetFreeHandicap(h); err != nil {
			return err
		}
	}
	for _, p := range moves[:len(moves)-1] {
		if err := g.Play(p.Color, p.Move); err != nil {
			return fmt.Errorf("undo: replaying the game: %w", err)
		}
	}
	e.game, e.tree = g, nil
	e.moves--
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
