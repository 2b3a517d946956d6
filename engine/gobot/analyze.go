package gobot

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/gamemill/gamemill/engine/gogame"
)

// MoveInfo is what a search found about one move at the root.
type MoveInfo struct {
	Move    gogame.Move
	Visits  int
	WinRate float64 // for the mover, 0 to 1
	// LCB is a lower bound of the win rate: WinRate less 1.96 standard
	// errors of a binomial share, at least 0.
	LCB float64
	// Prior is the move's share of the tree's priors (patterns and
	// nearness to the last move), 0 to 1 over all moves.
	Prior float64
	PV    []gogame.Move // the principal variation, starting with Move
}

// Analysis is a search's view of the position, best move first.
type Analysis struct {
	ToPlay   Color
	Moves    []MoveInfo // by visits, most first; moves not yet visited are left out
	Playouts int
	// Ownership by point, row 1 first (gogame.At(x, y) is index y*size+x):
	// from 1 (Black owns it at the end of every playout) to -1 (White).
	Ownership []float64
}

// AnalysisPlayoutLimit returns the playouts after which an endless
// analysis stops searching (the tree would outgrow the memory): about
// 10 million points' worth of nodes, at least the engine's own effort.
func (e *Engine) AnalysisPlayoutLimit() int {
	return max(e.cfg.Playouts, 10_000_000/(e.size*e.size))
}

// Analyze searches the position with c to move without playing, and
// calls report with the analysis after every interval, until ctx ends
// (lz-analyze and kata-analyze stream it). Past AnalysisPlayoutLimit it
// stops searching and reports once more. The search tree stays for the
// next genmove.
func (e *Engine) Analyze(ctx context.Context, c Color, interval time.Duration, report func(Analysis) error) error {
	interval = max(interval, 10*time.Millisecond)
	limit := e.AnalysisPlayoutLimit()
	return e.analyse(ctx, c, func(s *searcher, round int) (bool, error) {
		s.run(ctx, e.cfg.Threads, limit, time.Now().Add(interval), e.searchSeed()+uint64(round))
		if ctx.Err() != nil {
			return false, nil
		}
		if err := report(e.summary(s)); err != nil {
			return false, err
		}
		if s.sims >= limit {
			<-ctx.Done()
			return false, nil
		}
		return true, nil
	})
}

// AnalyzeOnce searches the position with c to move for the engine's
// effort (its playouts, its time or the clock's share) without playing,
// and returns the analysis.
func (e *Engine) AnalyzeOnce(ctx context.Context, c Color) (Analysis, error) {
	var a Analysis
	err := e.analyse(ctx, c, func(s *searcher, _ int) (bool, error) {
		var deadline time.Time
		if b := e.moveBudget(c); b > 0 {
			deadline = time.Now().Add(b)
		}
		s.run(ctx, e.cfg.Threads, e.cfg.Playouts, deadline, e.searchSeed())
		a = e.summary(s)
		return false, ctx.Err()
	})
	return a, err
}

func (e *Engine) searchSeed() uint64 { return e.cfg.Seed ^ uint64(e.moves)*0x9e3779b97f4a7c15 }

// analyse sets up a search at the position with c to move and calls step
// until it returns false, leaving the game as it was.
func (e *Engine) analyse(ctx context.Context, c Color, step func(s *searcher, round int) (bool, error)) error {
	old := e.game
	defer func() { e.game = old }()
	if err := e.turnTo(c); err != nil {
		return err
	}
	pos := e.position()
	s := e.newSearcher(pos, c)
	s.rootPts = allPoints(pos)
	s.own = make([]float64, len(s.rootPts))
	var err error
	for round, more := 0, true; more && err == nil; round++ {
		more, err = step(s, round)
	}
	if e.game == old {
		e.tree, e.treeBase, e.treeTo = s.root, pos, c
	}
	return err
}

// summary reads the search's figures; no worker may be running.
func (e *Engine) summary(s *searcher) Analysis {
	a := Analysis{ToPlay: s.toPlay, Playouts: s.sims}
	priors := 0.0
	for _, ch := range s.root.children {
		priors += ch.pw / ch.pn
	}
	for _, ch := range s.root.children {
		if ch.n < 1 {
			continue
		}
		wr := ch.w / ch.n
		mi := MoveInfo{
			Move:    s.rootPos.move(ch.pt),
			Visits:  int(ch.n),
			WinRate: wr,
			LCB:     max(wr-1.96*math.Sqrt(wr*(1-wr)/ch.n), 0),
			Prior:   ch.pw / ch.pn / priors,
		}
		for nd := ch; nd != nil; nd = mostVisited(nd) {
			mi.PV = append(mi.PV, s.rootPos.move(nd.pt))
		}
		a.Moves = append(a.Moves, mi)
	}
	slices.SortStableFunc(a.Moves, func(x, y MoveInfo) int {
		if x.Visits != y.Visits {
			return y.Visits - x.Visits
		}
		switch {
		case x.WinRate > y.WinRate:
			return -1
		case x.WinRate < y.WinRate:
			return 1
		}
		return 0
	})
	size := int(s.rootPos.size)
	a.Ownership = make([]float64, size*size)
	if s.sims > 0 {
		for i, pt := range s.rootPts {
			x, y := s.rootPos.xy(pt)
			a.Ownership[y*size+x] = 2*s.own[i]/float64(s.sims) - 1
		}
	}
	return a
}

// mostVisited returns nd's child with the most visits, or nil when none
// has been visited.
func mostVisited(nd *node) *node {
	var best *node
	for _, ch := range nd.children {
		if ch.n >= 1 && (best == nil || ch.n > best.n) {
			best = ch
		}
	}
	return best
}
