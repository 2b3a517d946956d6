package control

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gamemill/gamemill/player"
)

// Player kinds.
const (
	// KindProtocol is an engine run as a subprocess speaking our protocol.
	KindProtocol = "protocol"
	// KindGnubg is gnubg driven through its adapter.
	KindGnubg = "gnubg"
	// KindBuiltin is our own bot run in-process.
	KindBuiltin = "builtin"
	// KindAgent is a program answering in a learning environment's terms
	// (backgammon: PettingZoo's observations and actions; player/agent).
	KindAgent = "agent"
)

// When a player's engine process is restarted (the restart key).
const (
	// RestartPerGame starts a fresh process for every game (gomill's way).
	RestartPerGame = "per_game"
	// RestartOnError keeps the process for the next game of the same
	// player in the same worker unless anything went wrong with it in the
	// game: a command answered with an error (a failure response
	// included), a forfeit by its seat, a void game blamed on it, or a
	// process that exited or can no longer take a command.
	RestartOnError = "on_error"
	// RestartNever keeps the process for as long as it can be reset: it is
	// replaced only when it has exited or its channel is broken (a
	// timeout, a malformed response, a closed pipe), so an engine that
	// forfeits by an illegal move or a failure response plays on.
	RestartNever = "never"
)

// DefaultStderrLimit is how much of an engine's stderr the event log keeps
// per game when the control file sets no stderr_limit.
const DefaultStderrLimit = 1_000_000

// DefaultTimeout is a player's per-decision timeout when the control file
// sets none.
const DefaultTimeout = 60 * time.Second

// Player is one engine definition.
type Player struct {
	Code string
	Kind string // KindProtocol, KindGnubg or KindBuiltin
	// Command is the argv to execute. Required for KindProtocol; optional
	// for KindGnubg (empty means the adapter's default gnubg binary); empty
	// for KindBuiltin. An argv[0] holding '/' is resolved against the
	// control file's directory; otherwise it is looked up on PATH.
	Command []string
	// Cwd is the working directory, resolved against the control file's
	// directory; empty means the ringmaster's own working directory.
	Cwd             string
	Environ         map[string]string // merged over the inherited environment
	StartupCommands []string
	DiscardStderr   bool
	// StderrLimit is how many bytes of the engine's stderr the event log
	// keeps per game (0: no limit); over a run, an engine keeps at most
	// 20 times that.
	StderrLimit int64
	Timeout     time.Duration // per decision
	// GTPAliases maps a command the ringmaster sends to the one the engine
	// knows (gomill's gtp_aliases).
	GTPAliases map[string]string
	// ReliableScorer (default true) lets the referee ask the engine for
	// the score at the end of a game (Go's final_score).
	ReliableScorer bool
	// AllowClaim lets the engine claim a win (Go: gomill-genmove_ex claim).
	AllowClaim bool
	// Restart is when the engine process is replaced: RestartPerGame (the
	// default), RestartOnError or RestartNever. KindProtocol only.
	Restart string
	// Unbatched (batch_commands = false) sends each command only after the
	// previous answer, for an engine that cannot take commands it has not
	// answered yet. By default the referees send the commands they know
	// ahead in one write (a move to tell and the request for the next
	// move), which GTP allows. KindProtocol only.
	Unbatched bool
	Plies     int      // KindGnubg only
	Noise     float64  // KindGnubg only
	Args      []string // KindBuiltin only
}

// playerSetting is one player key: the kinds of player that may set it
// (nil: every kind) and how it is read into the player. Each key is named
// once, here; the key lists and the decoding derive from this table.
type playerSetting struct {
	key   string
	kinds []string
	read  func(l *loader, p keyPath, v any, pl *Player)
}

