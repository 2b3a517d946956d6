package control

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

func allPlayAllKeys() []string { return []string{"competitors", "rounds"} }
func (l *loader) allPlayAll(c *Competition, doc map[string]any, defaults matchupDefaults, defined func(string) bool) {
	var root keyPath
	cp := root.Key("competitors")
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
				l.errorf(cp.At(i), "duplicate competitor %q", code)
			case !defined(code):
				l.errorf(cp.At(i), "unknown player %q", code)
			}
			seen[code] = true
		}
		c.Competitors = codes
	}
	rounds, haveRounds := 0, false
	if v, ok := doc["rounds"]; !ok {
		l.errorf(root.Key("rounds"), "required: the number of games for each pair of competitors")
	} else {
		rounds, haveRounds = l.numberOfGames(root.Key("rounds"), v)
	}
	if haveRounds && defaults.settings.PairedGames() && rounds%2 != 0 {
		l.errorf(root.Key("rounds"), "paired games need an even number of rounds, got %d", rounds)
	}
	defaults.settings.Check(func(key, format string, args ...any) { l.errorf(root.Key(key), format, args...) })
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
