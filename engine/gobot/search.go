package gobot

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gamemill/gamemill/engine/gobot/pattern"
)

// node is a position in the tree, reached by color playing pt (0: a
// pass). Its statistics are from color's point of view.
type node struct {
	pt       int32
	color    Color
	children []*node
	n, w     float64 // visits and wins
	an, aw   float64 // AMAF (all moves as first) visits and wins
	pn, pw   float64 // prior visits and wins
	expanded bool
}

// Search constants.
const (
	expandAt  = 2      // visits before a node grows children
	raveEquiv = 3500.0 // visits at which the AMAF and the real value weigh alike
	evenPrior = 10     // virtual visits at 50% for every move
)

// value is the node's urgency for its mover: its win rate blended with
// AMAF (Gelly and Silver's MC-RAVE), both starting from the prior.
func (nd *node) value() float64 {
	q := (nd.w + nd.pw) / (nd.n + nd.pn)
	if nd.an == 0 {
		return q
	}
	r := (nd.aw + nd.pw) / (nd.an + nd.pn)
	beta := nd.an / (nd.an + nd.n + nd.n*nd.an/raveEquiv)
	return (1-beta)*q + beta*r
}

// searcher is one search: a tree over a root position, and the workers
// that run simulations on it.
type searcher struct {
	mu      sync.Mutex
	root    *node
	rootPos *board
	toPlay  Color
	komi    float64
	db      *pattern.DB
	pol     *policy
	allow   func(pt int32) bool // root moves allowed (superko); nil: all
	noPass  bool                // kgs-genmove_cleanup: no pass at the root

	rootPasses int // 1 when the game's last move was a pass

	own      []float64 // by index of rootPts: playouts in which Black owned the point
	rootPts  []int32   // the board's points
	firstBuf []Color
	sims     int // simulations finished
	started  int // simulations begun
	stop     bool
	cancel   <-chan struct{}
}

