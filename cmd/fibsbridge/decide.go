package main

import (
	"context"
	"fmt"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// engineSeat hands a position to an engine and checks its answer against
// the rules, as the ringmaster's referee does: set_position with the
// state's gnubg IDs, then genmove / gencube / gentake / evaluate. A move
// comes back only if it is legal in the state.
type engineSeat struct {
	c *bgcmd.Client
}

func (e *engineSeat) tell(ctx context.Context, st *bg.State) error {
	pos, mid := gnubgid.Encode(st)
	return e.c.SetPosition(ctx, pos, mid)
}

// move asks for the move of the player on roll and resolves it against
// the legal moves of the roll.
func (e *engineSeat) move(ctx context.Context, st *bg.State) (bg.Move, string, error) {
	if err := e.tell(ctx, st); err != nil {
		return bg.Move{}, "", fmt.Errorf("set_position: %w", err)
	}
	text, err := e.c.GenMove(ctx)
	if err != nil {
		return bg.Move{}, "", fmt.Errorf("genmove: %w", err)
	}
	if text == bgcmd.NoMove {
		text = ""
	}
	m, err := st.ParseMove(text)
	if err != nil {
		return bg.Move{}, text, fmt.Errorf("illegal move %q with %d%d: %w", text, st.Dice[0], st.Dice[1], err)
	}
	return m, text, nil
}

// double asks whether the player on roll doubles.
func (e *engineSeat) double(ctx context.Context, st *bg.State) (bool, error) {
	if !st.CanDouble() {
		return false, nil
	}
	if err := e.tell(ctx, st); err != nil {
		return false, fmt.Errorf("set_position: %w", err)
	}
	return e.c.GenCube(ctx)
}

// take asks the player facing a double for its answer; a beaver where the
// rules allow none is refused.
func (e *engineSeat) take(ctx context.Context, st *bg.State) (bg.Answer, error) {
	if err := e.tell(ctx, st); err != nil {
		return 0, fmt.Errorf("set_position: %w", err)
	}
	a, err := e.c.GenTake(ctx)
	if err != nil {
		return 0, fmt.Errorf("gentake: %w", err)
	}
	if a == bg.Beaver && !st.CanBeaver() {
		return bg.Take, fmt.Errorf("gentake: beaver when beavers are not allowed (taken instead)")
	}
	return a, nil
}

// acceptResignation judges a resignation offered by the player on roll
// (st.Resigned is the level) from the engine's cubeless evaluation of the
// resigner's position: accept when the offer is at least what playing on
// is worth to the player asked.
func (e *engineSeat) acceptResignation(ctx context.Context, st *bg.State) (bool, error) {
	if err := e.tell(ctx, st); err != nil {
		return false, fmt.Errorf("set_position: %w", err)
	}
	v, err := e.c.Evaluate(ctx)
	if err != nil {
		return false, fmt.Errorf("evaluate: %w", err)
	}
	// v is the resigner's view: p_win p_win_g p_win_bg p_lose_g p_lose_bg.
	resigner := v[0] + v[1] + v[2] - (1 - v[0]) - v[3] - v[4]
	return float64(st.Resigned) >= -resigner-1e-9, nil
}
