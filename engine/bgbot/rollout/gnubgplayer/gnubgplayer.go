// Package gnubgplayer lets GNU Backgammon make the decisions of a
// rollout's trials (a rollout.Player): every move, double and take is
// asked of a gnubg process through its external interface
// (player/gnubg). Rolled out this way, a position's results measure the
// rollout's machinery (dice, luck correction, cube handling) against
// gnubg's own rollout of it, with the players' differences taken out.
package gnubgplayer

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/rollout"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// Player is one gnubg process deciding for both sides.
type Player struct {
	gnubg *gnubg.Player
	c     *bgcmd.Client
	rules *backgammon.Rules // the rules gnubg was last told, nil before
}

var (
	_ rollout.Player = (*Player)(nil)
	_ rollout.Judge  = (*Player)(nil)
)

// Launch starts gnubg with o (its depth, noise, timeout) as a rollout
// player; Close stops it.
func Launch(ctx context.Context, o gnubg.Options) (*Player, error) {
	p, err := gnubg.Launch(ctx, o)
	if err != nil {
		return nil, err
	}
	return &Player{gnubg: p, c: bgcmd.NewClient(p)}, nil
}

// Close stops gnubg.
func (p *Player) Close() error { return p.gnubg.Close() }

// position tells gnubg the rules (when they change) and the position of
// st.
func (p *Player) position(ctx context.Context, st *backgammon.State) error {
	if p.rules == nil || *p.rules != st.Rules {
		if err := p.c.SetGame(ctx, bgcmd.FromRules(st.Rules)); err != nil {
			return fmt.Errorf("gnubg player: %w", err)
		}
		r := st.Rules
		p.rules = &r
	}
	pos, match := gnubgid.Encode(st)
	if err := p.c.SetPosition(ctx, pos, match); err != nil {
		return fmt.Errorf("gnubg player: %s:%s: %w", pos, match, err)
	}
	return nil
}

// Move implements rollout.Player.
func (p *Player) Move(ctx context.Context, st *backgammon.State) (backgammon.Move, error) {
	if err := p.position(ctx, st); err != nil {
		return backgammon.Move{}, err
	}
	text, err := p.c.GenMove(ctx)
	if err != nil {
		return backgammon.Move{}, fmt.Errorf("gnubg player: genmove: %w", err)
	}
	if text == bgcmd.NoMove {
		return backgammon.Move{}, nil
	}
	m, err := st.ParseMove(text)
	if err != nil {
		return backgammon.Move{}, fmt.Errorf("gnubg player: genmove answered %q: %w", text, err)
	}
	return m, nil
}

// Double implements rollout.Player.
func (p *Player) Double(ctx context.Context, st *backgammon.State) (bool, error) {
	if err := p.position(ctx, st); err != nil {
		return false, err
	}
	d, err := p.c.GenCube(ctx)
	if err != nil {
		return false, fmt.Errorf("gnubg player: gencube: %w", err)
	}
	return d, nil
}

// Take implements rollout.Player.
func (p *Player) Take(ctx context.Context, st *backgammon.State) (backgammon.Answer, error) {
	if err := p.position(ctx, st); err != nil {
		return 0, err
	}
	a, err := p.c.GenTake(ctx)
	if err != nil {
		return 0, fmt.Errorf("gnubg player: gentake: %w", err)
	}
	return a, nil
}

// Probs implements rollout.Judge: gnubg's cubeless probabilities of st
// before the roll for its player on roll, at the player's depth.
func (p *Player) Probs(ctx context.Context, st *backgammon.State) (bgbot.Probs, error) {
	if err := p.position(ctx, st); err != nil {
		return bgbot.Probs{}, err
	}
	v, err := p.c.Evaluate(ctx)
	if err != nil {
		return bgbot.Probs{}, fmt.Errorf("gnubg player: evaluate: %w", err)
	}
	var pr bgbot.Probs
	for k := range pr {
		pr[k] = float32(v[k])
	}
	return pr, nil
}
