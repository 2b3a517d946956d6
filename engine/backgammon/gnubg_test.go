package backgammon_test

import (
	"bufio"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/peertest"
)

type oracleCase struct {
	name   string
	board  bg.Board
	d1, d2 int
}

var hintLine = regexp.MustCompile(`^\s*\d+\.\s+Cubeful 0-ply\s+(.*?)\s+Eq\.:`)

// gnubgHints asks gnubg for every legal move of each case (with the dice
// set, 0-ply "hint 1000" lists them all) and returns the move texts.
func gnubgHints(t *testing.T, cases []oracleCase) [][]string {
	t.Helper()
	var script strings.Builder
	script.WriteString("set player both human\nnew game\nset evaluation chequerplay evaluation plies 0\n")
	for i, c := range cases {
		fmt.Fprintf(&script, "gamemillcase%d\nset board %s\nset dice %d %d\nhint 1000\n", i, gnubgid.EncodePosition(c.board), c.d1, c.d2)
	}
	script.WriteString("gamemillend\n")
	out := peertest.RunGnubg(t, script.String())
	hints := make([][]string, len(cases))
	current := -1
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		var n int
		if _, err := fmt.Sscanf(line, "Unknown keyword `gamemillcase%d'.", &n); err == nil {
			current = n
			continue
		}
		if strings.Contains(line, "gamemillend") {
			current = -1
		}
		if m := hintLine.FindStringSubmatch(line); m != nil && current >= 0 {
			hints[current] = append(hints[current], m[1])
		}
	}
	return hints
}

