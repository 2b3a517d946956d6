package fibsboard

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// The opening position from the testdata README: You are O, dice 6-2.
const example = "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"

var stdRules = backgammon.Rules{Variant: backgammon.Standard, Cube: true, Crawford: true}

func TestExample(t *testing.T) {
	b, err := Parse(example)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != example {
		t.Errorf("String() = %s", b.String())
	}
	if b.Player != "You" || b.Opponent != "someplayer" || b.MatchLength != 3 || b.Colour != 1 || b.Direction != -1 ||
		b.Home != 0 || b.Bar != 25 || b.PlayerDice != [2]int{6, 2} || b.CanMove != 2 || b.Cube != 1 {
		t.Errorf("fields %+v", b)
	}
	s, me, err := b.ToState(stdRules)
	if err != nil {
		t.Fatal(err)
	}
	if s.Board != backgammon.Standard.StartBoard() || s.Move != me || s.Dice != [2]int{6, 2} ||
		s.MatchLength != 3 || s.CubeOwner != -1 || s.Decision() != backgammon.DecideMove {
		t.Errorf("state %+v me %d", s, me)
	}
	if got := FromState(s, me, "You", "someplayer").String(); got != example {
		t.Errorf("FromState:\n got %s\nwant %s", got, example)
	}
	// The same board written for X moving from 1 to 24.
	x := b.WithOrientation(-1, 1)
	if x.Home != 25 || x.Bar != 0 || x.Turn != -1 || x.Points[19] != -5 || x.Points[24] != 2 || x.Points[1] != -2 {
		t.Errorf("as X: %s", x)
	}
	sx, _, err := x.ToState(stdRules)
	if err != nil {
		t.Fatal(err)
	}
	if sx.Board != s.Board || sx.Move != s.Move {
		t.Errorf("as X: state %v", sx.Board)
	}
}

func TestParseErrors(t *testing.T) {
	f := strings.Split(example, ":")
	with := func(i int, v string) string {
		g := append([]string{}, f...)
		g[i] = v
		return strings.Join(g, ":")
	}
	for _, c := range []struct{ in, want string }{
		{"board:a:b", "want 53 colon-separated fields, got 3"},
		{with(0, "bored"), "field 0 (board)"},
		{with(3, "x"), "field 3 (match length)"},
		{with(10, "1.5"), "field 10 (point 4)"},
		{with(41, "2"), "field 41 (colour)"},
		{with(42, "0"), "field 42 (direction)"},
		{with(43, "25"), "field 43 (home)"},
		{with(44, "0"), "field 44 (bar)"},
		{with(52, ""), "field 52 (redoubles)"},
	} {
		_, err := Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", c.in, err, c.want)
		}
	}
	var fe *FieldError
	if _, err := Parse(with(33, "six")); !errors.As(err, &fe) || fe.Index != 33 {
		t.Errorf("want a *FieldError for field 33, got %v", err)
	}
}

