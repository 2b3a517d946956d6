package control

import (
	"strings"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

// The loader's side of the competition-type seam: Value and table read
// values for a type, and builder adds the type's matchups.

// Str reads a string.
func (v Value) Str() (string, bool) { return v.l.str(v.p, v.raw) }

// Strings reads an array of strings.
func (v Value) Strings() ([]string, bool) { return v.l.strList(v.p, v.raw) }

// Tables reads an array of tables.
func (v Value) Tables() ([]contest.Table, bool) {
	ts, ok := v.l.tableList(v.p, v.raw)
	out := make([]contest.Table, len(ts))
	for i, t := range ts {
		out[i] = table{l: v.l, p: v.p.At(i), t: t}
	}
	return out, ok
}

// At is element i of an array value.
func (v Value) At(i int) contest.Value {
	var raw any
	if list, ok := v.raw.([]any); ok && i < len(list) {
		raw = list[i]
	}
	return Value{l: v.l, p: v.p.At(i), raw: raw}
}

// table is a control-file table being read for a competition type.
type table struct {
	l *loader
	p keyPath
	t map[string]any
}

func (t table) Get(key string) (contest.Value, bool) {
	raw, ok := t.t[key]
	if !ok {
		return nil, false
	}
	return Value{l: t.l, p: t.p.Key(key), raw: raw}, true
}

func (t table) Errorf(key, format string, args ...any) { t.l.errorf(t.p.Key(key), format, args...) }

func (t table) CheckKeys(allowed ...string) {
	keys := append(append(allowed, matchupSettingKeys()...), settingKeys(t.l.game)...)
	t.l.checkKeys(t.p, t.t, keys, nil, "")
}

func (t table) CheckOnlyKeys(allowed ...string) {
	known := append(matchupSettingKeys(), settingKeys(t.l.game)...)
	t.l.checkKeys(t.p, t.t, allowed, known, "not allowed here: a game or matchup setting belongs at the top level")
}

// builder is the loader as a competition type sees it.
type builder struct {
	table
	c        *Competition
	defaults matchupDefaults
	defined  func(string) bool
}

func (b *builder) Defined(code string) bool { return b.defined(code) }
func (b *builder) PairedGames() bool        { return b.defaults.settings.PairedGames() }
func (b *builder) Errors() int              { return len(b.l.errs) }
func (b *builder) SetCompetitors(codes []string) {
	b.c.Competitors = codes
}
func (b *builder) SetPlanner(p contest.Planner) {
	b.c.Planner = p
	b.c.defaults = b.defaults
}

func (b *builder) CheckSettings() {
	b.defaults.settings.Check(func(key, format string, args ...any) { b.l.errorf(b.p.Key(key), format, args...) })
}

// Add adds m: with its table's settings over the top-level ones when it
// has a table, else with the top-level settings. It adds nothing when any
// problem has been reported within m's table. A player set against itself
// plays a copy of itself under the code "CODE#2".
func (b *builder) Add(am contest.Matchup) bool {
	m := &Matchup{ID: am.ID, Name: am.Name, PlayerA: am.A, PlayerB: am.B, NumberOfGames: am.Games, Alternating: am.Alternating}
	if t, ok := am.Table.(table); ok {
		ms := b.l.matchupSettings(t.p, t.t, b.defaults)
		m.Path = t.p.String()
		m.Settings, m.MoveLimit, m.SPRT = ms.settings, ms.moveLimit, ms.sprt
		b.l.checkSettings(t.p, t.t, m)
		if b.l.errorsWithin(t.p) > 0 {
			return false
		}
	} else {
		m.Settings, m.MoveLimit, m.SPRT = b.defaults.settings.Clone(), b.defaults.moveLimit, b.defaults.sprt
	}
	if m.PlayerA == m.PlayerB {
		self := m.PlayerA + "#2"
		if orig, ok := b.c.Players[m.PlayerA]; ok {
			cp := *orig
			cp.Code = self
			b.c.Players[self] = &cp
		}
		m.PlayerB = self
	}
	if m.Name == "" {
		m.Name = m.PlayerA + " v " + m.PlayerB
	}
	b.c.Matchups = append(b.c.Matchups, m)
	return true
}

// errorsWithin counts the problems reported at p or below it.
func (l *loader) errorsWithin(p keyPath) int {
	prefix := p.String()
	n := 0
	for _, e := range l.errs {
		if e.Key == prefix || strings.HasPrefix(e.Key, prefix+".") || strings.HasPrefix(e.Key, prefix+"[") {
			n++
		}
	}
	return n
}

// Expand turns a planned matchup into a matchup with the competition's
// top-level settings, as Add does for a matchup without a table.
func (c *Competition) Expand(am contest.Matchup) *Matchup {
	m := &Matchup{ID: am.ID, Name: am.Name, PlayerA: am.A, PlayerB: am.B, NumberOfGames: am.Games, Alternating: am.Alternating,
		Settings: c.defaults.settings.Clone(), MoveLimit: c.defaults.moveLimit, SPRT: c.defaults.sprt}
	if m.Name == "" {
		m.Name = m.PlayerA + " v " + m.PlayerB
	}
	return m
}
