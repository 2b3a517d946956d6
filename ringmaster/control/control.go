// Package control loads and validates a ringmaster control file: the TOML
// file that defines a competition, its players and its matchups.
//
// A control file looks like this:
//
//	competition_type = "playoff"
//	game = "backgammon"
//	description = "net against gnubg"
//	seed = 7
//	number_of_games = 100
//	match_length = 7
//	dice = "paired"
//
//	[players.net]
//	kind = "builtin"
//	args = ["--level", "net", "--plies", "0"]
//
//	[players.gnubg0]
//	kind = "gnubg"
//	plies = 0
//
//	[[matchups]]
//	players = ["net", "gnubg0"]
//
// Top-level keys: competition_type ("playoff" or "allplayall", required),
// game (required: one of the games the program registers, e.g.
// "backgammon"), description, seed (integer, default 0), record_games
// (default true), players (required), and the matchup settings below as
// defaults for every matchup. A playoff adds matchups (required),
// number_of_games and alternating (defaults for its matchups); an
// all-play-all adds competitors and rounds (both required).
//
// Player keys ([players.CODE]; codes are letters, digits and
// -!$%&*+.:;<=>?^_~): kind ("protocol", the default, "gnubg" or
// "builtin"), timeout (per decision: "30s" or a number of seconds; default
// 60s), and by kind:
//
//	protocol: command (required: a list, or a string split as a shell
//	          would), cwd, environ, startup_commands, discard_stderr
//	gnubg:    command (optional: overrides the gnubg binary), cwd,
//	          environ, discard_stderr, plies, noise
//	builtin:  args, startup_commands
//
// Matchup keys ([[matchups]]): players (two codes, required; a player may
// play itself, the second copy being named "CODE#2"), id (default the
// index), name (default "A v B"), number_of_games (required here or at top
// level), alternating (default false), move_limit (1000; the old name
// max_moves is accepted with a warning), sprt, and any of the game's
// settings, which each game lists in its own table (see Game).
//
// Unknown keys are errors. Parse and Load report every problem they find as
// an ErrorList; each message names the file, the line and the key, e.g.
// `quick.toml:12: matchups[1].players: unknown player "x"`.
package control

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gamemill/gamemill/competitions"
	"github.com/gamemill/gamemill/player"
)

// Competition types.
const (
	Playoff    = "playoff"
	AllPlayAll = "allplayall"
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

// Competition is a loaded and validated control file.
type Competition struct {
	Path string // the name the file was loaded under
	Code string // the file name without its extension
	Dir  string // the absolute directory holding the file
	Type string // Playoff or AllPlayAll
	Game string // the game's name
	// KeyLines maps key paths ("matchups[1].match_length") to their lines,
	// for messages about the file after it is loaded.
	KeyLines map[string]int
	// Warnings are problems that do not stop the competition, such as a
	// deprecated key; the command prints them.
	Warnings    []string
	Description string // whitespace-trimmed
	Seed        int64
	// Players holds every player defined, by code. A matchup of a player
	// against itself adds a copy of the player under the code "X#2".
	Players map[string]*Player
	// Matchups in control-file order; for an all-play-all, the derived
	// pairs AvB, AvC, ..., BvC, ...
	Matchups []*Matchup
	// Competitors is the all-play-all's competitor list, in order; the
	// competitor at index i has the letter CompetitorLetter(i).
	Competitors []string
	RecordGames bool
}

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

// Matchup is a pair of players and the settings of their games.
type Matchup struct {
	// Path is the matchup's table in the control file ("matchups[1]"), or
	// empty for a matchup derived from top-level keys (all-play-all).
	Path    string
	ID      string
	Name    string
	PlayerA string
	PlayerB string
	// NumberOfGames is how many games to play; 0 disables the matchup
	// but keeps its results.
	NumberOfGames int
	// Alternating swaps the seats in odd-numbered games.
	Alternating bool
	// MoveLimit ends a game with no winner after this many moves.
	MoveLimit int
	// SPRT, when set, stops the matchup early once a sequential
	// probability ratio test decides between its two hypotheses.
	SPRT *SPRT
	// Settings are the game's own settings, read by the game's table.
	Settings GameSettings
}

// DefaultMoveLimit is a matchup's move limit when the control file sets
// none (gomill's default).
const DefaultMoveLimit = 1000

// matchupDefaults are the top-level values every matchup starts from.
type matchupDefaults struct {
	settings  GameSettings
	moveLimit int
	sprt      *SPRT
}

// SPRT is a sequential test of the first player's strength against the
// second's, in Elo from game (or match) wins: H0 says the difference is
// Elo0, H1 says Elo1; Alpha and Beta are the error rates allowed.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Where names the place in the control file that sets key for matchup m:
// "file:line: matchups[1].key" when the matchup's table sets it,
// "file:line: key" when the top level does, else the matchup's table.
func (c *Competition) Where(m *Matchup, key string) string {
	var candidates []string
	if m.Path != "" {
		candidates = append(candidates, m.Path+"."+key)
	}
	candidates = append(candidates, key)
	if m.Path != "" {
		candidates = append(candidates, m.Path)
	}
	for _, k := range candidates {
		if line, ok := c.KeyLines[k]; ok {
			return fmt.Sprintf("%s:%d: %s", c.Path, line, k)
		}
	}
	return fmt.Sprintf("%s: %s", c.Path, key)
}

// Plans returns the matchups as the competitions package schedules them.
func (c *Competition) Plans() []competitions.MatchupPlan {
	plans := make([]competitions.MatchupPlan, len(c.Matchups))
	for i, m := range c.Matchups {
		plans[i] = competitions.MatchupPlan{
			ID:            m.ID,
			PlayerA:       m.PlayerA,
			PlayerB:       m.PlayerB,
			NumberOfGames: m.NumberOfGames,
			Alternating:   m.Alternating,
			Paired:        m.Settings.PairedGames(),
		}
	}
	return plans
}

// CompetitorLetter returns the all-play-all letter of the competitor at
// index i: A to Z, then AA, AB, ... (as gomill).
func CompetitorLetter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return string(rune('A'+i/26-1)) + string(rune('A'+i%26))
}

