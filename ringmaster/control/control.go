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
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/gamemill/gamemill/internal/tomlcheck"
	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/contests"
)

// Competition is a loaded and validated control file.
type Competition struct {
	Path string // the name the file was loaded under
	Code string // the file name without its extension
	Dir  string // the absolute directory holding the file
	Type string // the competition type's name (competition_type)
	// Contest is the competition type, from contests.All.
	Contest contest.Type
	// Planner, when set, says which matchups there are from the results
	// (a knockout); Matchups is then empty, and Expand makes a planned
	// matchup with the top-level settings.
	Planner contest.Planner
	// Proposer, when set, proposes the games one at a time (a tuner);
	// Matchups is then empty, and Candidate makes the players it names.
	Proposer  contest.Proposer
	candidate *Player
	defaults  matchupDefaults

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
	// competitor at index i has the letter allplayall.Letter(i).
	Competitors []string
	RecordGames bool
	// LuckAdjust has each game judged as it ends (at 0 ply, where the
	// game offers analysis) so that reports give luck-adjusted points per
	// game beside the raw ones.
	LuckAdjust bool
	// LuckJudge is the judge of the luck adjustment (luck_adjust, and
	// luck-adjusted sequential tests and tuners) as the user names it,
	// ENGINE or ENGINE:PLIES ("gnubg:0"); empty is the game's default
	// judge at 0 ply.
	LuckJudge string
}

// JudgesGames reports whether a run judges m's games as they end: with
// luck_adjust, or when m's sequential test reads luck-adjusted results.
func (c *Competition) JudgesGames(m *Matchup) bool {
	return c.LuckAdjust || (m.SPRT != nil && m.SPRT.LuckAdjusted)
}

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
	l.lines = tomlcheck.Lines(string(data))
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

func commonKeys() []string {
	return []string{"competition_type", "game", "description", "seed", "players", "record_games", "luck_adjust", "luck_judge"}
}

// sortedKeys returns t's keys in file order (then by name).
func (l *loader) sortedKeys(p keyPath, t map[string]any) []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		li, lj := l.lineOf(p.Key(keys[i])), l.lineOf(p.Key(keys[j]))
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
			l.errorf(p.Key(k), "%s", why)
		default:
			l.errorf(p.Key(k), "unknown key")
		}
	}
}

func (l *loader) competition(c *Competition, doc map[string]any) {
	var root keyPath

	// competition_type decides which keys are allowed.
	types := contests.All()
	var typeNames, typeKeys []string
	for _, t := range types {
		typeNames = append(typeNames, t.Name())
		for _, k := range t.Keys() {
			if !slices.Contains(typeKeys, k) {
				typeKeys = append(typeKeys, k)
			}
		}
	}
	if v, ok := doc["competition_type"]; !ok {
		l.errorf(root.Key("competition_type"), "required (%s)", orList(typeNames))
	} else if s, ok := l.str(root.Key("competition_type"), v); ok {
		for _, t := range types {
			if t.Name() == s {
				c.Type, c.Contest = s, t
			}
		}
		if c.Contest == nil {
			l.errorf(root.Key("competition_type"), "unknown competition type %q (want %s)", s, orList(typeNames))
		}
	}
	var names []string
	for _, g := range l.games {
		names = append(names, g.Name())
	}
	if v, ok := doc["game"]; !ok {
		l.errorf(root.Key("game"), "required (%s)", orList(names))
	} else if s, ok := l.str(root.Key("game"), v); ok {
		for _, g := range l.games {
			if g.Name() == s {
				l.game = g
				c.Game = s
			}
		}
		if l.game == nil {
			l.errorf(root.Key("game"), "unknown game %q (want %s)", s, orList(names))
		}
	}
	allowed := append(commonKeys(), matchupSettingKeys()...)
	if l.game != nil {
		allowed = append(allowed, settingKeys(l.game)...)
	}
	if c.Contest != nil {
		l.checkKeys(root, doc, append(allowed, c.Contest.Keys()...), typeKeys, fmt.Sprintf("not allowed in %s %s competition", article(c.Type), c.Type))
	} else if l.game != nil {
		l.checkKeys(root, doc, append(allowed, typeKeys...), nil, "")
	}

	if v, ok := doc["description"]; ok {
		if s, ok := l.str(root.Key("description"), v); ok {
			c.Description = strings.TrimSpace(s)
		}
	}
	if v, ok := doc["seed"]; ok {
		if n, ok := l.integer(root.Key("seed"), v); ok {
			c.Seed = n
		}
	}
	c.RecordGames = true
	if v, ok := doc["record_games"]; ok {
		if b, ok := l.boolean(root.Key("record_games"), v); ok {
			c.RecordGames = b
		}
	}
	if v, ok := doc["luck_adjust"]; ok {
		if b, ok := l.boolean(root.Key("luck_adjust"), v); ok {
			c.LuckAdjust = b
		}
	}
	if v, ok := doc["luck_judge"]; ok {
		c.LuckJudge = l.judgeSpec(root.Key("luck_judge"), v)
	}

	c.Players = make(map[string]*Player)
	if v, ok := doc["players"]; !ok {
		l.errorf(root.Key("players"), "required: define players in [players.CODE] tables")
	} else if t, ok := l.table(root.Key("players"), v); ok {
		if len(t) == 0 {
			l.errorf(root.Key("players"), "no players defined")
		}
		for _, code := range l.sortedKeys(root.Key("players"), t) {
			if p := l.player(root.Key("players").Key(code), code, t[code]); p != nil {
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
	if c.Contest != nil {
		c.Contest.Load(&builder{table: table{l: l, p: root, t: doc}, c: c, defaults: defaults, defined: defined})
	}
}

// isIdentifier reports whether s is a valid player code or matchup id.
func isIdentifier(s string) bool { return contest.IsIdentifier(s) }

// MaxIdentifier is the longest player code or matchup id.
const MaxIdentifier = contest.MaxIdentifier

const identifierChars = contest.IdentifierChars

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

// article is "an" before a vowel and "a" otherwise.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
