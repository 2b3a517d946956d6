package bgbot

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// raceState is a money game (cube centred, no Jacoby) with board b, the
// player 0 on roll before rolling.
func raceState(t *testing.T, b backgammon.Board) *backgammon.State {
	t.Helper()
	s := backgammon.NewMatch(backgammon.Rules{Cube: true})
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	s.Board, s.Move, s.Turn, s.Dice = b, 0, 0, [2]int{}
	return s
}

func TestResignation(t *testing.T) {
	bot, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	var b backgammon.Board
	// Six checkers on our 6-point need two rolls; the opponent's last
	// checker needs one: a sure single loss (9 of ours are off).
	b[backgammon.OnRoll][5] = 6
	b[backgammon.Opponent][0] = 1
	if got := bot.Resignation(raceState(t, b)); got != backgammon.Single {
		t.Errorf("hopeless bear-off: resign %v, want single", got)
	}
	// With two checkers on the 1-point we bear off at once: play on.
	b[backgammon.OnRoll][5], b[backgammon.OnRoll][0] = 0, 2
	if got := bot.Resignation(raceState(t, b)); got != backgammon.NoResult {
		t.Errorf("winning bear-off: resign %v", got)
	}
	// Fifteen checkers still on our 13-point against two opponent
	// checkers on its 1-point: gammoned for sure, no backgammon possible.
	b = backgammon.Board{}
	b[backgammon.OnRoll][12] = 15
	b[backgammon.Opponent][0] = 2
	if got := bot.Resignation(raceState(t, b)); got != backgammon.Gammon {
		t.Errorf("sure gammon: resign %v, want gammon", got)
	}
	// The same with the opponent needing many rolls: not sure, play on.
	b[backgammon.Opponent][0], b[backgammon.Opponent][5] = 0, 15
	if got := bot.Resignation(raceState(t, b)); got != backgammon.NoResult {
		t.Errorf("open race: resign %v", got)
	}
	// With a two-sided database the answer is exact: one checker on the
	// 6-point against the opponent's last one can still win (27/36).
	two, err := NewBearoff2(2)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewBot(Config{Level: LevelNet, Bearoff2: two})
	if err != nil {
		t.Fatal(err)
	}
	b = backgammon.Board{}
	b[backgammon.OnRoll][5] = 1
	b[backgammon.Opponent][0] = 1
	if got := exact.Resignation(raceState(t, b)); got != backgammon.NoResult {
		t.Errorf("6-point v ace with the two-sided database: resign %v", got)
	}
	b[backgammon.OnRoll][5], b[backgammon.OnRoll][4] = 1, 1 // two checkers: two rolls unless doubles of 6 pips or more
	if got := exact.Resignation(raceState(t, b)); got != backgammon.NoResult {
		t.Errorf("6- and 5-point v ace: resign %v, but 3-3 and up still win", got)
	}
	// Never with contact: the opening position.
	if got := bot.Resignation(raceState(t, backgammon.Standard.StartBoard())); got != backgammon.NoResult {
		t.Errorf("opening: resign %v", got)
	}
}

func TestAcceptResignation(t *testing.T) {
	bot, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	offer := func(b backgammon.Board, level backgammon.Result) bool {
		t.Helper()
		s := raceState(t, b)
		if err := s.Resign(level); err != nil {
			t.Fatal(err)
		}
		ok, err := bot.AcceptResignation(s)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// At the opening a single is worth more than playing on.
	if !offer(backgammon.Standard.StartBoard(), backgammon.Single) {
		t.Error("single offered at the opening: declined")
	}
	// The resigner (on roll) is closed out with three on the bar and the
	// rest on its 24-point: a gammon is likely, so a single is declined
	// and a backgammon accepted.
	var b backgammon.Board
	b[backgammon.OnRoll][backgammon.BarIndex] = 3
	b[backgammon.OnRoll][23] = 12
	for i := range 6 {
		b[backgammon.Opponent][i] = 2
	}
	b[backgammon.Opponent][6] = 3
	if offer(b, backgammon.Single) {
		t.Errorf("single offered when closed out (accepter's probabilities %v): accepted", bot.Probs(b).Invert())
	}
	if !offer(b, backgammon.Backgammon) {
		t.Error("backgammon offered: declined")
	}
	// Once the resigner has a checker off, a single is all there is.
	b = backgammon.Board{}
	b[backgammon.OnRoll][0] = 14
	b[backgammon.Opponent][5] = 15
	if !offer(b, backgammon.Single) {
		t.Error("single offered after the resigner bore off: declined")
	}
	s := raceState(t, b)
	if _, err := bot.AcceptResignation(s); err == nil {
		t.Error("no resignation pending: no error")
	}
}