func playerSettings() []playerSetting {
	var anyKind []string
	processKinds := []string{KindProtocol, KindGnubg, KindAgent}
	return []playerSetting{
		{"command", processKinds, func(l *loader, p keyPath, v any, pl *Player) {
			pl.Command = l.command(p, v)
			if len(pl.Command) > 0 && strings.Contains(pl.Command[0], "/") {
				pl.Command[0] = l.resolve(pl.Command[0])
			}
		}},
		{"cwd", processKinds, func(l *loader, p keyPath, v any, pl *Player) {
			s, ok := l.str(p, v)
			switch {
			case !ok:
			case s == "":
				l.errorf(p, "empty directory")
			default:
				pl.Cwd = l.resolve(s)
				if !l.checkFiles {
					return
				}
				if fi, err := os.Stat(pl.Cwd); err != nil {
					l.errorf(p, "directory %s: %v", pl.Cwd, errors.Unwrap(err))
				} else if !fi.IsDir() {
					l.errorf(p, "%s is not a directory", pl.Cwd)
				}
			}
		}},
		{"environ", processKinds, func(l *loader, p keyPath, v any, pl *Player) {
			env, ok := l.table(p, v)
			if !ok {
				return
			}
			pl.Environ = make(map[string]string, len(env))
			for _, k := range l.sortedKeys(p, env) {
				if k == "" || strings.ContainsAny(k, "=\x00") {
					l.errorf(p.Key(k), "invalid environment variable name")
				} else if s, ok := l.str(p.Key(k), env[k]); ok {
					pl.Environ[k] = s
				}
			}
		}},
		{"startup_commands", []string{KindProtocol, KindBuiltin}, func(l *loader, p keyPath, v any, pl *Player) {
			cmds, ok := l.strList(p, v)
			if !ok {
				return
			}
			for i, s := range cmds {
				if strings.TrimSpace(s) == "" {
					l.errorf(p.At(i), "empty command")
				} else if strings.ContainsAny(s, "\r\n") {
					l.errorf(p.At(i), "command contains a line break")
				}
			}
			pl.StartupCommands = cmds
		}},
		{"discard_stderr", processKinds, func(l *loader, p keyPath, v any, pl *Player) {
			if b, ok := l.boolean(p, v); ok {
				pl.DiscardStderr = b
			}
		}},
		{"stderr_limit", processKinds, func(l *loader, p keyPath, v any, pl *Player) {
			if n, ok := (Value{l: l, p: p, raw: v}).Int(0, 1<<40); ok {
				pl.StderrLimit = int64(n)
			}
		}},
		{"timeout", anyKind, func(l *loader, p keyPath, v any, pl *Player) {
			if d, ok := l.duration(p, v); ok {
				pl.Timeout = d
			}
		}},
		{"gtp_aliases", []string{KindProtocol}, func(l *loader, p keyPath, v any, pl *Player) {
			aliases, ok := l.table(p, v)
			if !ok {
				return
			}
			pl.GTPAliases = map[string]string{}
			for _, k := range l.sortedKeys(p, aliases) {
				s, ok := l.str(p.Key(k), aliases[k])
				if !ok {
					continue
				}
				if strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\r\n") {
					l.errorf(p.Key(k), "must be one command word, got %q", s)
					continue
				}
				pl.GTPAliases[k] = s
			}
		}},
		{"is_reliable_scorer", anyKind, func(l *loader, p keyPath, v any, pl *Player) {
			if b, ok := l.boolean(p, v); ok {
				pl.ReliableScorer = b
			}
		}},
		{"allow_claim", anyKind, func(l *loader, p keyPath, v any, pl *Player) {
			if b, ok := l.boolean(p, v); ok {
				pl.AllowClaim = b
			}
		}},
		{"restart", []string{KindProtocol}, func(l *loader, p keyPath, v any, pl *Player) {
			s, ok := l.str(p, v)
			if !ok {
				return
			}
			modes := []string{RestartPerGame, RestartOnError, RestartNever}
			if !slices.Contains(modes, s) {
				l.errorf(p, "unknown restart %q (want %s)", s, orList(modes))
				return
			}
			pl.Restart = s
		}},
		{"batch_commands", []string{KindProtocol}, func(l *loader, p keyPath, v any, pl *Player) {
			if b, ok := l.boolean(p, v); ok {
				pl.Unbatched = !b
			}
		}},
		{"plies", []string{KindGnubg}, func(l *loader, p keyPath, v any, pl *Player) {
			if n, ok := (Value{l: l, p: p, raw: v}).Int(0, 100); ok {
				pl.Plies = n
			}
		}},
		{"noise", []string{KindGnubg}, func(l *loader, p keyPath, v any, pl *Player) {
			f, ok := l.float(p, v)
			switch {
			case !ok:
			case !(f >= 0 && f <= 1e6):
				l.errorf(p, "must be a non-negative number, got %v", f)
			default:
				pl.Noise = f
			}
		}},
		{"args", []string{KindBuiltin}, func(l *loader, p keyPath, v any, pl *Player) {
			if args, ok := l.strList(p, v); ok {
				pl.Args = args
			}
		}},
	}
}