// oracleCases are the 21 opening rolls plus positions chosen for the edge
// cases: bar entry (some points closed, all closed), hits on the way,
// bearing off (exact, higher die, blocked), one die playable, doubles that
// play only partly, and the variants.
func oracleCases(t *testing.T) []oracleCase {
	var cases []oracleCase
	for d1 := 1; d1 <= 6; d1++ {
		for d2 := 1; d2 <= d1; d2++ {
			cases = append(cases, oracleCase{fmt.Sprintf("opening %d%d", d1, d2), bg.Standard.StartBoard(), d1, d2})
		}
	}
	pos := func(name, id string, d1, d2 int) {
		b, err := gnubgid.DecodePosition(id)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, oracleCase{name, b, d1, d2})
	}
	mk := func(name string, me, opp map[int]int8, d1, d2 int) {
		var b bg.Board
		for p, c := range me {
			b[bg.OnRoll][p-1] = c
		}
		for p, c := range opp {
			b[bg.Opponent][p-1] = c
		}
		cases = append(cases, oracleCase{name, b, d1, d2})
	}
	closed := map[int]int8{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}
	mk("bar, board closed", map[int]int8{25: 1, 6: 5, 8: 3, 13: 6}, closed, 6, 3)
	mk("bar, board closed, doubles", map[int]int8{25: 2, 6: 5, 8: 3, 13: 5}, closed, 4, 4)
	mk("bar, one entry point", map[int]int8{25: 1, 6: 5, 8: 3, 13: 6}, map[int]int8{1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 24: 5}, 5, 3)
	mk("two on bar, one enters", map[int]int8{25: 2, 6: 5, 8: 3, 13: 5}, map[int]int8{1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 24: 5}, 5, 2)
	mk("two on bar doubles, enter and play", map[int]int8{25: 2, 6: 5, 8: 3, 13: 5}, map[int]int8{6: 2, 5: 2, 24: 11}, 3, 3)
	mk("bar entry with hit", map[int]int8{25: 1, 6: 5, 8: 3, 13: 6}, map[int]int8{5: 1, 6: 2, 13: 5, 8: 3, 24: 4}, 5, 1)
	mk("hit on the way", map[int]int8{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int8{7: 1, 11: 1, 14: 4, 8: 3, 6: 4, 24: 2}, 6, 5)
	mk("hit and continue doubles", map[int]int8{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int8{4: 1, 9: 1, 13: 4, 8: 3, 6: 4, 24: 2}, 4, 4)
	mk("bear off exact", map[int]int8{6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, map[int]int8{6: 5, 5: 5, 4: 5}, 6, 4)
	mk("bear off higher die", map[int]int8{4: 2, 3: 1, 1: 1}, map[int]int8{6: 5, 5: 5, 4: 5}, 6, 5)
	mk("bear off blocked by checker above", map[int]int8{6: 1, 3: 2}, map[int]int8{6: 5, 5: 5, 4: 5}, 5, 4)
	mk("bear off after coming home", map[int]int8{8: 1, 5: 2, 2: 2}, map[int]int8{6: 5, 5: 5, 4: 5}, 3, 5)
	mk("bear off doubles mixed", map[int]int8{6: 1, 5: 1, 2: 2, 1: 3}, map[int]int8{6: 5, 5: 5, 4: 5}, 2, 2)
	mk("bear off last checkers", map[int]int8{2: 1, 1: 1}, map[int]int8{6: 5, 5: 5, 4: 5}, 1, 1)
	mk("bear off one checker, large dice", map[int]int8{3: 1}, map[int]int8{6: 5}, 6, 6)
	mk("only one die playable: larger", map[int]int8{13: 1, 6: 14}, map[int]int8{1: 2, 3: 2, 4: 2, 10: 2, 11: 2, 24: 5}, 6, 3)
	mk("only one die playable: smaller", map[int]int8{13: 1, 6: 14}, map[int]int8{1: 2, 3: 2, 4: 2, 10: 2, 18: 2, 21: 2, 24: 3}, 6, 2)
	mk("either die but not both", map[int]int8{24: 1, 6: 14}, map[int]int8{10: 2, 11: 2, 12: 2, 13: 2, 14: 2, 15: 2}, 5, 4)
	mk("doubles play partly", map[int]int8{24: 2, 6: 13}, map[int]int8{4: 2, 8: 2, 12: 2, 13: 2, 14: 2, 15: 2, 16: 3}, 4, 4)
	mk("doubles blocked after two", map[int]int8{24: 1, 13: 1, 6: 13}, map[int]int8{13: 2, 9: 2, 3: 2, 24: 9}, 6, 6)
	mk("prime escape", map[int]int8{24: 2, 13: 4, 6: 5, 8: 4}, map[int]int8{2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 13: 3}, 6, 5)
	mk("all checkers one point", map[int]int8{13: 15}, map[int]int8{13: 15}, 3, 1)
	mk("no move at all", map[int]int8{25: 1, 13: 14}, closed, 2, 2)
	mk("bar with doubles, three enter", map[int]int8{25: 3, 13: 12}, map[int]int8{1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 24: 5}, 5, 5)
	mk("hit from bar and continue", map[int]int8{25: 1, 13: 14}, map[int]int8{4: 1, 2: 2, 24: 12}, 4, 4)
	mk("hit two blots", map[int]int8{13: 2, 8: 2, 6: 11}, map[int]int8{16: 1, 20: 1, 24: 13}, 5, 4)
	mk("gammon race", map[int]int8{6: 5, 5: 5, 4: 5}, map[int]int8{23: 15}, 6, 6)
	mk("higher die from six", map[int]int8{5: 1, 4: 1, 1: 3}, map[int]int8{23: 15}, 6, 2)
	pos("manual contact position", "4HPMwQCMz+AIIQ", 5, 2)
	pos("manual two-sided bearoff", "CgAAEAEAAAAAAA", 6, 1)
	pos("manual one-sided bearoff", "2x0AAOi2AQAAAA", 4, 3)
	pos("hypergammon start", "AACgAgAAKgAAAA", 4, 4)
	pos("hypergammon database example", "ADAAAQAkIAAAAA", 3, 1)
	return cases
}

// TestAgainstGnubg checks our legal moves against gnubg's for the 21
// opening rolls, the edge cases above and 300 random positions: the same
// number of moves, the same resulting positions, the same notation.
func TestAgainstGnubg(t *testing.T) {
	cases := oracleCases(t)
	boards, rolls := randomBoards(2026, 300)
	for i := range boards {
		cases = append(cases, oracleCase{fmt.Sprintf("random %d", i), boards[i], rolls[i][0], rolls[i][1]})
	}
	hints := gnubgHints(t, cases)
	gen := bg.NewMoveGen()
	for i, c := range cases {
		if err := c.board.Validate(bg.Standard); err != nil {
			t.Fatalf("%s: bad test position: %v", c.name, err)
		}
		moves, results := gen.Generate(c.board, c.d1, c.d2)
		var ours []string
		for _, m := range moves {
			if m.N > 0 {
				ours = append(ours, bg.Format(c.board, m))
			}
		}
		theirs := hints[i]
		sort.Strings(ours)
		sort.Strings(theirs)
		if strings.Join(ours, ", ") != strings.Join(theirs, ", ") {
			t.Errorf("%s (%s) roll %d%d:\n ours   %d: %q\n gnubg %d: %q", c.name, gnubgid.EncodePosition(c.board), c.d1, c.d2, len(ours), ours, len(theirs), theirs)
			continue
		}
		// Every gnubg text must resolve to one of our results.
		check := bg.NewMoveGen()
		seen := map[bg.Board]bool{}
		for _, text := range theirs {
			m, err := check.ResolveMove(c.board, c.d1, c.d2, text)
			if err != nil {
				t.Errorf("%s: gnubg move %q: %v", c.name, text, err)
				continue
			}
			seen[c.board.Apply(m)] = true
		}
		if len(theirs) > 0 && len(seen) != len(results) {
			t.Errorf("%s: gnubg's %d moves reach %d of our %d positions", c.name, len(theirs), len(seen), len(results))
		}
	}
}

func randomBoards(seed uint64, n int) ([]bg.Board, [][2]int) {
	dice := bg.NewDice(seed, 0)
	gen := bg.NewMoveGen()
	var boards []bg.Board
	var rolls [][2]int
	for len(boards) < n {
		b := bg.Standard.StartBoard()
		for ply := 0; ply < 300 && len(boards) < n; ply++ {
			d1, d2 := dice.Roll()
			if ply%7 == 3 {
				boards = append(boards, b)
				rolls = append(rolls, [2]int{d1, d2})
			}
			_, res := gen.Generate(b, d1, d2)
			b = res[dice.Die()*len(res)/7]
			if b.OnBoard(bg.OnRoll) == 0 {
				break
			}
			b = b.Swap()
		}
	}
	return boards, rolls
}
