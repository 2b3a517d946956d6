package ringmaster

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/ringmaster/control"
)

// launchGnubg starts GNU Backgammon behind its external interface as a
// player. Its noise is deterministic (a function of the position), so a
// replayed game is played the same way.
func (r *Ringmaster) launchGnubg(ctx context.Context, p *control.Player, o launchOptions) (player.Player, error) {
	bin, err := r.gnubgBinary(p)
	if err != nil {
		return nil, err
	}
	gp, err := gnubg.Launch(ctx, gnubg.Options{Binary: bin, Dir: p.Cwd, Env: engineEnv(p, o), Plies: p.Plies, Noise: p.Noise,
		DeterministicNoise: true, Stderr: o.stderrFor(p), Timeout: p.Timeout, Transcript: o.transcript})
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", p.Code, err)
	}
	return gp, nil
}
