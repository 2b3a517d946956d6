package gnubg

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// CubefulEquity asks gnubg for its cubeful evaluation, at the player's
// depth, of s's position before the roll for the player on roll (s.Move),
// with s's score, cube and rules: the cube owner's options to double, and
// the opponent's, count as gnubg counts them. In money play the answer is
// gnubg's cubeful equity in units of the current cube; in match play it is
// gnubg's match winning chance for the player on roll (gnubg's own match
// equity table). It goes to gnubg's external interface directly, not
// through the command set (whose evaluate answers cubeless figures in
// match play), and must not run at the same time as Do.
func (p *Player) CubefulEquity(ctx context.Context, s *backgammon.State) (float64, error) {
	if s.Variant != backgammon.Standard {
		return 0, fmt.Errorf("gnubg: cubeful equity: gnubg's external interface knows only standard backgammon, not %s", s.Variant)
	}
	if s.GameState != backgammon.GamePlaying {
		return 0, fmt.Errorf("gnubg: cubeful equity: no game in play")
	}
	if p.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.opts.Timeout)
		defer cancel()
	}
	p.eng.SetCallContext(ctx)
	defer p.eng.SetCallContext(nil)
	v, err := p.eng.evaluation(ctx, s)
	if err != nil {
		return 0, fmt.Errorf("gnubg: cubeful equity: %w", err)
	}
	return v[5], nil
}
