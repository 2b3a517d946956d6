package rollout

import (
	"context"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
)

// A Player makes the decisions of both sides in a rollout's trials: the
// moves, doubles and takes. The rollout's own machinery (the dice, the
// luck correction, truncation, the cube's bookkeeping and the results)
// does not depend on who plays, so rolling out with another program's
// decisions and comparing with that program's own rollout tests the
// machinery apart from the bot. Each worker has its own Player; its
// methods are called from one goroutine at a time and may keep st only
// for the call.
type Player interface {
	// Move chooses the move of the player on roll of st, whose dice are
	// rolled (an empty move when none is legal).
	Move(ctx context.Context, st *backgammon.State) (backgammon.Move, error)
	// Double says whether the player on roll of st, before the roll and
	// allowed to double, doubles.
	Double(ctx context.Context, st *backgammon.State) (bool, error)
	// Take answers the double pending in st (a beaver is answered as a
	// take where the rules allow none).
	Take(ctx context.Context, st *backgammon.State) (backgammon.Answer, error)
}

// A Judge is a Player that also judges positions. A trial that ends by a
// pass takes its cubeless figures from the evaluation of the position the
// double was made in, as gnubg's rollouts do: a Judge's own when the
// player is one, so that its rollout is all its own, else the bot's.
type Judge interface {
	// Probs are the cubeless probabilities of st before the roll (no
	// double pending) for its player on roll.
	Probs(ctx context.Context, st *backgammon.State) (bgbot.Probs, error)
}

// botPlayer is bgbot deciding for itself.
type botPlayer struct{ bot *bgbot.Bot }

func (b botPlayer) Move(_ context.Context, st *backgammon.State) (backgammon.Move, error) {
	m, _, err := b.bot.Move(st)
	return m, err
}

func (b botPlayer) Double(_ context.Context, st *backgammon.State) (bool, error) {
	return b.bot.Double(st)
}

func (b botPlayer) Take(_ context.Context, st *backgammon.State) (backgammon.Answer, error) {
	return b.bot.Take(st)
}
