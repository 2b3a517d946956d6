package bgbot

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// With Config.MoveWeights a 0-ply bot scores every legal move with its
// network, then chooses among the MoveKeep best (within the first
// filter's margin) by the mean of every network's equity. The test
// works that choice out by hand in positions of a game and checks the
// bot's against it.
func TestMoveWeightsRescoreBestMoves(t *testing.T) {
	main, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewRandomWeights(16, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Louder outputs, so that the second opinion reorders more than the
	// top two moves.
	for _, n := range other.nets {
		for i := range n.w2 {
			n.w2[i] *= 8
		}
	}
	plain, err := NewBot(Config{Level: LevelNet, Weights: main})
	if err != nil {
		t.Fatal(err)
	}
	evMain, evOther := main.NewEvaluator(), other.NewEvaluator()
	// equity of a board after a move, mover's view, by one network.
	equity := func(ev Evaluator, b backgammon.Board) float32 {
		if p, over := Outcome(&b, 15); over {
			return p.Equity()
		}
		return ev.Evaluate(b.Swap()).Invert().Equity()
	}
	byScore := func(x, y scoredBoard) int { return cmp.Compare(y.score, x.score) } // best first
	gen := backgammon.NewMoveGen()
	keeps := []int{2, 3, 5}
	var bots []*Bot
	for _, keep := range keeps {
		b, err := NewBot(Config{Level: LevelNet, Weights: main, MoveWeights: []*Weights{other}, MoveKeep: keep})
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	// The positions of a game the main network plays against itself.
	board := backgammon.Standard.StartBoard()
	checked, differed, keepMatters := 0, 0, 0
	for turn := 0; turn < 40 && Contact(&board); turn++ {
		d1, d2 := 1+turn*5%6, 1+turn*7%6
		_, boards := gen.Generate(board, d1, d2)
		var c []scoredBoard
		for _, b := range boards {
			c = append(c, scoredBoard{b, equity(evMain, b)})
		}
		slices.SortStableFunc(c, byScore)
		pm, _, _ := plain.ChooseMove(board, d1, d2)
		var chosen []backgammon.Board
		for k, keep := range keeps {
			n := 1
			for n < len(c) && n < keep && c[n].score >= c[0].score-DefaultFilters()[0].Margin {
				n++
			}
			best := slices.Clone(c[:n])
			for i := range best {
				best[i].score = (best[i].score + equity(evOther, best[i].b)) / 2
			}
			slices.SortStableFunc(best, byScore)
			m, _, _ := bots[k].ChooseMove(board, d1, d2)
			got := board.Apply(m)
			chosen = append(chosen, got)
			if len(best) < 2 || best[0].score-best[1].score > 1e-4 {
				checked++
				if got != best[0].b {
					t.Errorf("turn %d, roll %d-%d, keeping %d: the bot chose %v, not the best of its %d best moves by the mean", turn, d1, d2, keep, m, n)
				}
			}
			if board.Apply(pm) != got {
				differed++
			}
		}
		if chosen[0] != chosen[1] || chosen[1] != chosen[2] {
			keepMatters++
		}
		board = board.Apply(pm).Swap()
	}
	if checked < 60 || differed == 0 || keepMatters == 0 {
		t.Errorf("%d decisions checked, %d changed by the second network, %d by how many moves it scores; want at least 60, one and one",
			checked, differed, keepMatters)
	}

	// Keeping one move, or searching deeper, leaves the choice to the
	// main network.
	one, err := NewBot(Config{Level: LevelNet, Weights: main, MoveWeights: []*Weights{other}, MoveKeep: 1})
	if err != nil {
		t.Fatal(err)
	}
	deep, err := NewBot(Config{Level: LevelNet, Weights: main, Plies: 1, MoveWeights: []*Weights{other}})
	if err != nil {
		t.Fatal(err)
	}
	plain1, err := NewBot(Config{Level: LevelNet, Weights: main, Plies: 1})
	if err != nil {
		t.Fatal(err)
	}
	start := backgammon.Standard.StartBoard()
	for _, roll := range [][2]int{{3, 1}, {6, 2}, {5, 4}, {4, 4}} {
		a, _, _ := plain.ChooseMove(start, roll[0], roll[1])
		b, _, _ := one.ChooseMove(start, roll[0], roll[1])
		if a != b {
			t.Errorf("%d-%d: keeping one move, the bot chose %v, not its network's %v", roll[0], roll[1], b, a)
		}
		a, pa, _ := plain1.ChooseMove(start, roll[0], roll[1])
		b, pb, _ := deep.ChooseMove(start, roll[0], roll[1])
		if a != b || math.Abs(float64(pa.Equity()-pb.Equity())) > 1e-6 {
			t.Errorf("%d-%d at 1 ply: %v (%v) with move networks, %v (%v) without", roll[0], roll[1], b, pb, a, pa)
		}
	}
	if _, err := NewBot(Config{Level: LevelNet, MoveWeights: []*Weights{nil}}); err == nil {
		t.Error("a missing move network accepted")
	}
	if _, err := NewBot(Config{Level: LevelNet, MoveKeep: -1}); err == nil {
		t.Error("a negative move keep accepted")
	}
}

// scoredBoard is a board after a move with the mover's equity.
type scoredBoard struct {
	b     backgammon.Board
	score float32
}