func TestToStateErrors(t *testing.T) {
	f := strings.Split(example, ":")
	with := func(kv ...string) Board {
		g := append([]string{}, f...)
		for i := 0; i < len(kv); i += 2 {
			var idx int
			for _, c := range kv[i] {
				idx = idx*10 + int(c-'0')
			}
			g[idx] = kv[i+1]
		}
		b, err := Parse(strings.Join(g, ":"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		b    Board
		want string
	}{
		{with("12", "6"), "points"},
		{with("45", "1"), "field 45 (player on home)"},
		{with("32", "0"), "field 32 (turn)"},
		{with("34", "0"), "field 33 (player die 1)"},
		{with("37", "3"), "field 37 (cube)"},
		{with("38", "0", "39", "0"), "field 38 (player may double)"},
		{with("40", "1"), "field 40 (was doubled)"},
		{with("4", "3"), "field 4 (player score)"},
		{with("31", "1", "12", "4"), "field 47 (player on bar)"},
		{with("31", "-1", "12", "4", "47", "1"), "field 31 (point 25 (bar))"},
	} {
		_, _, err := c.b.ToState(stdRules)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ToState(%s) = %v, want error containing %q", c.b, err, c.want)
		}
	}
}

// Random games: every decision point goes to a board string for each
// player, in each of the four orientations, and back to the same state.
func TestRoundTripRandomGames(t *testing.T) {
	dice := backgammon.NewDice(3, 5)
	gen := backgammon.NewMoveGen()
	for game := 0; game < 150; game++ {
		r := backgammon.Rules{Cube: true, Crawford: game%3 != 0, MatchLength: []int{0, 3, 5}[game%3]}
		s := backgammon.NewMatch(r)
		if game%3 != 0 {
			s.Score = [2]int{int(dice.Die()) % r.MatchLength, int(dice.Die()) % r.MatchLength}
		}
		first, d0, d1 := dice.Opening()
		if err := s.StartGame(first, d0, d1); err != nil {
			t.Fatal(err)
		}
		for s.GameState == backgammon.GamePlaying {
			for me := 0; me < 2; me++ {
				checkRoundTrip(t, s, me)
			}
			switch s.Decision() {
			case backgammon.DecideCube:
				if dice.Die() == 1 {
					if err := s.Double(); err != nil {
						t.Fatal(err)
					}
					continue
				}
				fallthrough
			case backgammon.NeedRoll:
				a, b := dice.Roll()
				if err := s.SetDice(a, b); err != nil {
					t.Fatal(err)
				}
			case backgammon.DecideTake:
				if err := s.Take(); err != nil {
					t.Fatal(err)
				}
			case backgammon.DecideMove:
				ms, _ := gen.Generate(s.Board, s.Dice[0], s.Dice[1])
				if err := s.Play(ms[dice.Die()%len(ms)]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func checkRoundTrip(t *testing.T, s *backgammon.State, me int) {
	t.Helper()
	b := FromState(s, me, "me", "them")
	if b.Colour != 1 || b.Direction != -1 || b.Home != 0 || b.Bar != 25 {
		t.Fatalf("FromState orientation %s", b)
	}
	if b.PlayerMayDouble == 0 && b.OpponentMayDouble == 0 {
		t.Fatalf("both may-double fields 0: %s", b)
	}
	for _, o := range [][2]int{{1, -1}, {-1, 1}, {1, 1}, {-1, -1}} {
		bo := b.WithOrientation(o[0], o[1])
		parsed, err := Parse(bo.String())
		if err != nil {
			t.Fatalf("Parse(%s): %v", bo, err)
		}
		if parsed != bo {
			t.Fatalf("Parse(String()) = %+v, want %+v", parsed, bo)
		}
		if back := parsed.WithOrientation(1, -1); back != b {
			t.Fatalf("orientation %v and back: %s, want %s", o, back, b)
		}
		got, gme, err := parsed.ToState(s.Rules)
		if err != nil {
			t.Fatalf("ToState(%s): %v", bo, err)
		}
		// ToState makes You player 0: relabel.
		want := *s
		if gme != me {
			want.Score = [2]int{s.Score[1], s.Score[0]}
			want.Move, want.Turn = 1-s.Move, 1-s.Turn
			if s.CubeOwner >= 0 {
				want.CubeOwner = 1 - s.CubeOwner
			}
		}
		if got.Board != want.Board || got.Move != want.Move || got.Turn != want.Turn || got.Dice != want.Dice ||
			got.Score != want.Score || got.CubeValue != want.CubeValue || got.CubeOwner != want.CubeOwner ||
			got.Doubled != want.Doubled || got.CrawfordGame != want.CrawfordGame || got.PostCrawford != want.PostCrawford ||
			got.MatchLength != want.MatchLength || got.Decision() != want.Decision() {
			t.Fatalf("%s: ToState = %+v\nwant %+v", bo, got, &want)
		}
		if again := FromState(got, gme, "me", "them"); again != b {
			t.Fatalf("FromState(ToState(%s)) = %s", b, again)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(example)
	f.Add("board:a:b:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:1:1:1:0:-1:1:25:0:0:0:0:0:0:0:0:0")
	f.Add("board:a:b")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(b.String())
		if err != nil || again != b {
			t.Fatalf("Parse(String()) of %q: %+v, %v", s, again, err)
		}
		st, me, err := b.ToState(stdRules)
		if err != nil {
			return
		}
		_ = st.Decision()
		_ = FromState(st, me, b.Player, b.Opponent)
	})
}
