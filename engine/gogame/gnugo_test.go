package gogame

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/peertest"
)

// sortedVertices normalises a list of vertices for comparison.
func sortedVertices(s string) string {
	f := strings.Fields(strings.ToUpper(s))
	slices.Sort(f)
	return strings.Join(f, " ")
}

// TestGnuGoFixedHandicap compares the fixed handicap layouts with GNU
// Go's fixed_handicap for every size GNU Go takes (up to 19) and every
// number of stones. We keep gomill's layout, which differs from GNU Go's
// on two sizes: on 7x7 GNU Go places up to 4 stones and gomill allows
// none, and on 12x12 GNU Go puts the stones on the fourth line (D4 J9)
// where gomill puts them on the third (C3 K10), as below 13x13.
func TestGnuGoFixedHandicap(t *testing.T) {
	gg := peertest.StartGnuGo(t)
	for size := MinSize; size <= 19; size++ {
		gg.Must("boardsize %d", size)
		for n := 2; n <= 9; n++ {
			gg.Must("clear_board")
			theirs, ok := gg.Do("fixed_handicap %d", n)
			ours, err := FixedHandicap(size, n)
			if size == 7 || size == 12 {
				if size == 7 && err == nil {
					t.Errorf("7x7: we allow a fixed handicap of %d", n)
				}
				continue
			}
			if ok != (err == nil) {
				t.Errorf("size %d, %d stones: GNU Go %v %q, we %v", size, n, ok, theirs, err)
				continue
			}
			if ok && sortedVertices(theirs) != sortedVertices(vertices(ours)) {
				t.Errorf("size %d, %d stones: GNU Go %s, we %s", size, n, theirs, vertices(ours))
			}
		}
	}
}

// TestGnuGoRandomGames plays random games (the playout policy) into GNU
// Go with `play` and checks that GNU Go accepts every move, that its
// stones and capture counts match ours along the way, that it agrees with
// us on the legality of every point of some positions (`is_legal`: simple
// ko, suicide forbidden), and that at the end, where GNU Go finds no dead
// stones, its area score (`final_score` under --chinese-rules) is ours.
func TestGnuGoRandomGames(t *testing.T) {
	gg := peertest.StartGnuGo(t, "--chinese-rules")
	sizes := []int{5, 7, 9, 9, 9, 11, 13, 19}
	if testing.Short() {
		sizes = []int{5, 9, 13}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	scored, legalChecks, illegal := 0, 0, 0
	for gi, size := range sizes {
		komi := 7.5
		if gi%3 == 2 {
			komi = 0 // jigo possible
		}
		gg.Must("boardsize %d", size)
		gg.Must("clear_board")
		gg.Must("komi %v", komi)
		g, _ := NewGame(Settings{Size: size, Komi: komi})
		for moves := 0; !g.Over() && moves < 4*size*size; moves++ {
			c := g.ToPlay()
			if moves%17 == 5 {
				// Ask GNU Go about every point.
				for i := range size * size {
					m := At(i%size, i/size)
					resp := gg.Must("is_legal %v %v", c, m)
					ourErr := g.Legal(c, m)
					if (resp == "1") != (ourErr == nil) {
						t.Fatalf("size %d move %d: %v %v: GNU Go is_legal %s, we %v\n%v", size, moves, c, m, resp, ourErr, g.Board())
					}
					legalChecks++
					if ourErr != nil {
						illegal++
					}
				}
			}
			pos := g.Position()
			m := pos.PlayRandom(c, rng)
			if err := g.Play(c, m); err != nil {
				t.Fatalf("our own random move %v %v: %v", c, m, err)
			}
			gg.Must("play %v %v", c, m)
			if moves%7 == 0 || g.Over() {
				compareStones(t, gg, g)
			}
		}
		if !g.Over() {
			t.Logf("size %d: no end in %d moves", size, len(g.Moves()))
			continue
		}
		if dead := gg.Must("final_status_list dead"); dead != "" {
			t.Logf("size %d: GNU Go finds dead stones (%s); score not compared", size, dead)
			continue
		}
		theirs := gg.Must("final_score")
		if ours := g.AreaScore(); margin(t, theirs) != ours.Margin() {
			t.Errorf("size %d: GNU Go scores %s, we %s (%+v)\n%v", size, theirs, ours, g.AreaScore(), g.Board())
		}
		scored++
	}
	if scored == 0 {
		t.Error("no game was scored by both")
	}
	t.Logf("%d of %d games scored by both; %d is_legal checks, %d of them illegal", scored, len(sizes), legalChecks, illegal)
}

// margin reads a GTP final_score ("B+3.0", "W+0.5", "0") as Black's lead.
func margin(t *testing.T, s string) float64 {
	t.Helper()
	if s == "0" {
		return 0
	}
	x, err := strconv.ParseFloat(s[min(2, len(s)):], 64)
	if err != nil || len(s) < 3 || s[1] != '+' || s[0] != 'B' && s[0] != 'W' {
		t.Fatalf("final_score %q", s)
	}
	if s[0] == 'W' {
		return -x
	}
	return x
}

func compareStones(t *testing.T, gg *peertest.GTP, g *Game) {
	t.Helper()
	b := g.Board()
	for _, c := range []Color{Black, White} {
		theirs := gg.Must("list_stones %v", c)
		if sortedVertices(theirs) != sortedVertices(vertices(b.Stones(c))) {
			t.Fatalf("%v stones: GNU Go %s, we %s\n%v", c, sortedVertices(theirs), sortedVertices(vertices(b.Stones(c))), b)
		}
		n, err := strconv.Atoi(gg.Must("captures %v", c))
		if err != nil || n != g.Captured(c) {
			t.Fatalf("%v captures: GNU Go %d (%v), we %d", c, n, err, g.Captured(c))
		}
	}
}
