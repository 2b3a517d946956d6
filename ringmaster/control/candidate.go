package control

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

// The [candidate] template of a tuning competition: a player definition
// whose strings hold {code} placeholders, made into one player per
// candidate with the candidate's parameter values.

// Raw is the value as decoded.
func (v Value) Raw() any { return v.raw }

// Candidate reads the top-level table key as the candidates' template.
func (b *builder) Candidate(key string, params []string) bool {
	p := b.p.Key(key)
	raw, ok := b.t[key]
	if !ok {
		b.l.errorf(p, "required: a player definition whose strings hold {code} placeholders for the parameters")
		return false
	}
	errs := len(b.l.errs)
	if i := slices.Index(params, SeedPlaceholder); i >= 0 {
		b.l.errorf(b.p.Key("parameters").At(i).Key("code"), "a parameter cannot be coded %q: {%s} is the game's seed", SeedPlaceholder, SeedPlaceholder)
	}
	tmpl := b.l.player(p, key, raw)
	b.l.checkPlaceholders(p, raw, params)
	if tmpl == nil || len(b.l.errs) > errs {
		return false
	}
	b.c.candidate = tmpl
	return true
}

// SetProposer makes the competition's games come from p.
func (b *builder) SetProposer(p contest.Proposer) {
	b.c.Proposer = p
	b.c.defaults = b.defaults
	b.c.Matchups = nil
}

// SeedPlaceholder is the ringmaster's own placeholder, filled with the
// game's seed when an engine starts; a candidate's template leaves it be.
const SeedPlaceholder = "seed"

// placeholders returns the codes of the {code} placeholders in s, in
// order: a brace pair with no brace inside.
func placeholders(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return out
		}
		s = s[i+1:]
		j := strings.IndexAny(s, "{}")
		if j < 0 {
			return out
		}
		if s[j] == '}' {
			out = append(out, s[:j])
			s = s[j+1:]
		}
	}
}

// checkPlaceholders reports each placeholder in a string of v (at any
// depth) that names no parameter.
func (l *loader) checkPlaceholders(p keyPath, v any, params []string) {
	switch v := v.(type) {
	case string:
		for _, code := range placeholders(v) {
			if code != SeedPlaceholder && !slices.Contains(params, code) {
				l.errorf(p, "unknown placeholder {%s} (the parameters are %s)", code, strings.Join(params, ", "))
			}
		}
	case []any:
		for i, e := range v {
			l.checkPlaceholders(p.At(i), e, params)
		}
	case []map[string]any:
		for i, e := range v {
			l.checkPlaceholders(p.At(i), e, params)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			l.checkPlaceholders(p.Key(k), v[k], params)
		}
	}
}

// fill replaces each {code} placeholder of s by its value.
func fill(s string, values map[string]string) (string, error) {
	for _, code := range placeholders(s) {
		if code == SeedPlaceholder {
			continue
		}
		v, ok := values[code]
		if !ok {
			return "", fmt.Errorf("no value for placeholder {%s}", code)
		}
		s = strings.Replace(s, "{"+code+"}", v, 1)
	}
	return s, nil
}

// Candidate returns the player a tuning competition's candidate plays
// as: the [candidate] template under code name, with each {code}
// placeholder filled from values (parameter code to text).
func (c *Competition) Candidate(name string, values map[string]string) (*Player, error) {
	if c.candidate == nil {
		return nil, fmt.Errorf("candidate %s: the competition has no [candidate] template", name)
	}
	p := *c.candidate
	p.Code = name
	var err error
	fillAll := func(list []string) []string {
		if list == nil {
			return nil
		}
		out := make([]string, len(list))
		for i, s := range list {
			var e error
			out[i], e = fill(s, values)
			if e != nil && err == nil {
				err = e
			}
		}
		return out
	}
	p.Command = fillAll(p.Command)
	p.Args = fillAll(p.Args)
	p.StartupCommands = fillAll(p.StartupCommands)
	if p.Cwd != "" {
		p.Cwd = fillAll([]string{p.Cwd})[0]
	}
	if p.Environ != nil {
		env := make(map[string]string, len(p.Environ))
		for k, v := range p.Environ {
			env[k] = fillAll([]string{v})[0]
		}
		p.Environ = env
	}
	if err != nil {
		return nil, fmt.Errorf("candidate %s: %w", name, err)
	}
	return &p, nil
}

// Canonical is the player's definition as one line of JSON with its keys
// in a fixed order, so that two definitions compare as text and a stored
// one says exactly what was played. PlayerFromCanonical rebuilds the
// player from it.
func (p *Player) Canonical() string {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Sprintf("%+v", *p)
	}
	return string(data)
}

// PlayerFromCanonical rebuilds a player from its canonical definition,
// as a job or the store carries it.
func PlayerFromCanonical(def string) (*Player, error) {
	var p Player
	dec := json.NewDecoder(strings.NewReader(def))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("player definition %.80q: %w", def, err)
	}
	if p.Code == "" || p.Kind == "" {
		return nil, fmt.Errorf("player definition %.80q: no code or kind", def)
	}
	return &p, nil
}

// ChangedKeys lists the fields in which two canonical definitions of a
// player differ (Go field names, as the definitions spell them), sorted;
// nil when they are the same or either is not a definition.
func ChangedKeys(old, now string) []string {
	var o, n map[string]json.RawMessage
	if json.Unmarshal([]byte(old), &o) != nil || json.Unmarshal([]byte(now), &n) != nil {
		return nil
	}
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(n)) {
		if string(o[k]) != string(n[k]) {
			keys = append(keys, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if _, ok := n[k]; !ok {
			keys = append(keys, k)
		}
	}
	return keys
}
