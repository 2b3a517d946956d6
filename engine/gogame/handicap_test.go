package gogame

import (
	"errors"
	"strings"
	"testing"
)

func vertices(ms []Move) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.String())
	}
	return strings.Join(s, " ")
}

func TestFixedHandicap(t *testing.T) {
	for _, tc := range []struct {
		size, n int
		want    string
	}{
		// The GTP specification's table for 19x19.
		{19, 2, "D4 Q16"},
		{19, 3, "D4 Q16 D16"},
		{19, 4, "D4 Q16 D16 Q4"},
		{19, 5, "D4 Q16 D16 Q4 K10"},
		{19, 6, "D4 Q16 D16 Q4 D10 Q10"},
		{19, 7, "D4 Q16 D16 Q4 D10 Q10 K10"},
		{19, 8, "D4 Q16 D16 Q4 D10 Q10 K4 K16"},
		{19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"},
		{13, 4, "D4 K10 D10 K4"},
		{13, 9, "D4 K10 D10 K4 D7 K7 G4 G10 G7"},
		{9, 2, "C3 G7"},
		{9, 5, "C3 G7 C7 G3 E5"},
		{9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5"},
		{8, 4, "C3 F6 C6 F3"},
		{10, 3, "C3 H8 C8"},
		{25, 9, "D4 W22 D22 W4 D13 W13 N4 N22 N13"},
	} {
		got, err := FixedHandicap(tc.size, tc.n)
		if err != nil || vertices(got) != tc.want {
			t.Errorf("FixedHandicap(%d, %d) = %q, %v; want %q", tc.size, tc.n, vertices(got), err, tc.want)
		}
	}
	for _, tc := range []struct{ size, max int }{
		{2, 0}, {7, 0}, {8, 4}, {9, 9}, {10, 4}, {11, 9}, {12, 4}, {13, 9}, {18, 4}, {19, 9}, {24, 4}, {25, 9},
	} {
		if got := MaxFixedHandicap(tc.size); got != tc.max {
			t.Errorf("MaxFixedHandicap(%d) = %d, want %d", tc.size, got, tc.max)
		}
		if _, err := FixedHandicap(tc.size, max(tc.max+1, 2)); err == nil || err.Error() != "fixed handicap out of range for board size "+itoa(tc.size) {
			t.Errorf("FixedHandicap(%d, %d): %v", tc.size, max(tc.max+1, 2), err)
		}
	}
	if _, err := FixedHandicap(19, 1); err == nil {
		t.Error("a handicap of 1 stone should be refused")
	}
}

func itoa(n int) string { return At(0, n-1).String()[1:] }

func TestFreeHandicap(t *testing.T) {
	if MaxFreeHandicap(9) != 80 || MaxFreeHandicap(2) != 3 {
		t.Errorf("MaxFreeHandicap: %d %d", MaxFreeHandicap(9), MaxFreeHandicap(2))
	}
	for _, tc := range []struct {
		size   int
		stones []Move
		err    string
	}{
		{9, []Move{At(0, 0), At(8, 8)}, ""},
		{2, []Move{At(0, 0), At(1, 0), At(0, 1)}, ""},
		{2, []Move{At(0, 0), At(1, 0), At(0, 1), At(1, 1)}, "out of range"},
		{9, []Move{At(0, 0)}, "at least 2"},
		{9, []Move{At(0, 0), At(0, 0)}, "duplicate point A1"},
		{9, []Move{At(0, 0), Pass}, "pass"},
		{9, []Move{At(0, 0), At(9, 0)}, "off the board"},
	} {
		err := CheckFreeHandicap(tc.size, tc.stones)
		if (tc.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("CheckFreeHandicap(%d, %v) = %v, want %q", tc.size, vertices(tc.stones), err, tc.err)
		}
	}
}

func TestGameHandicap(t *testing.T) {
	g, _ := NewGame(Settings{Size: 9, Komi: 0.5})
	stones, err := g.SetFixedHandicap(4)
	if err != nil || vertices(stones) != "C3 G7 C7 G3" {
		t.Fatalf("fixed handicap: %v, %v", vertices(stones), err)
	}
	if g.ToPlay() != White || vertices(g.Handicap()) != "C3 G7 C7 G3" || len(g.Moves()) != 0 {
		t.Errorf("after the handicap: %v to play, handicap %v", g.ToPlay(), vertices(g.Handicap()))
	}
	if got := vertices(g.Board().Stones(Black)); got != "C3 G3 C7 G7" {
		t.Errorf("black stones %s", got)
	}
	if _, err := g.SetFixedHandicap(2); err == nil {
		t.Error("a second handicap should be refused")
	}
	if err := g.Play(Black, At(4, 4)); !errors.Is(err, ErrWrongTurn) {
		t.Errorf("black after the handicap: %v", err)
	}

	g, _ = NewGame(Settings{Size: 3, Superko: true})
	// The largest free handicap: all but one point. White may play there:
	// it takes the black chain's last liberty and captures it.
	var all []Move
	for i := range 8 {
		all = append(all, At(i%3, i/3))
	}
	if err := g.SetFreeHandicap(all); err != nil {
		t.Fatal(err)
	}
	mustPlay(t, g, "C3")
	if g.Captured(White) != 8 {
		t.Errorf("C3 should capture 8 stones:\n%v", g.Board())
	}
	if s := g.AreaScore(); s.Black != 0 || s.White != 9 {
		t.Errorf("score %+v", s)
	}
	// On 2x2 with 3 stones, the last point is suicide for Black.
	g, _ = NewGame(Settings{Size: 2})
	if err := g.SetFreeHandicap(all[:2]); err != nil {
		t.Fatal(err)
	}
	mustPlay(t, g, "pass A2 pass")
	if err := g.Play(Black, At(1, 1)); !errors.Is(err, ErrSuicide) {
		t.Errorf("black filling the whole board: %v", err)
	}
	g, _ = NewGame(Settings{Size: 9})
	mustPlay(t, g, "E5")
	if err := g.SetFreeHandicap([]Move{At(0, 0), At(1, 1)}); err == nil {
		t.Error("a handicap after a move should be refused")
	}
}

func TestSetup(t *testing.T) {
	g, _ := NewGame(Settings{Size: 5, Superko: true})
	// A white stone in atari at B2, black to play: C2 captures it.
	black := []Move{At(0, 1), At(1, 0), At(1, 2)}
	white := []Move{At(1, 1), At(3, 3)}
	if err := g.Setup(black, white, Black); err != nil {
		t.Fatal(err)
	}
	if g.ToPlay() != Black || g.Handicap() != nil {
		t.Errorf("after setup: %v to play, handicap %v", g.ToPlay(), g.Handicap())
	}
	mustPlay(t, g, "C2")
	if g.Captured(Black) != 1 {
		t.Errorf("C2 should capture B2:\n%v", g.Board())
	}
	checkInvariants(t, g.pos)
	for _, tc := range []struct {
		black, white []Move
		want         string
	}{
		{[]Move{At(0, 0)}, []Move{At(0, 0)}, "given twice"},
		{[]Move{At(0, 0), At(1, 1)}, []Move{At(1, 0), At(0, 1)}, "no liberty"},
		{[]Move{At(5, 0)}, nil, "off the board"},
	} {
		g, _ := NewGame(Settings{Size: 5})
		if err := g.Setup(tc.black, tc.white, White); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Setup(%v, %v) = %v, want %q", vertices(tc.black), vertices(tc.white), err, tc.want)
		}
		if len(g.Board().Stones(Black)) != 0 {
			t.Errorf("a refused setup left stones on the board")
		}
	}
}
