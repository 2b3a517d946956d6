package contest

// Readers of the keys several competition types share.

// PlayerList reads key as a list of player codes, each defined in the
// control file and listed once. A missing key is reported as "required:
// " + what, a repeated code as "duplicate NOUN", an undefined one as
// "unknown player", each against its element. v is the list's value for
// further checks (nil when the key is missing or not a list of strings).
func PlayerList(b Builder, key, what, noun string) (codes []string, v Value) {
	v, ok := b.Get(key)
	if !ok {
		b.Errorf(key, "required: %s", what)
		return nil, nil
	}
	codes, ok = v.Strings()
	if !ok {
		return nil, nil
	}
	seen := map[string]bool{}
	for i, code := range codes {
		switch {
		case seen[code]:
			v.At(i).Errorf("duplicate %s %q", noun, code)
		case !b.Defined(code):
			v.At(i).Errorf("unknown player %q", code)
		}
		seen[code] = true
	}
	return codes, v
}

// GamesAndSeats reads number_of_games (required, what saying what it
// counts; from min to max; even where the game settings pair games) and
// alternating (swap the seats every other game; default true).
func GamesAndSeats(b Builder, what string, min, max int64) (games int, alternating bool) {
	if v, ok := b.Get("number_of_games"); !ok {
		b.Errorf("number_of_games", "required: %s", what)
	} else if n, ok := v.Int(min, max); ok {
		games = n
		if b.PairedGames() && n%2 != 0 {
			v.Errorf("paired games need an even number of games, got %d", n)
		}
	}
	alternating = true
	if v, ok := b.Get("alternating"); ok {
		if a, ok := v.Bool(); ok {
			alternating = a
		}
	}
	return games, alternating
}