// playerKeys lists every player key, of any kind.
func playerKeys() []string {
	keys := []string{"kind"}
	for _, s := range playerSettings() {
		keys = append(keys, s.key)
	}
	return keys
}

// playerKindKeys returns the keys a player of the given kind may set (the
// game's own player keys aside).
func playerKindKeys(kind string) []string {
	keys := []string{"kind"}
	for _, s := range playerSettings() {
		if slices.Contains(PlayerGameKeys(), s.key) {
			continue
		}
		if s.kinds == nil || slices.Contains(s.kinds, kind) {
			keys = append(keys, s.key)
		}
	}
	return keys
}

func (l *loader) player(p keyPath, code string, v any) *Player {
	if !isIdentifier(code) {
		l.errorf(p, "invalid player code %q: use %s", code, identifierChars)
	}
	t, ok := l.table(p, v)
	if !ok {
		return nil
	}
	errs := len(l.errs)
	pl := &Player{Code: code, Kind: KindProtocol, Timeout: DefaultTimeout, StderrLimit: DefaultStderrLimit, ReliableScorer: true,
		Restart: RestartPerGame}
	if v, ok := t["kind"]; ok {
		s, ok := l.str(p.Key("kind"), v)
		if !ok {
			return nil
		}
		kinds := []string{KindProtocol, KindGnubg, KindBuiltin, KindAgent}
		if l.game != nil {
			kinds = append([]string{KindProtocol}, l.game.PlayerKinds()...)
		}
		if !slices.Contains(kinds, s) {
			if slices.Contains([]string{KindGnubg, KindBuiltin, KindAgent}, s) {
				l.errorf(p.Key("kind"), "player kind %q is not offered for game %q (want %s)", s, l.game.Name(), orList(kinds))
			} else {
				l.errorf(p.Key("kind"), "unknown player kind %q (want %s)", s, orList(kinds))
			}
			return nil
		}
		pl.Kind = s
	}
	allowed := playerKindKeys(pl.Kind)
	if l.game != nil {
		allowed = append(allowed, l.game.PlayerKeys()...)
		for _, k := range PlayerGameKeys() {
			if _, ok := t[k]; ok && !slices.Contains(l.game.PlayerKeys(), k) {
				l.errorf(p.Key(k), "not allowed in a %s competition", l.game.Name())
				delete(t, k)
			}
		}
	}
	l.checkKeys(p, t, allowed, playerKeys(), fmt.Sprintf("not allowed for a player of kind %q", pl.Kind))
	for _, s := range playerSettings() {
		if v, ok := t[s.key]; ok && slices.Contains(allowed, s.key) {
			s.read(l, p.Key(s.key), v, pl)
		}
	}
	if pl.Restart != RestartPerGame && (slices.ContainsFunc(pl.Command, hasSeed) || slices.ContainsFunc(pl.StartupCommands, hasSeed)) {
		l.errorf(p.Key("restart"), "an engine kept between games would keep its first game's {seed}: use restart = %q with {seed}", RestartPerGame)
	}
	if (pl.Kind == KindProtocol || pl.Kind == KindAgent) && len(pl.Command) == 0 && t["command"] == nil {
		l.errorf(p.Key("command"), "required for a player of kind %q", pl.Kind)
	}
	if len(l.errs) > errs {
		return nil
	}
	return pl
}

func hasSeed(s string) bool { return strings.Contains(s, "{seed}") }

// command reads a command as a list of words or a string split like a
// shell would split it.
func (l *loader) command(p keyPath, v any) []string {
	var words []string
	switch v := v.(type) {
	case string:
		w, err := player.SplitCommand(v)
		if err != nil {
			l.errorf(p, "%v", err)
			return nil
		}
		words = w
	default:
		w, ok := l.strList(p, v)
		if !ok {
			return nil
		}
		words = w
	}
	if len(words) == 0 {
		l.errorf(p, "empty command")
		return nil
	}
	if words[0] == "" {
		l.errorf(p, "empty program name")
		return nil
	}
	return words
}
