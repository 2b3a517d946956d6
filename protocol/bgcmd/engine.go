package bgcmd

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol"
)

// Engine is the engine side of the backgammon command set. The
// server calls it one command at a time.
type Engine interface {
	// SetGame sets the variant, match length and rules for what follows.
	SetGame(GameRules) error
	// SetPosition sets the whole state: a gnubg position ID and match ID
	// (dice, cube, score, turn).
	SetPosition(positionID, matchID string) error
	// GenMove returns the move for the player on roll in gnubg notation,
	// or "none" when no move is legal.
	GenMove(ctx context.Context) (string, error)
	// GenCube reports whether the player on roll doubles.
	GenCube(ctx context.Context) (bool, error)
	// GenTake answers a double offered to the player on roll.
	GenTake(ctx context.Context) (backgammon.Answer, error)
}

// Evaluator is implemented by engines that support the evaluate command.
type Evaluator interface {
	Evaluate(ctx context.Context) ([6]float64, error)
}

// Resigner is implemented by engines that offer and answer resignations
// (the genresign and genaccept commands).
type Resigner interface {
	// GenResign returns the level the player on roll resigns at, before
	// its cube decision and roll, or backgammon.NoResult to play on.
	GenResign(ctx context.Context) (backgammon.Result, error)
	// GenAccept answers the resignation the match ID offers to the player
	// whose turn it is: true accepts it.
	GenAccept(ctx context.Context) (bool, error)
}

// Register registers set_game, set_position, genmove, gencube and
// gentake on s, evaluate when e implements [Evaluator], and genresign and
// genaccept when it implements [Resigner]. Argument errors become failure
// responses without calling e.
func Register(s *protocol.Server, e Engine) {
	noArgs := func(name string, f func(ctx context.Context) (string, error)) {
		s.HandleFunc(name, func(ctx context.Context, args []string) (string, error) {
			if len(args) != 0 {
				return "", fmt.Errorf("%w: %s takes no arguments", protocol.ErrArgs, name)
			}
			return f(ctx)
		})
	}
	s.HandleFunc(CmdSetGame, func(_ context.Context, args []string) (string, error) {
		r, err := ParseGameRules(args)
		if err != nil {
			return "", err
		}
		return "", e.SetGame(r)
	})
	s.HandleFunc(CmdSetPosition, func(_ context.Context, args []string) (string, error) {
		if len(args) != 2 {
			return "", fmt.Errorf("%w: set_position takes POSITION_ID MATCH_ID", protocol.ErrArgs)
		}
		return "", e.SetPosition(args[0], args[1])
	})
	noArgs(CmdGenMove, e.GenMove)
	noArgs(CmdGenCube, func(ctx context.Context) (string, error) {
		d, err := e.GenCube(ctx)
		if err != nil {
			return "", err
		}
		if d {
			return "double", nil
		}
		return "no_double", nil
	})
	noArgs(CmdGenTake, func(ctx context.Context) (string, error) {
		d, err := e.GenTake(ctx)
		if err != nil {
			return "", err
		}
		if d < backgammon.Take || d > backgammon.Beaver {
			return "", fmt.Errorf("engine returned invalid answer %d", int(d))
		}
		return d.String(), nil
	})
	if rs, ok := e.(Resigner); ok {
		noArgs(CmdGenResign, func(ctx context.Context) (string, error) {
			level, err := rs.GenResign(ctx)
			switch {
			case err != nil:
				return "", err
			case level == backgammon.NoResult:
				return NoResignation, nil
			case level < backgammon.Single || level > backgammon.Backgammon:
				return "", fmt.Errorf("engine returned invalid resignation level %d", int(level))
			}
			return level.String(), nil
		})
		noArgs(CmdGenAccept, func(ctx context.Context) (string, error) {
			ok, err := rs.GenAccept(ctx)
			switch {
			case err != nil:
				return "", err
			case ok:
				return "accept", nil
			}
			return "decline", nil
		})
	}
	if ev, ok := e.(Evaluator); ok {
		noArgs(CmdEvaluate, func(ctx context.Context) (string, error) {
			v, err := ev.Evaluate(ctx)
			if err != nil {
				return "", err
			}
			return FormatEvaluation(v), nil
		})
	}
}
