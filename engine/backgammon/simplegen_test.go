package backgammon

// simpleMoves is a deliberately plain second move generator for the
// differential test: it tries every order of the dice, one checker at a
// time, with no pruning, then applies the "most dice" and "larger die"
// rules by brute force over the complete list of plays.
func simpleMoves(b Board, d1, d2 int) map[Board]bool {
	type play struct {
		board Board
		used  []int
	}
	var plays []play
	var walk func(b Board, left []int, used []int)
	walk = func(b Board, left []int, used []int) {
		plays = append(plays, play{b, append([]int(nil), used...)})
		for i, d := range left {
			if i > 0 && left[i-1] == d {
				continue
			}
			rest := append(append([]int(nil), left[:i]...), left[i+1:]...)
			for from := 1; from <= 25; from++ {
				nb, ok := simpleStep(b, from, d)
				if ok {
					walk(nb, rest, append(used, d))
				}
			}
		}
	}
	dice := []int{d1, d2}
	if d1 == d2 {
		dice = []int{d1, d1, d1, d1}
	}
	walk(b, dice, nil)
	most := 0
	for _, p := range plays {
		if len(p.used) > most {
			most = len(p.used)
		}
	}
	larger := d1
	if d2 > larger {
		larger = d2
	}
	largerPlayable := false
	if most == 1 && d1 != d2 {
		for _, p := range plays {
			if len(p.used) == 1 && p.used[0] == larger {
				largerPlayable = true
			}
		}
	}
	out := map[Board]bool{}
	for _, p := range plays {
		if len(p.used) != most {
			continue
		}
		if largerPlayable && p.used[0] != larger {
			continue
		}
		out[p.board] = true
	}
	return out
}

// simpleStep moves one checker of the player on roll from point from
// (25 = bar) by d, checking every rule directly.
func simpleStep(b Board, from, d int) (Board, bool) {
	me, opp := &b[OnRoll], &b[Opponent]
	if me[from-1] == 0 {
		return b, false
	}
	if from != 25 && me[24] > 0 {
		return b, false // checkers on the bar must enter first
	}
	to := from - d
	if to <= 0 {
		for p := 7; p <= 25; p++ {
			if me[p-1] > 0 {
				return b, false // bearing off needs every checker home
			}
		}
		if to < 0 {
			for p := from + 1; p <= 6; p++ {
				if me[p-1] > 0 {
					return b, false
				}
			}
		}
		me[from-1]--
		return b, true
	}
	oppPoint := 25 - to
	if opp[oppPoint-1] >= 2 {
		return b, false
	}
	me[from-1]--
	me[to-1]++
	if opp[oppPoint-1] == 1 {
		opp[oppPoint-1] = 0
		opp[24]++
	}
	return b, true
}