// MaxCompetitors is the number of competitors that two letters can name.
const MaxCompetitors = 26 * 27

// OutputSuffixes lists what the ringmaster writes beside a control file
// CODE.toml, as suffixes of CODE: its files (the database and SQLite's side
// files among them) and its directories. It is the one list of outputs.
func OutputSuffixes() []string {
	return []string{".db", ".db-wal", ".db-shm", ".db-journal", ".log", ".cmd", ".report", ".lock", ".engines",
		".games", ".void", ".protocol"}
}

// ForbiddenExtension reports whether ext (with its dot) may not be a
// control file's extension because the ringmaster writes a file or
// directory with that suffix beside the control file: a control file with
// it could be taken for, or overwritten by, an output.
func ForbiddenExtension(ext string) bool {
	return slices.Contains(OutputSuffixes(), ext)
}

// Load reads and parses the control file at path; games are the games the
// program offers.
func Load(path string, games ...Game) (*Competition, error) {
	if ext := filepath.Ext(path); ForbiddenExtension(ext) {
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("forbidden control file extension %q (the ringmaster writes files ending so)", ext)}}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("control file %s not found", path)
		}
		return nil, err
	}
	return parse(path, data, true, games)
}

// Parse parses a control file's contents. name is the file's path: it gives
// the competition code and directory and prefixes error messages.
func Parse(name string, data []byte, games ...Game) (*Competition, error) {
	return parse(name, data, false, games)
}

func parse(name string, data []byte, checkFiles bool, games []Game) (*Competition, error) {
	ext := filepath.Ext(name)
	if ForbiddenExtension(ext) {
		return nil, ErrorList{{File: name, Msg: fmt.Sprintf("forbidden control file extension %q (the ringmaster writes files ending so)", ext)}}
	}
	code := strings.TrimSuffix(filepath.Base(name), ext)
	if code == "" || code == "." || code == string(filepath.Separator) {
		return nil, ErrorList{{File: name, Msg: "control file name gives an empty competition code"}}
	}
	dir, err := filepath.Abs(filepath.Dir(name))
	if err != nil {
		dir = filepath.Dir(name)
	}
	l := &loader{file: name, dir: dir, games: games, checkFiles: checkFiles}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, ErrorList{l.tomlError(err)}
	}
	l.lines = keyLines(string(data))
	c := &Competition{Path: name, Code: code, Dir: dir}
	l.competition(c, doc)
	c.Warnings = l.warns
	c.KeyLines = l.lines
	if len(l.errs) > 0 {
		sort.SliceStable(l.errs, func(i, j int) bool { return l.errs[i].Line < l.errs[j].Line })
		return nil, l.errs
	}
	return c, nil
}

