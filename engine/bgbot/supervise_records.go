package bgbot

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// RecordedDecision is a chequer decision met in a game record.
type RecordedDecision struct {
	Board  backgammon.Board // before the move, from the mover's view
	Dice   [2]int
	Played backgammon.Board // after the move played, from the mover's view
}

// SampleRecordedDecisions is SampleDecisionsWhere for positions met in
// game records instead of self-play: for each decision, the positions
// (from the opponent's view, before its roll) that the move played and
// w's 1+alternatives best moves at 0 ply leave, as one group. Each
// position is kept once over all decisions; finished games, exact
// bear-offs and positions keep refuses (keep nil refuses none) are left
// out; at most n are returned (n <= 0: all). Records of games against
// other programs, or with the cube and at match scores, reach positions
// that cubeless self-play rarely does, such as races where one side must
// save a gammon.
func SampleRecordedDecisions(ctx context.Context, w *Weights, db *Bearoff, ds []RecordedDecision, alternatives int, keep func(*backgammon.Board) bool, n int) ([]backgammon.Board, []int32, error) {
	bot, err := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db, NoBearoff: db == nil})
	if err != nil {
		return nil, nil, fmt.Errorf("sample recorded positions: %w", err)
	}
	seen := map[backgammon.Board]bool{}
	var (
		out    []backgammon.Board
		groups []int32
		group  int32
	)
	add := func(after backgammon.Board) {
		if _, over := Outcome(&after, bot.checkers); over {
			return
		}
		b := after.Swap()
		if seen[b] {
			return
		}
		seen[b] = true
		if _, exact := bearoffExact(db, &b); exact || (keep != nil && !keep(&b)) {
			return
		}
		out = append(out, b)
		groups = append(groups, group)
	}
	for i, d := range ds {
		if n > 0 && len(out) >= n {
			break
		}
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, fmt.Errorf("sample recorded positions: %w", err)
			}
		}
		before := len(out)
		add(d.Played)
		if _, _, moved := bot.ChooseMove(d.Board, d.Dice[0], d.Dice[1]); moved {
			c := bot.rankedCandidates()
			for k := 0; k < len(c) && k <= alternatives; k++ {
				add(c[k].board)
			}
		}
		if len(out) > before {
			group++
		}
	}
	if n > 0 && len(out) > n {
		out, groups = out[:n], groups[:n]
	}
	return out, groups, nil
}
