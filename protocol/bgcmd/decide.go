package bgcmd

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol"
)

// The decision path: one way to hand a position to an engine and check its
// answer against the rules, for every program that plays an engine (the
// ringmaster's referee, fibsbridge). Each method sends set_position with
// the state's gnubg IDs, then the command for the decision, in one batch
// where the Requester takes batches.

// askAbout tells the state and asks command about it, in one batch.
func (b *Client) askAbout(ctx context.Context, st *backgammon.State, command string) (string, error) {
	pos, mid := gnubgid.Encode(st)
	return b.ask(ctx, pos, mid, command)
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
	text, err := genMove(b.askAbout(ctx, st, CmdGenMove))
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
	return genCube(b.askAbout(ctx, st, CmdGenCube))
}

// DecideAnswer asks the player facing a double for take, drop or beaver.
// A beaver the rules do not allow is an error.
func (b *Client) DecideAnswer(ctx context.Context, st *backgammon.State) (backgammon.Answer, error) {
	a, err := genTake(b.askAbout(ctx, st, CmdGenTake))
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
	if ask, err := b.asksResign(ctx, st); err != nil || !ask {
		return backgammon.NoResult, err
	}
	return genResign(b.askAbout(ctx, st, CmdGenResign))
}

// asksResign says whether the player on roll is asked genresign: at the
// start of its turn, when the engine knows the command.
func (b *Client) asksResign(ctx context.Context, st *backgammon.State) (bool, error) {
	if d := st.Decision(); d != backgammon.DecideCube && d != backgammon.NeedRoll {
		return false, fmt.Errorf("genresign: not at the start of a turn (waiting for %v)", d)
	}
	return b.Knows(ctx, CmdGenResign)
}

// TurnStart is what the player on roll answered at the start of its turn
// (DecideTurnStart).
type TurnStart struct {
	// Resign is the resignation offered; NoResult when it plays on or
	// does not know genresign.
	Resign backgammon.Result
	// CubeAsked says that the cube question went with it: the rules
	// allowed a double and the engine knows genresign. Double is then the
	// answer and CubeErr its error, which belongs to the cube decision.
	CubeAsked bool
	Double    bool
	CubeErr   error
}

// DecideTurnStart asks the player on roll whether it resigns (as
// DecideResign) and, when the rules allow it a double, whether it doubles
// (as DecideDouble), in one batch: both questions are about the position
// before the roll, so the second answer is known before the first is
// acted on. An engine that does not know genresign is asked nothing here.
// The error is genresign's (or set_position's).
func (b *Client) DecideTurnStart(ctx context.Context, st *backgammon.State) (TurnStart, error) {
	if ask, err := b.asksResign(ctx, st); err != nil || !ask {
		return TurnStart{}, err
	}
	pos, mid := gnubgid.Encode(st)
	if err := checkIDs(pos, mid); err != nil {
		return TurnStart{}, err
	}
	cmds := []protocol.Command{protocol.Cmd(CmdSetPosition, pos, mid), protocol.Cmd(CmdGenResign)}
	ts := TurnStart{CubeAsked: st.CanDouble()}
	if ts.CubeAsked {
		cmds = append(cmds, protocol.Cmd(CmdGenCube))
	}
	replies, batchErr := protocol.DoAll(ctx, b.R, cmds...)
	if len(replies) > 0 && replies[0].Err != nil {
		return TurnStart{}, replies[0].Err
	}
	if len(replies) < 2 {
		return TurnStart{}, batchErr
	}
	var err error
	if ts.Resign, err = genResign(oneLine(CmdGenResign, replies[1].Text, replies[1].Err)); err != nil {
		return TurnStart{}, err
	}
	if ts.CubeAsked {
		ts.CubeErr = batchErr
		if len(replies) > 2 {
			ts.Double, ts.CubeErr = genCube(oneLine(CmdGenCube, replies[2].Text, replies[2].Err))
		}
	}
	return ts, nil
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
		return genAccept(b.askAbout(ctx, st, CmdGenAccept))
	}
	if k, err := b.Knows(ctx, CmdEvaluate); err != nil || !k {
		return false, err
	}
	// evaluate judges the resigner's position, so tell it with the offer
	// withdrawn: the resigner on roll.
	onRoll := *st
	onRoll.Resigned, onRoll.Turn = backgammon.NoResult, st.Move
	v, err := evaluate(b.askAbout(ctx, &onRoll, CmdEvaluate))
	if err != nil {
		return false, err
	}
	resigner := v[0] + v[1] + v[2] - (1 - v[0]) - v[3] - v[4]
	return float64(st.Resigned) >= -resigner-1e-9, nil
}
