package control

import (
	"strconv"
	"strings"
)

func playoffKeys() []string { return []string{"matchups", "number_of_games", "alternating"} }
func (l *loader) playoff(c *Competition, doc map[string]any, defaults matchupDefaults, defined func(string) bool) {
	var root keyPath
	defaultGames, haveDefaultGames := 0, false
	if v, ok := doc["number_of_games"]; ok {
		defaultGames, haveDefaultGames = l.numberOfGames(root.Key("number_of_games"), v)
	}
	defaultAlternating := false
	if v, ok := doc["alternating"]; ok {
		if b, ok := l.boolean(root.Key("alternating"), v); ok {
			defaultAlternating = b
		}
	}
	mp := root.Key("matchups")
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
		p := mp.At(i)
		l.checkKeys(p, t, append(append(matchupKeys(), matchupSettingKeys()...), settingKeys(l.game)...), nil, "")
		errs := len(l.errs)
		m := &Matchup{Path: p.String(), ID: strconv.Itoa(i), NumberOfGames: defaultGames, Alternating: defaultAlternating}

		if v, ok := t["players"]; !ok {
			l.errorf(p.Key("players"), "required: a list of two player codes")
		} else if codes, ok := l.strList(p.Key("players"), v); ok {
			if len(codes) != 2 {
				l.errorf(p.Key("players"), "must list two player codes, got %d", len(codes))
			} else {
				for _, code := range codes {
					if !defined(code) {
						l.errorf(p.Key("players"), "unknown player %q", code)
					}
				}
				m.PlayerA, m.PlayerB = codes[0], codes[1]
			}
		}
		if v, ok := t["id"]; ok {
			if s, ok := l.str(p.Key("id"), v); ok {
				if !isIdentifier(s) {
					l.errorf(p.Key("id"), "invalid matchup id %q: use %s", s, identifierChars)
				}
				m.ID = s
			}
		}
		if j, dup := firstUse[m.ID]; dup {
			l.errorf(p.Key("id"), "duplicate matchup id %q (also used by matchups[%d])", m.ID, j)
		} else {
			firstUse[m.ID] = i
		}
		if v, ok := t["number_of_games"]; ok {
			if n, ok := l.numberOfGames(p.Key("number_of_games"), v); ok {
				m.NumberOfGames = n
			}
		} else if !haveDefaultGames {
			if _, set := doc["number_of_games"]; !set {
				l.errorf(p.Key("number_of_games"), "required: set it here or at top level")
			}
		}
		if v, ok := t["alternating"]; ok {
			if b, ok := l.boolean(p.Key("alternating"), v); ok {
				m.Alternating = b
			}
		}
		ms := l.matchupSettings(p, t, defaults)
		m.Settings, m.MoveLimit, m.SPRT = ms.settings, ms.moveLimit, ms.sprt
		l.checkSettings(p, t, m)
		if v, ok := t["name"]; ok {
			if s, ok := l.str(p.Key("name"), v); ok {
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
