package bridge

import (
	"context"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/online"
)

// engineSeat is the engine behind the bridge. Its decisions go through
// bgcmd's decision path (Tell, DecideMove, ...), the one the ringmaster's
// referee uses to hand a position to an engine and check its answer.
type engineSeat struct {
	c *bgcmd.Client
}

func (e *engineSeat) move(ctx context.Context, st *bg.State) (bg.Move, error) {
	return e.c.DecideMove(ctx, st)
}

func (e *engineSeat) double(ctx context.Context, st *bg.State) (bool, error) {
	return e.c.DecideDouble(ctx, st)
}

func (e *engineSeat) take(ctx context.Context, st *bg.State) (bg.Answer, error) {
	return online.BeaverAsTake(e.c.DecideAnswer(ctx, st))
}

func (e *engineSeat) resign(ctx context.Context, st *bg.State) (bg.Result, error) {
	return e.c.DecideResign(ctx, st)
}

func (e *engineSeat) acceptResignation(ctx context.Context, st *bg.State) (bool, error) {
	return e.c.DecideResignation(ctx, st)
}
