package ringmaster

import (
	"context"
	"fmt"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/ringmaster/control"
)

func (r *Ringmaster) launchGnubg(ctx context.Context, p *control.Player, o launchOptions) (player.Player, error) {
	if _, err := r.gnubgBinary(p); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("player %s: the gnubg adapter is not built yet", p.Code)
}