// loader collects the errors found while checking a decoded document.
type loader struct {
	file  string
	dir   string
	games []Game
	game  Game // the competition's game, once known
	// checkFiles makes the checks that look at the file system (a
	// player's cwd exists); Load sets it, Parse alone does not.
	checkFiles bool
	lines      map[string]int
	errs       ErrorList
	warns      []string
}

func (l *loader) tomlError(err error) *Error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{File: l.file, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
	}
	var ppe *toml.ParseError
	if errors.As(err, &ppe) {
		return &Error{File: l.file, Line: ppe.Position.Line, Key: ppe.LastKey, Msg: ppe.Message}
	}
	return &Error{File: l.file, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
}

// lineOf returns the line of p, or of its nearest ancestor with a known
// line.
func (l *loader) lineOf(p keyPath) int {
	for n := len(p); n > 0; n-- {
		if line, ok := l.lines[p[:n].String()]; ok {
			return line
		}
	}
	return 0
}

func (l *loader) errorf(p keyPath, format string, args ...any) {
	l.errs = append(l.errs, &Error{File: l.file, Line: l.lineOf(p), Key: p.String(), Msg: fmt.Sprintf(format, args...)})
}

// Keys that may appear in each kind of table. They are functions, not
// package variables, so that nothing can change them.
func matchupSettingKeys() []string { return []string{"move_limit", "max_moves", "sprt"} }
func commonKeys() []string {
	return []string{"competition_type", "game", "description", "seed", "players", "record_games"}
}
func playoffKeys() []string    { return []string{"matchups", "number_of_games", "alternating"} }
func allPlayAllKeys() []string { return []string{"competitors", "rounds"} }
func matchupKeys() []string {
	return []string{"players", "id", "name", "number_of_games", "alternating"}
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

// sortedKeys returns t's keys in file order (then by name).
func (l *loader) sortedKeys(p keyPath, t map[string]any) []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		li, lj := l.lineOf(p.key(keys[i])), l.lineOf(p.key(keys[j]))
		if li != lj {
			return li < lj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// checkKeys reports keys of t that are not in allowed. A key in known but
// not in allowed is reported with why; others are unknown.
func (l *loader) checkKeys(p keyPath, t map[string]any, allowed, known []string, why string) {
	for _, k := range l.sortedKeys(p, t) {
		switch {
		case slices.Contains(allowed, k):
		case slices.Contains(known, k):
			l.errorf(p.key(k), "%s", why)
		default:
			l.errorf(p.key(k), "unknown key")
		}
	}
}

func (l *loader) competition(c *Competition, doc map[string]any) {
	var root keyPath

	// competition_type decides which keys are allowed.
	if v, ok := doc["competition_type"]; !ok {
		l.errorf(root.key("competition_type"), "required (%q or %q)", Playoff, AllPlayAll)
	} else if s, ok := l.str(root.key("competition_type"), v); ok {
		switch s {
		case Playoff, AllPlayAll:
			c.Type = s
		default:
			l.errorf(root.key("competition_type"), "unknown competition type %q (want %q or %q)", s, Playoff, AllPlayAll)
		}
	}
	var names []string
	for _, g := range l.games {
		names = append(names, g.Name())
	}
	if v, ok := doc["game"]; !ok {
		l.errorf(root.key("game"), "required (%s)", orList(names))
	} else if s, ok := l.str(root.key("game"), v); ok {
		for _, g := range l.games {
			if g.Name() == s {
				l.game = g
				c.Game = s
			}
		}
		if l.game == nil {
			l.errorf(root.key("game"), "unknown game %q (want %s)", s, orList(names))
		}
	}
	allowed := append(commonKeys(), matchupSettingKeys()...)
	if l.game != nil {
		allowed = append(allowed, settingKeys(l.game)...)
	}
	known := append(playoffKeys(), allPlayAllKeys()...)
	switch c.Type {
	case Playoff:
		l.checkKeys(root, doc, append(allowed, playoffKeys()...), known, "not allowed in a playoff competition")
	case AllPlayAll:
		l.checkKeys(root, doc, append(allowed, allPlayAllKeys()...), known, "not allowed in an allplayall competition")
	case "":
		if l.game != nil {
			l.checkKeys(root, doc, append(allowed, known...), nil, "")
		}
	}

	if v, ok := doc["description"]; ok {
		if s, ok := l.str(root.key("description"), v); ok {
			c.Description = strings.TrimSpace(s)
		}
	}
	if v, ok := doc["seed"]; ok {
		if n, ok := l.integer(root.key("seed"), v); ok {
			c.Seed = n
		}
	}
	c.RecordGames = true
	if v, ok := doc["record_games"]; ok {
		if b, ok := l.boolean(root.key("record_games"), v); ok {
			c.RecordGames = b
		}
	}

	c.Players = make(map[string]*Player)
	if v, ok := doc["players"]; !ok {
		l.errorf(root.key("players"), "required: define players in [players.CODE] tables")
	} else if t, ok := l.table(root.key("players"), v); ok {
		if len(t) == 0 {
			l.errorf(root.key("players"), "no players defined")
		}
		for _, code := range l.sortedKeys(root.key("players"), t) {
			if p := l.player(root.key("players").key(code), code, t[code]); p != nil {
				c.Players[code] = p
			}
		}
	}
	// Validate matchups against the player codes defined, even the ones
	// whose definitions have errors, so that one mistake is not reported
	// twice.
	defined := func(code string) bool {
		t, _ := doc["players"].(map[string]any)
		_, ok := t[code]
		return ok
	}

	if l.game == nil {
		return
	}
	defaults := l.matchupSettings(root, doc, matchupDefaults{settings: l.game.DefaultSettings(), moveLimit: DefaultMoveLimit})
	switch c.Type {
	case Playoff:
		l.playoff(c, doc, defaults, defined)
	case AllPlayAll:
		l.allPlayAll(c, doc, defaults, defined)
	}
}

// isIdentifier reports whether s is a valid player code or matchup id:
// non-empty, of ASCII letters, digits and -!$%&*+.:;<=>?^_~ (as gomill).
func isIdentifier(s string) bool {
	if s == "" || len(s) > MaxIdentifier {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			continue
		}
		if !strings.ContainsRune("-!$%&*+.:;<=>?^_~", rune(c)) {
			return false
		}
	}
	return true
}

// MaxIdentifier is the longest player code or matchup id: game ids and
// record file names are built from them, and file systems take 255 bytes
// a name.
const MaxIdentifier = 64

const identifierChars = "at most 64 letters, digits and -!$%&*+.:;<=>?^_~"

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
		if s, ok := l.str(p.key("kind"), v); ok {
			kinds := []string{KindProtocol, KindGnubg, KindBuiltin}
			if l.game != nil {
				kinds = append([]string{KindProtocol}, l.game.PlayerKinds()...)
			}
			if !slices.Contains(kinds, s) {
				if slices.Contains([]string{KindGnubg, KindBuiltin}, s) {
					l.errorf(p.key("kind"), "player kind %q is not offered for game %q (want %s)", s, l.game.Name(), orList(kinds))
				} else {
					l.errorf(p.key("kind"), "unknown player kind %q (want %s)", s, orList(kinds))
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
				l.errorf(p.key(k), "not allowed in a %s competition", l.game.Name())
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
			if x, ok := l.boolean(p.key(b.key), v); ok {
				*b.dst = x
			}
		}
	}
	if v, ok := t["gtp_aliases"]; ok {
		if aliases, ok := l.table(p.key("gtp_aliases"), v); ok {
			pl.GTPAliases = map[string]string{}
			for _, k := range l.sortedKeys(p.key("gtp_aliases"), aliases) {
				if s, ok := l.str(p.key("gtp_aliases").key(k), aliases[k]); ok {
					if strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\r\n") {
						l.errorf(p.key("gtp_aliases").key(k), "must be one command word, got %q", s)
						continue
					}
					pl.GTPAliases[k] = s
				}
			}
		}
	}

	if v, ok := t["command"]; ok {
		pl.Command = l.command(p.key("command"), v)
	} else if pl.Kind == KindProtocol {
		l.errorf(p.key("command"), "required for a player of kind %q", KindProtocol)
	}
	if len(pl.Command) > 0 && strings.Contains(pl.Command[0], "/") {
		pl.Command[0] = l.resolve(pl.Command[0])
	}
	if v, ok := t["cwd"]; ok {
		if s, ok := l.str(p.key("cwd"), v); ok {
			if s == "" {
				l.errorf(p.key("cwd"), "empty directory")
			} else {
				pl.Cwd = l.resolve(s)
				if l.checkFiles {
					if fi, err := os.Stat(pl.Cwd); err != nil {
						l.errorf(p.key("cwd"), "directory %s: %v", pl.Cwd, errors.Unwrap(err))
					} else if !fi.IsDir() {
						l.errorf(p.key("cwd"), "%s is not a directory", pl.Cwd)
					}
				}
			}
		}
	}
	if v, ok := t["environ"]; ok {
		if env, ok := l.table(p.key("environ"), v); ok {
			pl.Environ = make(map[string]string, len(env))
			for _, k := range l.sortedKeys(p.key("environ"), env) {
				kp := p.key("environ").key(k)
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
		if cmds, ok := l.strList(p.key("startup_commands"), v); ok {
			for i, s := range cmds {
				if strings.TrimSpace(s) == "" {
					l.errorf(p.key("startup_commands").at(i), "empty command")
				} else if strings.ContainsAny(s, "\r\n") {
					l.errorf(p.key("startup_commands").at(i), "command contains a line break")
				}
			}
			pl.StartupCommands = cmds
		}
	}
	if v, ok := t["discard_stderr"]; ok {
		if b, ok := l.boolean(p.key("discard_stderr"), v); ok {
			pl.DiscardStderr = b
		}
	}
	if v, ok := t["timeout"]; ok {
		if d, ok := l.duration(p.key("timeout"), v); ok {
			pl.Timeout = d
		}
	}
	if v, ok := t["stderr_limit"]; ok {
		if n, ok := (Value{l: l, p: p.key("stderr_limit"), raw: v}).Int(0, 1<<40); ok {
			pl.StderrLimit = int64(n)
		}
	}
	if v, ok := t["plies"]; ok {
		if n, ok := l.integer(p.key("plies"), v); ok {
			if n < 0 || n > 100 {
				l.errorf(p.key("plies"), "must be between 0 and 100, got %d", n)
			} else {
				pl.Plies = int(n)
			}
		}
	}
	if v, ok := t["noise"]; ok {
		if f, ok := l.float(p.key("noise"), v); ok {
			if !(f >= 0 && f <= 1e6) {
				l.errorf(p.key("noise"), "must be a non-negative number, got %v", f)
			} else {
				pl.Noise = f
			}
		}
	}
	if v, ok := t["args"]; ok {
		if args, ok := l.strList(p.key("args"), v); ok {
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

// resolve expands a leading ~ and makes a relative path relative to the
// control file's directory.
func (l *loader) resolve(path string) string {
	if path == "~" || strings.HasPrefix(path, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[1:])
		}
	}
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(l.dir, path)
}

// matchupSettings applies the settings present in t (the generic ones and
// the game's) over d.
func (l *loader) matchupSettings(p keyPath, t map[string]any, d matchupDefaults) matchupDefaults {
	limitKey := "move_limit"
	if _, ok := t["max_moves"]; ok {
		if _, both := t["move_limit"]; both {
			l.errorf(p.key("max_moves"), "set either move_limit or its old name max_moves, not both")
		} else {
			limitKey = "max_moves"
			l.warns = append(l.warns, fmt.Sprintf("%s:%d: %s: deprecated: use move_limit (gomill's name)",
				l.file, l.lineOf(p.key("max_moves")), p.key("max_moves")))
		}
	}
	if v, ok := t[limitKey]; ok {
		if n, ok := (Value{l: l, p: p.key(limitKey), raw: v}).Int(1, 1_000_000); ok {
			d.moveLimit = n
		}
	}
	if v, ok := t["sprt"]; ok {
		d.sprt = l.sprt(p.key("sprt"), v)
	}
	d.settings = l.readSettings(l.game, p, t, d.settings)
	return d
}

// checkSettings makes the game's checks that involve several keys, and
// the generic ones, on a matchup's settings; problems are reported
// against the key in the matchup's table p (its line, or the matchup's
// when the value came from the top level).
func (l *loader) checkSettings(p keyPath, t map[string]any, m *Matchup) {
	report := func(key, format string, args ...any) { l.errorf(p.key(key), format, args...) }
	m.Settings.Check(report)
	if m.Settings.PairedGames() && m.NumberOfGames%2 != 0 {
		report("number_of_games", "paired games need an even number of games, got %d", m.NumberOfGames)
	}
}

// numberOfGames reads a non-negative game count.
func (l *loader) numberOfGames(p keyPath, v any) (int, bool) {
	n, ok := l.integer(p, v)
	if !ok {
		return 0, false
	}
	if n < 0 || n > 1_000_000_000 {
		l.errorf(p, "must be between 0 and 1000000000, got %d", n)
		return 0, false
	}
	return int(n), true
}

func (l *loader) playoff(c *Competition, doc map[string]any, defaults matchupDefaults, defined func(string) bool) {
	var root keyPath
	defaultGames, haveDefaultGames := 0, false
	if v, ok := doc["number_of_games"]; ok {
		defaultGames, haveDefaultGames = l.numberOfGames(root.key("number_of_games"), v)
	}
	defaultAlternating := false
	if v, ok := doc["alternating"]; ok {
		if b, ok := l.boolean(root.key("alternating"), v); ok {
			defaultAlternating = b
		}
	}
	mp := root.key("matchups")
	v, ok := doc["matchups"]
	if !ok {
		l.errorf(mp, "required: a playoff needs at least one [[matchups]] entry")
		return
	}
	tables, ok := l.tableList(mp, v)
	if !ok {
		return
	}
	if len(tables) == 0 {
		l.errorf(mp, "empty list: a playoff needs at least one matchup")
		return
	}
	firstUse := make(map[string]int) // matchup id → index
	for i, t := range tables {
		p := mp.at(i)
		l.checkKeys(p, t, append(append(matchupKeys(), matchupSettingKeys()...), settingKeys(l.game)...), nil, "")
		errs := len(l.errs)
		m := &Matchup{Path: p.String(), ID: strconv.Itoa(i), NumberOfGames: defaultGames, Alternating: defaultAlternating}

		if v, ok := t["players"]; !ok {
			l.errorf(p.key("players"), "required: a list of two player codes")
		} else if codes, ok := l.strList(p.key("players"), v); ok {
			if len(codes) != 2 {
				l.errorf(p.key("players"), "must list two player codes, got %d", len(codes))
			} else {
				for _, code := range codes {
					if !defined(code) {
						l.errorf(p.key("players"), "unknown player %q", code)
					}
				}
				m.PlayerA, m.PlayerB = codes[0], codes[1]
			}
		}
		if v, ok := t["id"]; ok {
			if s, ok := l.str(p.key("id"), v); ok {
				if !isIdentifier(s) {
					l.errorf(p.key("id"), "invalid matchup id %q: use %s", s, identifierChars)
				}
				m.ID = s
			}
		}
		if j, dup := firstUse[m.ID]; dup {
			l.errorf(p.key("id"), "duplicate matchup id %q (also used by matchups[%d])", m.ID, j)
		} else {
			firstUse[m.ID] = i
		}
		if v, ok := t["number_of_games"]; ok {
			if n, ok := l.numberOfGames(p.key("number_of_games"), v); ok {
				m.NumberOfGames = n
			}
		} else if !haveDefaultGames {
			if _, set := doc["number_of_games"]; !set {
				l.errorf(p.key("number_of_games"), "required: set it here or at top level")
			}
		}
		if v, ok := t["alternating"]; ok {
			if b, ok := l.boolean(p.key("alternating"), v); ok {
				m.Alternating = b
			}
		}
		ms := l.matchupSettings(p, t, defaults)
		m.Settings, m.MoveLimit, m.SPRT = ms.settings, ms.moveLimit, ms.sprt
		l.checkSettings(p, t, m)
		if v, ok := t["name"]; ok {
			if s, ok := l.str(p.key("name"), v); ok {
				m.Name = strings.TrimSpace(s)
			}
		}
		if len(l.errs) > errs {
			continue
		}
		if m.PlayerA == m.PlayerB {
			self := m.PlayerA + "#2"
			if orig, ok := c.Players[m.PlayerA]; ok {
				cp := *orig
				cp.Code = self
				c.Players[self] = &cp
			}
			m.PlayerB = self
		}
		if m.Name == "" {
			m.Name = m.PlayerA + " v " + m.PlayerB
		}
		c.Matchups = append(c.Matchups, m)
	}
}

func (l *loader) allPlayAll(c *Competition, doc map[string]any, defaults matchupDefaults, defined func(string) bool) {
	var root keyPath
	cp := root.key("competitors")
	if v, ok := doc["competitors"]; !ok {
		l.errorf(cp, "required: a list of player codes")
	} else if codes, ok := l.strList(cp, v); ok {
		if len(codes) < 2 {
			l.errorf(cp, "an all-play-all needs at least two competitors, got %d", len(codes))
		}
		if len(codes) > MaxCompetitors {
			l.errorf(cp, "too many competitors: %d (at most %d)", len(codes), MaxCompetitors)
		}
		seen := make(map[string]bool)
		for i, code := range codes {
			switch {
			case seen[code]:
				l.errorf(cp.at(i), "duplicate competitor %q", code)
			case !defined(code):
				l.errorf(cp.at(i), "unknown player %q", code)
			}
			seen[code] = true
		}
		c.Competitors = codes
	}
	rounds, haveRounds := 0, false
	if v, ok := doc["rounds"]; !ok {
		l.errorf(root.key("rounds"), "required: the number of games for each pair of competitors")
	} else {
		rounds, haveRounds = l.numberOfGames(root.key("rounds"), v)
	}
	if haveRounds && defaults.settings.PairedGames() && rounds%2 != 0 {
		l.errorf(root.key("rounds"), "paired games need an even number of rounds, got %d", rounds)
	}
	defaults.settings.Check(func(key, format string, args ...any) { l.errorf(root.key(key), format, args...) })
	if len(l.errs) > 0 {
		return
	}
	for i, a := range c.Competitors {
		for j := i + 1; j < len(c.Competitors); j++ {
			b := c.Competitors[j]
			c.Matchups = append(c.Matchups, &Matchup{
				ID:            CompetitorLetter(i) + "v" + CompetitorLetter(j),
				Name:          a + " v " + b,
				PlayerA:       a,
				PlayerB:       b,
				NumberOfGames: rounds,
				Alternating:   true,
				MoveLimit:     defaults.moveLimit,
				SPRT:          defaults.sprt,
				Settings:      defaults.settings.Clone(),
			})
		}
	}
}

// sprt reads a table {elo0, elo1, alpha, beta}; alpha and beta default to
// 0.05.
func (l *loader) sprt(p keyPath, v any) *SPRT {
	t, ok := l.table(p, v)
	if !ok {
		return nil
	}
	l.checkKeys(p, t, []string{"elo0", "elo1", "alpha", "beta"}, nil, "")
	out := &SPRT{Alpha: 0.05, Beta: 0.05}
	fields := []struct {
		key      string
		dst      *float64
		required bool
	}{{"elo0", &out.Elo0, true}, {"elo1", &out.Elo1, true}, {"alpha", &out.Alpha, false}, {"beta", &out.Beta, false}}
	valid := true
	for _, f := range fields {
		x, present := t[f.key]
		if !present {
			if f.required {
				l.errorf(p.key(f.key), "required")
				valid = false
			}
			continue
		}
		n, ok := l.float(p.key(f.key), x)
		if !ok {
			valid = false
			continue
		}
		*f.dst = n
	}
	if !valid {
		return nil
	}
	if out.Elo1 <= out.Elo0 {
		l.errorf(p.key("elo1"), "must be greater than elo0 (%g), got %g", out.Elo0, out.Elo1)
		return nil
	}
	for _, e := range []struct {
		key string
		x   float64
	}{{"alpha", out.Alpha}, {"beta", out.Beta}} {
		if e.x <= 0 || e.x >= 0.5 {
			l.errorf(p.key(e.key), "must be between 0 and 0.5, got %g", e.x)
			return nil
		}
	}
	return out
}
