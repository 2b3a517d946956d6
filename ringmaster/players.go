package ringmaster

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/ringmaster/control"
)

// launchOptions are per-game facts a player needs when it starts.
type launchOptions struct {
	gameID     string
	slot       int // worker index, -1 in startup checks
	stderr     io.Writer
	transcript func(sent bool, line string)
}

// launch starts one player of the competition and sends its startup
// commands. The caller closes it.
func (r *Ringmaster) launch(ctx context.Context, p *control.Player, o launchOptions) (player.Player, error) {
	spec := player.Spec{Argv: p.Command, Dir: p.Cwd, Env: engineEnv(p, o), Stderr: o.stderrFor(p),
		Timeout: p.Timeout, Transcript: o.transcript}
	var pl player.Player
	var err error
	if p.Kind == control.KindProtocol {
		pl, err = player.Launch(ctx, spec)
	} else {
		pl, err = r.Game.Launch(ctx, p, spec)
	}
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", p.Code, err)
	}
	for _, c := range p.StartupCommands {
		words := strings.Fields(c)
		if len(words) == 0 {
			continue
		}
		if _, err := pl.Do(ctx, words[0], words[1:]...); err != nil {
			pl.Close()
			return nil, fmt.Errorf("player %s: startup command %q: %w", p.Code, c, err)
		}
	}
	return pl, nil
}

// engineEnv is what an engine process gets on top of the inherited
// environment: the game id and worker slot, then the player's environ.
func engineEnv(p *control.Player, o launchOptions) []string {
	env := []string{"GAMEMILL_GAME_ID=" + o.gameID}
	if o.slot >= 0 {
		env = append(env, fmt.Sprintf("GAMEMILL_SLOT=%d", o.slot))
	}
	keys := make([]string, 0, len(p.Environ))
	for k := range p.Environ {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+p.Environ[k])
	}
	return env
}

// stderrFor is where a player's stderr goes: nowhere if it asks for that.
func (o launchOptions) stderrFor(p *control.Player) io.Writer {
	if p.DiscardStderr {
		return nil
	}
	return o.stderr
}
