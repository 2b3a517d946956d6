package bgcmd

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// The decision path: one way to hand a position to an engine and check its
// answer against the rules, for every program that plays an engine (the
// ringmaster's referee, fibsbridge). Each method sends set_position with
// the state's gnubg IDs, then the command for the decision.

// Tell sends the whole state with set_position.
func (b *Client) Tell(ctx context.Context, st *backgammon.State) error {
	pos, mid := gnubgid.Encode(st)
	return b.SetPosition(ctx, pos, mid)
}

// IllegalMoveError is an engine's move that the rules refuse.
type IllegalMoveError struct {
	Move string // as the engine wrote it ("" for none)
	Dice [2]int
	Err  error
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("illegal move %q with %d%d: %v", e.Move, e.Dice[0], e.Dice[1], e.Err)
}

func (e *IllegalMoveError) Unwrap() error { return e.Err }

// DecideMove asks for the move of the player on roll and resolves it
// against the legal moves of the roll: the move comes back only if it is
// legal, else the error is an *IllegalMoveError.
func (b *Client) DecideMove(ctx context.Context, st *backgammon.State) (backgammon.Move, error) {
	if err := b.Tell(ctx, st); err != nil {
		return backgammon.Move{}, err
	}
	text, err := b.GenMove(ctx)
	if err != nil {
		return backgammon.Move{}, err
	}
	if text == NoMove {
		text = ""
	}
	m, err := st.ParseMove(text)
	if err != nil {
		return backgammon.Move{}, &IllegalMoveError{Move: text, Dice: st.Dice, Err: err}
	}
	return m, nil
}

// DecideDouble asks whether the player on roll doubles; it is false
// without asking when the rules allow no double.
func (b *Client) DecideDouble(ctx context.Context, st *backgammon.State) (bool, error) {
	if !st.CanDouble() {
		return false, nil
	}
	if err := b.Tell(ctx, st); err != nil {
		return false, err
	}
	return b.GenCube(ctx)
}

// DecideAnswer asks the player facing a double for take, drop or beaver.
// A beaver the rules do not allow is an error.
func (b *Client) DecideAnswer(ctx context.Context, st *backgammon.State) (backgammon.Answer, error) {
	if err := b.Tell(ctx, st); err != nil {
		return 0, err
	}
	a, err := b.GenTake(ctx)
	if err != nil {
		return 0, err
	}
	if a == backgammon.Beaver && !st.CanBeaver() {
		return a, fmt.Errorf("gentake: beaver when beavers are not allowed")
	}
	return a, nil
}

// DecideResign asks the player on roll, at the start of its turn (before
// the cube decision and the roll), whether it resigns, when the engine
// knows genresign; an engine that does not is never asked and plays on.
func (b *Client) DecideResign(ctx context.Context, st *backgammon.State) (backgammon.Result, error) {
	if d := st.Decision(); d != backgammon.DecideCube && d != backgammon.NeedRoll {
		return backgammon.NoResult, fmt.Errorf("genresign: not at the start of a turn (waiting for %v)", d)
	}
	if k, err := b.Knows(ctx, CmdGenResign); err != nil || !k {
		return backgammon.NoResult, err
	}
	if err := b.Tell(ctx, st); err != nil {
		return backgammon.NoResult, err
	}
	return b.GenResign(ctx)
}

// DecideResignation asks the player offered a resignation (st.Resigned,
// by the player on roll) whether it accepts: through genaccept when the
// engine knows it; else, when it knows evaluate, by the engine's cubeless
// evaluation of the resigner's position (accepted when the offer is at
// least what playing on is worth to the player asked); else it declines.
func (b *Client) DecideResignation(ctx context.Context, st *backgammon.State) (bool, error) {
	if st.Decision() != backgammon.DecideResign {
		return false, fmt.Errorf("genaccept: no resignation on offer (waiting for %v)", st.Decision())
	}
	if k, err := b.Knows(ctx, CmdGenAccept); err != nil {
		return false, err
	} else if k {
		if err := b.Tell(ctx, st); err != nil {
			return false, err
		}
		return b.GenAccept(ctx)
	}
	if k, err := b.Knows(ctx, CmdEvaluate); err != nil || !k {
		return false, err
	}
	// evaluate judges the resigner's position, so tell it with the offer
	// withdrawn: the resigner on roll.
	onRoll := *st
	onRoll.Resigned, onRoll.Turn = backgammon.NoResult, st.Move
	if err := b.Tell(ctx, &onRoll); err != nil {
		return false, err
	}
	v, err := b.Evaluate(ctx)
	if err != nil {
		return false, err
	}
	resigner := v[0] + v[1] + v[2] - (1 - v[0]) - v[3] - v[4]
	return float64(st.Resigned) >= -resigner-1e-9, nil
}
