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
	Plies      int      // KindGnubg only
	Noise      float64  // KindGnubg only
	Args       []string // KindBuiltin only
}

func playerKeys() []string {
	return []string{"kind", "command", "cwd", "environ", "startup_commands", "discard_stderr", "stderr_limit", "timeout", "gtp_aliases", "plies", "noise", "args"}
}

// playerKindKeys returns the keys a player of the given kind may set.
func playerKindKeys(kind string) []string {
	switch kind {
	case KindProtocol:
		return []string{"kind", "command", "cwd", "environ", "startup_commands", "discard_stderr", "stderr_limit", "timeout", "gtp_aliases"}
	case KindGnubg:
		return []string{"kind", "command", "cwd", "environ", "discard_stderr", "stderr_limit", "timeout", "plies", "noise"}
	case KindBuiltin:
		return []string{"kind", "args", "startup_commands", "timeout"}
	}
	return playerKeys()
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
	pl := &Player{Code: code, Kind: KindProtocol, Timeout: DefaultTimeout, StderrLimit: DefaultStderrLimit, ReliableScorer: true}
	if v, ok := t["kind"]; ok {
		if s, ok := l.str(p.Key("kind"), v); ok {
			kinds := []string{KindProtocol, KindGnubg, KindBuiltin}
			if l.game != nil {
				kinds = append([]string{KindProtocol}, l.game.PlayerKinds()...)
			}
			if !slices.Contains(kinds, s) {
				if slices.Contains([]string{KindGnubg, KindBuiltin}, s) {
					l.errorf(p.Key("kind"), "player kind %q is not offered for game %q (want %s)", s, l.game.Name(), orList(kinds))
				} else {
					l.errorf(p.Key("kind"), "unknown player kind %q (want %s)", s, orList(kinds))
				}
				return nil
			}
			pl.Kind = s
		} else {
			return nil
		}
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
	for _, b := range []struct {
		key string
		dst *bool
	}{{"is_reliable_scorer", &pl.ReliableScorer}, {"allow_claim", &pl.AllowClaim}} {
		if v, ok := t[b.key]; ok {
			if x, ok := l.boolean(p.Key(b.key), v); ok {
				*b.dst = x
			}
		}
	}
	if v, ok := t["gtp_aliases"]; ok {
		if aliases, ok := l.table(p.Key("gtp_aliases"), v); ok {
			pl.GTPAliases = map[string]string{}
			for _, k := range l.sortedKeys(p.Key("gtp_aliases"), aliases) {
				if s, ok := l.str(p.Key("gtp_aliases").Key(k), aliases[k]); ok {
					if strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\r\n") {
						l.errorf(p.Key("gtp_aliases").Key(k), "must be one command word, got %q", s)
						continue
					}
					pl.GTPAliases[k] = s
				}
			}
		}
	}

	if v, ok := t["command"]; ok {
		pl.Command = l.command(p.Key("command"), v)
	} else if pl.Kind == KindProtocol {
		l.errorf(p.Key("command"), "required for a player of kind %q", KindProtocol)
	}
	if len(pl.Command) > 0 && strings.Contains(pl.Command[0], "/") {
		pl.Command[0] = l.resolve(pl.Command[0])
	}
	if v, ok := t["cwd"]; ok {
		if s, ok := l.str(p.Key("cwd"), v); ok {
			if s == "" {
				l.errorf(p.Key("cwd"), "empty directory")
			} else {
				pl.Cwd = l.resolve(s)
				if l.checkFiles {
					if fi, err := os.Stat(pl.Cwd); err != nil {
						l.errorf(p.Key("cwd"), "directory %s: %v", pl.Cwd, errors.Unwrap(err))
					} else if !fi.IsDir() {
						l.errorf(p.Key("cwd"), "%s is not a directory", pl.Cwd)
					}
				}
			}
		}
	}
	if v, ok := t["environ"]; ok {
		if env, ok := l.table(p.Key("environ"), v); ok {
			pl.Environ = make(map[string]string, len(env))
			for _, k := range l.sortedKeys(p.Key("environ"), env) {
				kp := p.Key("environ").Key(k)
				if k == "" || strings.ContainsAny(k, "=\x00") {
					l.errorf(kp, "invalid environment variable name")
					continue
				}
				if s, ok := l.str(kp, env[k]); ok {
					pl.Environ[k] = s
				}
			}
		}
	}
	if v, ok := t["startup_commands"]; ok {
		if cmds, ok := l.strList(p.Key("startup_commands"), v); ok {
			for i, s := range cmds {
				if strings.TrimSpace(s) == "" {
					l.errorf(p.Key("startup_commands").At(i), "empty command")
				} else if strings.ContainsAny(s, "\r\n") {
					l.errorf(p.Key("startup_commands").At(i), "command contains a line break")
				}
			}
			pl.StartupCommands = cmds
		}
	}
	if v, ok := t["discard_stderr"]; ok {
		if b, ok := l.boolean(p.Key("discard_stderr"), v); ok {
			pl.DiscardStderr = b
		}
	}
	if v, ok := t["timeout"]; ok {
		if d, ok := l.duration(p.Key("timeout"), v); ok {
			pl.Timeout = d
		}
	}
	if v, ok := t["stderr_limit"]; ok {
		if n, ok := (Value{l: l, p: p.Key("stderr_limit"), raw: v}).Int(0, 1<<40); ok {
			pl.StderrLimit = int64(n)
		}
	}
	if v, ok := t["plies"]; ok {
		if n, ok := l.integer(p.Key("plies"), v); ok {
			if n < 0 || n > 100 {
				l.errorf(p.Key("plies"), "must be between 0 and 100, got %d", n)
			} else {
				pl.Plies = int(n)
			}
		}
	}
	if v, ok := t["noise"]; ok {
		if f, ok := l.float(p.Key("noise"), v); ok {
			if !(f >= 0 && f <= 1e6) {
				l.errorf(p.Key("noise"), "must be a non-negative number, got %v", f)
			} else {
				pl.Noise = f
			}
		}
	}
	if v, ok := t["args"]; ok {
		if args, ok := l.strList(p.Key("args"), v); ok {
			pl.Args = args
		}
	}
	if len(l.errs) > errs {
		return nil
	}
	return pl
}

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
