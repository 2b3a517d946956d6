package gnubgid

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// The match ID example of the GNU Backgammon manual.
func TestManualMatchID(t *testing.T) {
	const id = "QYkqASAAIAAA"
	k, err := DecodeMatchKey(id)
	if err != nil {
		t.Fatal(err)
	}
	want := MatchKey{
		CubeLog2: 1, CubeOwner: 0, DiceOwner: 1, GameState: 1, Turn: 1,
		Dice: [2]int{5, 2}, MatchLength: 9, Score: [2]int{2, 4},
	}
	if k != want {
		t.Errorf("DecodeMatchKey(%s) = %+v, want %+v", id, k, want)
	}
	raw, err := idEncoding.DecodeString(id)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.ToUpper(hex.EncodeToString(raw)); got != "41892A0120002000"+"00" {
		t.Errorf("key bytes %s", got)
	}
	if got := EncodeMatchKey(want); got != id {
		t.Errorf("EncodeMatchKey = %s, want %s", got, id)
	}
	s, err := DecodeState("4HPwATDgc/ABMA", id, backgammon.Rules{Cube: true, Crawford: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.MatchLength != 9 || s.Score != [2]int{2, 4} || s.CubeValue != 2 || s.CubeOwner != 0 ||
		s.Move != 1 || s.Dice != [2]int{5, 2} || s.Decision() != backgammon.DecideMove {
		t.Errorf("state %+v", s)
	}
	if p, m := Encode(s); p != "4HPwATDgc/ABMA" || m != id {
		t.Errorf("Encode = %s %s", p, m)
	}
}

// The position/match ID pairs published in the manual.
func TestManualPairs(t *testing.T) {
	for _, c := range []struct {
		pos, mid string
		v        backgammon.Variant
		pips     [2]int
	}{
		{"4HPwATDgc/ABMA", "cAkAAAAAAAAA", backgammon.Standard, [2]int{167, 167}},
		{"4HPMwQCMz+AIIQ", "cAkAAAAAAAAA", backgammon.Standard, [2]int{0, 0}},
		{"CgAAEAEAAAAAAA", "cIkMAAAAAAAA", backgammon.Standard, [2]int{0, 0}},
		{"2x0AAOi2AQAAAA", "cAkAAAAAAAAA", backgammon.Standard, [2]int{0, 0}},
		{"AACgAgAAKgAAAA", "cAkAAAAAAAAA", backgammon.Hypergammon3, [2]int{69, 69}},
		{"ADAAAQAkIAAAAA", "cAkAAAAAAAAA", backgammon.Hypergammon3, [2]int{0, 0}},
	} {
		s, err := DecodeState(c.pos, c.mid, backgammon.Rules{Variant: c.v, Cube: true})
		if err != nil {
			t.Errorf("%s %s: %v", c.pos, c.mid, err)
			continue
		}
		if !s.Money() || !s.Jacoby || s.CubeValue != 1 || s.CubeOwner != -1 {
			t.Errorf("%s: state %+v", c.mid, s)
		}
		if c.pips[0] != 0 && (s.Board.Pips(0) != c.pips[0] || s.Board.Pips(1) != c.pips[1]) {
			t.Errorf("%s: pips %d %d", c.pos, s.Board.Pips(0), s.Board.Pips(1))
		}
		if p, m := Encode(s); p != c.pos || m != c.mid {
			t.Errorf("Encode = %s %s, want %s %s", p, m, c.pos, c.mid)
		}
	}
	// cIkMAAAAAAAA: player 1 (X) on roll with 1-3 rolled.
	k, _ := DecodeMatchKey("cIkMAAAAAAAA")
	if k.DiceOwner != 1 || k.Dice != [2]int{1, 3} {
		t.Errorf("cIkMAAAAAAAA: %+v", k)
	}
}

func TestMatchKeyErrors(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"", "want 12 characters"},
		{"cAkAAAAAAAAAA", "want 12 characters"},
		{"cAkA*AAAAAAA", `character 5 '*'`},
		{"cAkAAAAAAAA=", `character 12 '='`},
		{"cAkAAAAAAAAI", "beyond bit 66"},
		{"YAkAAAAAAAAA", "cube owner field is 2"},
		{"cA8AAAAAAAAA", "game state field is 7"},
		{EncodeMatchKey(MatchKey{CubeOwner: 3, GameState: 1, Dice: [2]int{7, 1}}), "dice fields are 7 and 1"},
		{EncodeMatchKey(MatchKey{CubeOwner: 3, GameState: 1, Dice: [2]int{3, 0}}), "one die rolled"},
	} {
		_, err := DecodeMatchKey(c.id)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeMatchKey(%q) = %v, want error containing %q", c.id, err, c.want)
		}
	}
}

