package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// With Config.CubeWeights a 0-ply cube decision judges the position by
// the mean of every network's probabilities; chequer play, deeper cube
// decisions and exact bearoff positions are left alone.
func TestCubeWeightsAverage(t *testing.T) {
	main, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewRandomWeights(16, 5)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	ens, err := NewBot(Config{Level: LevelNet, CubeWeights: []*Weights{other}})
	if err != nil {
		t.Fatal(err)
	}
	s := backgammon.NewMatch(backgammon.Rules{Cube: true})
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	m, _, ok := plain.ChooseMove(s.Board, 3, 1)
	if !ok {
		t.Fatal("no opening move for 3-1")
	}
	s.Board = s.Board.Apply(m).Swap()
	s.Dice = [2]int{}
	s.Move, s.Turn = 1, 1
	p, q := main.NewEvaluator().Evaluate(s.Board), other.NewEvaluator().Evaluate(s.Board)
	var mean Probs
	for k := range mean {
		mean[k] = (p[k] + q[k]) / 2
	}
	want := MoneyCube(mean, MoneyContactCubeEfficiency, true, false)
	got, err := ens.Cube(s)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.NoDouble-want.NoDouble) > 1e-6 || math.Abs(got.DoubleTake-want.DoubleTake) > 1e-6 {
		t.Errorf("cube equities %+v, want those of the mean probabilities %+v", got, want)
	}
	if got := ens.CubeProbs(s.Board); got != mean {
		t.Errorf("CubeProbs %v, want the mean %v", got, mean)
	}
	if got := plain.CubeProbs(s.Board); got != p {
		t.Errorf("CubeProbs without cube networks %v, want the network's %v", got, p)
	}
	alone, err := plain.Cube(s)
	if err != nil {
		t.Fatal(err)
	}
	if alone == got {
		t.Errorf("the second network changed nothing: %+v", got)
	}
	// Moves are the main network's alone.
	m1, _, _ := plain.ChooseMove(s.Board, 6, 5)
	m2, _, _ := ens.ChooseMove(s.Board, 6, 5)
	if m1 != m2 {
		t.Errorf("the cube networks changed the move: %v against %v", m2, m1)
	}
	// A bearoff the database answers exactly stays exact.
	var race backgammon.Board
	race[backgammon.OnRoll][1], race[backgammon.OnRoll][2] = 2, 1
	race[backgammon.Opponent][3], race[backgammon.Opponent][5] = 2, 2
	if a, b := plain.cubeProbs(race, 0), ens.cubeProbs(race, 0); a != b {
		t.Errorf("bearoff judged %v with the cube networks, %v without", b, a)
	}
	if _, err := NewBot(Config{Level: LevelNet, CubeWeights: []*Weights{nil}}); err == nil {
		t.Error("a missing cube network accepted")
	}
}

// With Config.CubeAlone the 0-ply cube decisions judge the position by the
// cube networks alone (the mean of two, here), and exact bearoffs stay
// exact; it refuses to run without cube networks.
func TestCubeAlone(t *testing.T) {
	a, err := NewRandomWeights(16, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewRandomWeights(16, 6)
	if err != nil {
		t.Fatal(err)
	}
	bot, err := NewBot(Config{Level: LevelNet, CubeWeights: []*Weights{a, b}, CubeAlone: true})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	s := backgammon.NewMatch(backgammon.Rules{Cube: true})
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	board := s.Board
	p, q := a.NewEvaluator().Evaluate(board), b.NewEvaluator().Evaluate(board)
	var mean Probs
	for k := range mean {
		mean[k] = (p[k] + q[k]) / 2
	}
	if got := bot.CubeProbs(board); got != mean {
		t.Errorf("CubeProbs %v, want the cube networks' mean %v", got, mean)
	}
	if got := bot.Probs(board); got != plain.Probs(board) {
		t.Errorf("Probs %v changed by the cube networks, want the main network's %v", got, plain.Probs(board))
	}
	var race backgammon.Board
	race[backgammon.OnRoll][1], race[backgammon.OnRoll][2] = 2, 1
	race[backgammon.Opponent][3], race[backgammon.Opponent][5] = 2, 2
	if got, want := bot.cubeProbs(race, 0), plain.cubeProbs(race, 0); got != want {
		t.Errorf("bearoff judged %v by the cube networks alone, want the exact %v", got, want)
	}
	if _, err := NewBot(Config{Level: LevelNet, CubeAlone: true}); err == nil {
		t.Error("CubeAlone without cube networks accepted")
	}
}
