package control

import (
	"fmt"

	"github.com/gamemill/gamemill/competitions"
)

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
// LuckAdjusted has the test read each game's luck-adjusted result (from
// the game's analysis, judged as each game ends) instead of its win or
// loss: the same expected score with less variance, so fewer games.
type SPRT struct {
	Elo0, Elo1   float64
	Alpha, Beta  float64
	LuckAdjusted bool
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
func (c *Competition) Plans() []competitions.MatchupPlan { return PlansOf(c.Matchups) }

// PlansOf returns matchups as the competitions package schedules them.
func PlansOf(matchups []*Matchup) []competitions.MatchupPlan {
	plans := make([]competitions.MatchupPlan, len(matchups))
	for i, m := range matchups {
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

// Keys that may appear in each kind of table. They are functions returning
// fresh slices, so that a caller's append never writes into a shared array.
func matchupSettingKeys() []string { return []string{"move_limit", "max_moves", "sprt"} }
func matchupKeys() []string {
	return []string{"players", "id", "name", "number_of_games", "alternating"}
}

// matchupSettings applies the settings present in t (the generic ones and
// the game's) over d.
func (l *loader) matchupSettings(p keyPath, t map[string]any, d matchupDefaults) matchupDefaults {
	limitKey := "move_limit"
	if _, ok := t["max_moves"]; ok {
		if _, both := t["move_limit"]; both {
			l.errorf(p.Key("max_moves"), "set either move_limit or its old name max_moves, not both")
		} else {
			limitKey = "max_moves"
			l.warns = append(l.warns, fmt.Sprintf("%s:%d: %s: deprecated: use move_limit (gomill's name)",
				l.file, l.lineOf(p.Key("max_moves")), p.Key("max_moves")))
		}
	}
	if v, ok := t[limitKey]; ok {
		if n, ok := (Value{l: l, p: p.Key(limitKey), raw: v}).Int(1, 1_000_000); ok {
			d.moveLimit = n
		}
	}
	if v, ok := t["sprt"]; ok {
		d.sprt = l.sprt(p.Key("sprt"), v)
	}
	d.settings = l.readSettings(l.game, p, t, d.settings)
	return d
}

// checkSettings makes the game's checks that involve several keys, and
// the generic ones, on a matchup's settings; problems are reported
// against the key in the matchup's table p (its line, or the matchup's
// when the value came from the top level).
func (l *loader) checkSettings(p keyPath, t map[string]any, m *Matchup) {
	report := func(key, format string, args ...any) { l.errorf(p.Key(key), format, args...) }
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

// sprt reads a table {elo0, elo1, alpha, beta, luck_adjusted}; alpha and
// beta default to 0.05.
func (l *loader) sprt(p keyPath, v any) *SPRT {
	t, ok := l.table(p, v)
	if !ok {
		return nil
	}
	l.checkKeys(p, t, []string{"elo0", "elo1", "alpha", "beta", "luck_adjusted"}, nil, "")
	out := &SPRT{Alpha: 0.05, Beta: 0.05}
	if v, ok := t["luck_adjusted"]; ok {
		if b, ok := l.boolean(p.Key("luck_adjusted"), v); ok {
			out.LuckAdjusted = b
		}
	}
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
				l.errorf(p.Key(f.key), "required")
				valid = false
			}
			continue
		}
		n, ok := l.float(p.Key(f.key), x)
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
		l.errorf(p.Key("elo1"), "must be greater than elo0 (%g), got %g", out.Elo0, out.Elo1)
		return nil
	}
	for _, e := range []struct {
		key string
		x   float64
	}{{"alpha", out.Alpha}, {"beta", out.Beta}} {
		if e.x <= 0 || e.x >= 0.5 {
			l.errorf(p.Key(e.key), "must be between 0 and 0.5, got %g", e.x)
			return nil
		}
	}
	return out
}