func TestDecodeStateErrors(t *testing.T) {
	r := backgammon.Rules{Cube: true, Crawford: true}
	start := "4HPwATDgc/ABMA"
	crawfordMoney := EncodeMatchKey(MatchKey{CubeOwner: 3, GameState: 1, Crawford: true})
	crawfordNoOne := EncodeMatchKey(MatchKey{CubeOwner: 3, GameState: 1, Crawford: true, MatchLength: 5, Score: [2]int{1, 2}})
	over := EncodeMatchKey(MatchKey{CubeOwner: 3, GameState: 1, MatchLength: 5, Score: [2]int{5, 2}})
	doubledRolled := EncodeMatchKey(MatchKey{CubeOwner: 3, GameState: 1, Doubled: true, Turn: 1, Dice: [2]int{3, 1}})
	turn := EncodeMatchKey(MatchKey{CubeOwner: 3, GameState: 1, Turn: 1})
	var b backgammon.Board
	b[backgammon.OnRoll][5] = 15
	oneSided := EncodePosition(b)
	for _, c := range []struct{ pos, mid, want string }{
		{"4HPwATDgc/ABM", "cAkAAAAAAAAA", "want 14 characters"},
		{"4HPwATDgc/AB.A", "cAkAAAAAAAAA", `character 13 '.'`},
		{"//////////////", "cAkAAAAAAAAA", "more than 15"},
		{start, crawfordMoney, "Crawford flag set in money play"},
		{start, crawfordNoOne, "neither player is 1-away"},
		{start, over, "reaches the match length"},
		{start, doubledRolled, "after the dice were rolled"},
		{start, turn, "turn field 1 differs"},
		// A game in progress needs checkers on both sides: bgtool's board
		// and the engines' set_position agree through this one check.
		{"AAAAAAAAAAAAAA", "cAkAAAAAAAAA", "a side has no checkers left"},
		{oneSided, "cAkAAAAAAAAA", "a side has no checkers left"},
	} {
		_, err := DecodeState(c.pos, c.mid, r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeState(%q, %q) = %v, want error containing %q", c.pos, c.mid, err, c.want)
		}
	}
}

// Encoding states reached by random play and decoding them gives the same
// state back, for every decision point of many games.
func TestStateRoundTripRandomGames(t *testing.T) {
	dice := backgammon.NewDice(7, 11)
	for game := 0; game < 200; game++ {
		r := backgammon.Rules{Cube: true, Crawford: true, MatchLength: []int{0, 1, 3, 5, 7}[game%5], Jacoby: game%2 == 0}
		s := backgammon.NewMatch(r)
		first, d0, d1 := dice.Opening()
		if err := s.StartGame(first, d0, d1); err != nil {
			t.Fatal(err)
		}
		for step := 0; s.GameState == backgammon.GamePlaying && step < 400; step++ {
			checkRoundTrip(t, s)
			switch s.Decision() {
			case backgammon.DecideCube:
				if dice.Die() == 1 {
					must(t, s.Double())
					continue
				}
				a, b := dice.Roll()
				must(t, s.SetDice(a, b))
			case backgammon.NeedRoll:
				a, b := dice.Roll()
				must(t, s.SetDice(a, b))
			case backgammon.DecideTake:
				if dice.Die() <= 2 {
					must(t, s.Drop())
				} else {
					must(t, s.Take())
				}
			case backgammon.DecideMove:
				if dice.Die() == 6 && dice.Die() == 6 && dice.Die() == 6 {
					must(t, s.Resign(backgammon.Single))
					continue
				}
				ms := s.LegalMoves()
				must(t, s.Play(ms[dice.Die()%len(ms)]))
			case backgammon.DecideResign:
				must(t, s.AcceptResignation())
			}
		}
		checkRoundTrip(t, s)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func checkRoundTrip(t *testing.T, s *backgammon.State) {
	t.Helper()
	pos, mid := Encode(s)
	got, err := DecodeState(pos, mid, s.Rules)
	if err != nil {
		t.Fatalf("DecodeState(%s, %s) of %+v: %v", pos, mid, s, err)
	}
	if got.Board != s.Board || got.Move != s.Move || got.Turn != s.Turn || got.Score != s.Score ||
		got.CubeValue != s.CubeValue || got.CubeOwner != s.CubeOwner || got.Doubled != s.Doubled ||
		got.Resigned != s.Resigned || got.CrawfordGame != s.CrawfordGame || got.PostCrawford != s.PostCrawford ||
		got.GameState != s.GameState || got.Decision() != s.Decision() {
		t.Fatalf("%s %s: decoded %+v\nwant %+v", pos, mid, got, s)
	}
	if s.GameState == backgammon.GamePlaying && got.Dice != s.Dice {
		t.Fatalf("dice %v, want %v", got.Dice, s.Dice)
	}
	if s.GameState > backgammon.GamePlaying && (got.Winner != s.Winner || got.ResultLevel != s.ResultLevel || got.Points != s.Points) {
		t.Fatalf("%s %s: finished game decoded winner %d level %v points %d, want %d %v %d", pos, mid,
			got.Winner, got.ResultLevel, got.Points, s.Winner, s.ResultLevel, s.Points)
	}
	if p2, m2 := Encode(got); p2 != pos || m2 != mid {
		t.Fatalf("re-encoded %s %s, want %s %s", p2, m2, pos, mid)
	}
}
