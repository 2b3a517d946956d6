package control

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Game is what a control file needs of a game: its name, the player kinds
// it offers besides KindProtocol, and its settings as a table, each key
// named once with how to read and check it. Each game implements it in its
// own package (ringmaster/games/...); the control file never names a game's
// settings itself.
type Game interface {
	Name() string
	// PlayerKinds lists the player kinds the game offers besides
	// KindProtocol (KindBuiltin, KindGnubg).
	PlayerKinds() []string
	// DefaultSettings returns a fresh value of the game's settings with
	// every default in place.
	DefaultSettings() GameSettings
	// SettingsTable lists the game's keys. They may appear at top level
	// (defaults for every matchup) and in each matchup.
	SettingsTable() []Setting
	// PlayerKeys lists the player keys only this game's players may set
	// (among PlayerGameKeys), e.g. Go's is_reliable_scorer and allow_claim.
	PlayerKeys() []string
}

// PlayerGameKeys are the player keys that some game gives a meaning; a
// game names those it takes in PlayerKeys, and the others are errors.
func PlayerGameKeys() []string { return []string{"is_reliable_scorer", "allow_claim"} }

// GameSettings are one matchup's settings of a game, owned by the game.
type GameSettings interface {
	// Clone returns an independent copy (matchups start from a copy of the
	// top-level settings).
	Clone() GameSettings
	// Describe is one line for reports: "5-point match, Crawford, paired
	// dice".
	Describe() string
	// Canonical is a stable text of every setting that changes what a
	// result means; results played under another canonical text must not
	// be pooled with these.
	Canonical() string
	// PairedGames reports whether games 2k and 2k+1 form a pair (the same
	// dice, the seats swapped), to be scheduled and summarised as one.
	PairedGames() bool
	// Check makes the checks that involve several keys, once all are read,
	// reporting each problem against a key.
	Check(report func(key, format string, args ...any))
}

// Setting is one key of a game's settings table.
type Setting struct {
	Key string
	// Read decodes v into s (the game's own settings, as returned by its
	// DefaultSettings), reporting a bad value through v.
	Read func(v Value, s GameSettings)
}

// Value is a control-file value being read for a game's setting. Its
// methods check the type and range and report problems with the file, line
// and key; they return false when the value is unusable.
type Value struct {
	l   *loader
	p   keyPath
	raw any
}

// Errorf reports a problem with the value.
func (v Value) Errorf(format string, args ...any) { v.l.errorf(v.p, format, args...) }

// Int reads an integer in [min, max].
func (v Value) Int(min, max int64) (int, bool) {
	n, ok := v.l.integer(v.p, v.raw)
	if !ok {
		return 0, false
	}
	if n < min || n > max {
		v.Errorf("must be between %d and %d, got %d", min, max, n)
		return 0, false
	}
	return int(n), true
}

// Float reads a finite number (an integer is accepted) in [min, max].
func (v Value) Float(min, max float64) (float64, bool) {
	f, ok := v.l.float(v.p, v.raw)
	if !ok {
		return 0, false
	}
	if f < min || f > max {
		v.Errorf("must be between %g and %g, got %g", min, max, f)
		return 0, false
	}
	return f, true
}

// Bool reads true or false.
func (v Value) Bool() (bool, bool) { return v.l.boolean(v.p, v.raw) }

// Path reads a file or directory name: a leading ~ is expanded and a
// relative name is taken from the control file's directory.
func (v Value) Path() (string, bool) {
	s, ok := v.l.str(v.p, v.raw)
	if !ok {
		return "", false
	}
	if s == "" {
		v.Errorf("empty path")
		return "", false
	}
	return v.l.resolve(s), true
}

// Choice reads a string that must be one of choices; noun names what it
// is in the error ("variant").
func (v Value) Choice(noun string, choices ...string) (string, bool) {
	s, ok := v.l.str(v.p, v.raw)
	if !ok {
		return "", false
	}
	if !slices.Contains(choices, s) {
		v.Errorf("unknown %s %q (want %s)", noun, s, orList(choices))
		return "", false
	}
	return s, true
}

// orList writes "a", "b" or "c".
func orList(choices []string) string {
	q := make([]string, len(choices))
	for i, c := range choices {
		q[i] = fmt.Sprintf("%q", c)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// settingKeys lists the keys of a game's settings table.
func settingKeys(g Game) []string {
	var keys []string
	for _, s := range g.SettingsTable() {
		keys = append(keys, s.Key)
	}
	return keys
}

// readSettings applies the game settings present in t over a copy of base.
func (l *loader) readSettings(g Game, p keyPath, t map[string]any, base GameSettings) GameSettings {
	s := base.Clone()
	for _, st := range g.SettingsTable() {
		if raw, ok := t[st.Key]; ok {
			st.Read(Value{l: l, p: p.Key(st.Key), raw: raw}, s)
		}
	}
	return s
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
