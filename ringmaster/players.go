package ringmaster

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/internal/progpath"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/ringmaster/control"
)

// launchOptions are per-game facts a player needs when it starts.
type launchOptions struct {
	gameID     string
	seed       uint64 // the game's seed (the scheduler's, stable across resumes)
	slot       int    // worker index, -1 in startup checks
	stderr     io.Writer
	transcript func(sent bool, line string)
	engines    *engineRegistry // lists the engine while it runs (nil: not listed)
}

// launch starts one player of the competition and sends its startup
// commands. The caller closes it.
func (r *Ringmaster) launch(ctx context.Context, p *control.Player, o launchOptions) (player.Player, error) {
	seed := strconv.FormatUint(EngineSeed(o.seed), 10)
	argv := make([]string, len(p.Command))
	for i, w := range p.Command {
		argv[i] = strings.ReplaceAll(w, "{seed}", seed)
	}
	if len(argv) > 0 {
		argv[0] = findProgram(argv[0])
	}
	spec := player.Spec{Argv: argv, Dir: p.Cwd, Env: engineEnv(p, o), Stderr: o.stderrFor(p),
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
	pl = o.engines.track(pl)
	if len(p.GTPAliases) > 0 {
		pl = aliased{Player: pl, aliases: p.GTPAliases}
	}
	if p.Unbatched {
		pl = unbatched{pl}
	}
	for _, c := range p.StartupCommands {
		words := strings.Fields(strings.ReplaceAll(c, "{seed}", seed))
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

// findProgram looks a bare program name up on PATH and then in /usr/games
// (progpath); a name holding '/' (already resolved against the control
// file) is left alone, as is a name found nowhere (the launch then says
// so).
func findProgram(name string) string {
	if p, err := progpath.Find(name); err == nil {
		return p
	}
	return name
}

// EngineSeed turns a game's seed into the number an engine gets as {seed}
// and GAMEMILL_GAME_SEED: between 1 and 2^31-1, so that engines that read
// a C int (GNU Go's --seed, where 0 means "from the clock") take it as it
// is. The same game, replayed or resumed, gets the same number.
func EngineSeed(gameSeed uint64) uint64 { return gameSeed%(1<<31-1) + 1 }

// aliased sends each command under the name the engine knows it by
// (gtp_aliases); errors still name the command the ringmaster meant.
type aliased struct {
	player.Player
	aliases map[string]string
}

func (a aliased) Unwrap() player.Player { return a.Player }

func (a aliased) Do(ctx context.Context, command string, args ...string) (string, error) {
	if alias, ok := a.aliases[command]; ok {
		resp, err := a.Player.Do(ctx, alias, args...)
		if err != nil {
			return resp, sentAs(command, alias, err)
		}
		return resp, nil
	}
	return a.Player.Do(ctx, command, args...)
}

// DoAll sends a batch with each command under its alias.
func (a aliased) DoAll(ctx context.Context, cmds []protocol.Command) ([]protocol.Reply, error) {
	sent := make([]protocol.Command, len(cmds))
	for i, c := range cmds {
		sent[i] = c
		if alias, ok := a.aliases[c.Name]; ok {
			sent[i].Name = alias
		}
	}
	replies, err := protocol.DoAll(ctx, a.Player, sent...)
	for i := range replies {
		if replies[i].Err != nil && sent[i].Name != cmds[i].Name {
			replies[i].Err = sentAs(cmds[i].Name, sent[i].Name, replies[i].Err)
		}
	}
	if n := len(replies); err != nil && n < len(cmds) && sent[n].Name != cmds[n].Name {
		err = sentAs(cmds[n].Name, sent[n].Name, err)
	}
	return replies, err
}

// sentAs names the command the ringmaster meant and the alias it sent.
func sentAs(meant, alias string, err error) error {
	return fmt.Errorf("%s (sent as %s): %w", meant, alias, err)
}

// unbatched hides a player's DoAll, so that batches go one command at a
// time (batch_commands = false).
type unbatched struct{ player.Player }

func (u unbatched) Unwrap() player.Player { return u.Player }

// engineEnv is what an engine process gets on top of the inherited
// environment: the game id and worker slot, also under gomill's names
// (GOMILL_GAME_ID, GOMILL_SLOT) for engines written for its ringmaster,
// then the player's environ.
func engineEnv(p *control.Player, o launchOptions) []string {
	env := []string{"GAMEMILL_GAME_ID=" + o.gameID, "GAMEMILL_GAME_SEED=" + strconv.FormatUint(EngineSeed(o.seed), 10),
		"GOMILL_GAME_ID=" + o.gameID}
	if o.slot >= 0 {
		env = append(env, fmt.Sprintf("GAMEMILL_SLOT=%d", o.slot), fmt.Sprintf("GOMILL_SLOT=%d", o.slot))
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