// expand gives nd children: every legal move of c from pos that does not
// fill c's own eye, and a pass, with priors from the patterns and from
// the distance to the last move.
func (s *searcher) expand(nd *node, pos *board, c Color, isRoot bool) {
	nd.expanded = true
	var value map[int32]float64
	if s.db != nil {
		value = map[int32]float64{}
		pb := patternBoard{pos}
		s.db.MatchAll(pb, c, func(m pattern.Match) {
			pt := int32(m.Y+1)*pos.stride + int32(m.X) + 1
			value[pt] += m.Variant.Pattern.Value()
		})
	}
	last := pos.last
	lx, ly := pos.xy(last)
	for _, pt := range pos.empty {
		if !pos.legal(c, pt) || pos.eye(c, pt) {
			continue
		}
		if isRoot && s.allow != nil && !s.allow(pt) {
			continue
		}
		ch := &node{pt: pt, color: c, pn: evenPrior, pw: evenPrior / 2}
		if v := value[pt]; v > 0 {
			ch.pn += v
			ch.pw += v
		} else if v < 0 {
			ch.pn -= v
		}
		if last != 0 {
			x, y := pos.xy(pt)
			switch d := abs(x-lx) + abs(y-ly); {
			case d == 1:
				ch.pn, ch.pw = ch.pn+10, ch.pw+10
			case d == 2:
				ch.pn, ch.pw = ch.pn+6, ch.pw+6
			}
		}
		nd.children = append(nd.children, ch)
	}
	if !(isRoot && s.noPass) {
		// A pass starts with a poor prior: only real results choose it.
		nd.children = append(nd.children, &node{pt: 0, color: c, pn: evenPrior, pw: 0})
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// bestChild picks the child to descend to.
func bestChild(nd *node) *node {
	var best *node
	bv := math.Inf(-1)
	for _, ch := range nd.children {
		if v := ch.value(); v > bv {
			best, bv = ch, v
		}
	}
	return best
}

// simulate runs one simulation with worker w: down the tree under the
// lock, a playout without it, and the result back up under the lock.
func (s *searcher) simulate(w *worker, path []*node, seq []played) ([]*node, []played) {
	b := w.b
	b.copyFrom(s.rootPos)
	path = append(path[:0], s.root)
	seq = seq[:0]
	c := s.toPlay
	passes := s.rootPasses
	s.mu.Lock()
	nd := s.root
	nd.n++ // virtual loss: the visit counts before its result arrives
	for {
		if !nd.expanded {
			if nd != s.root && nd.n < expandAt {
				break
			}
			s.expand(nd, b, c, nd == s.root)
		}
		ch := bestChild(nd)
		if ch == nil {
			break
		}
		if ch.pt != 0 && !b.legal(c, ch.pt) {
			break // cannot happen: children are legal where they were made
		}
		b.play(c, ch.pt)
		if ch.pt == 0 {
			passes++
		} else {
			passes = 0
		}
		seq = append(seq, played{ch.pt, c})
		ch.n++
		path = append(path, ch)
		nd = ch
		c = c.Opponent()
		if passes == 2 {
			break
		}
	}
	s.mu.Unlock()

	var margin int
	if passes == 2 {
		margin = b.areaScore()
	} else {
		margin, seq = w.playout(c, seq)
	}
	result := float64(margin) - s.komi
	winner := black
	if result < 0 {
		winner = white
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	for _, nd := range path {
		if nd.color == winner {
			nd.w++
		}
	}
	s.updateAMAF(path, seq, winner, b)
	if s.own != nil {
		for i := range s.own {
			if b.owner(s.rootPts[i]) == black {
				s.own[i]++
			}
		}
	}
	s.sims++
	return path, seq
}

// updateAMAF credits, for each node on the path, each child whose move its
// colour played first at any later point of the simulation.
func (s *searcher) updateAMAF(path []*node, seq []played, winner Color, b *board) {
	first := s.firstBuf
	if len(first) != len(b.color) {
		first = make([]Color, len(b.color))
		s.firstBuf = first
	}
	clear(first)
	i := len(seq) - 1
	for d := len(path) - 1; d >= 0; d-- {
		for ; i >= d; i-- {
			if seq[i].pt != 0 {
				first[seq[i].pt] = seq[i].color
			}
		}
		for _, ch := range path[d].children {
			if ch.pt != 0 && first[ch.pt] == ch.color {
				ch.an++
				if ch.color == winner {
					ch.aw++
				}
			}
		}
	}
}

// run runs simulations on threads workers until n in all (n > 0), the
// deadline (non-zero) or the cancellation of ctx.
func (s *searcher) run(ctx context.Context, threads, n int, deadline time.Time, seed uint64) {
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		wb := &board{}
		w := &worker{b: wb, rng: rand.New(rand.NewPCG(seed, uint64(t)+1)), pol: s.pol}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var path []*node
			var seq []played
			for {
				s.mu.Lock()
				done := (n > 0 && s.started >= n) || s.stop
				s.started++
				s.mu.Unlock()
				if done || ctx.Err() != nil {
					return
				}
				// Every simulation: at a short clock one batch of them
				// may be all the time there is.
				if !deadline.IsZero() && time.Now().After(deadline) {
					return
				}
				path, seq = s.simulate(w, path, seq)
			}
		}()
	}
	wg.Wait()
}

// areaScore is the area count with every stone alive, as the referee
// counts: Black's margin before komi.
func (b *board) areaScore() int {
	ep := b.newEpoch()
	n := 0
	var stack []int32
	for y := int32(1); y <= b.size; y++ {
		for pt := y*b.stride + 1; pt <= y*b.stride+b.size; pt++ {
			switch b.color[pt] {
			case black:
				n++
				continue
			case white:
				n--
				continue
			}
			if b.mark[pt] == ep {
				continue
			}
			var seen [4]bool
			size := 0
			b.mark[pt] = ep
			stack = append(stack[:0], pt)
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				size++
				for _, d := range b.dirs {
					r := q + d
					if b.color[r] == empty {
						if b.mark[r] != ep {
							b.mark[r] = ep
							stack = append(stack, r)
						}
					} else {
						seen[b.color[r]] = true
					}
				}
			}
			switch {
			case seen[black] && !seen[white]:
				n += size
			case seen[white] && !seen[black]:
				n -= size
			}
		}
	}
	return n
}
