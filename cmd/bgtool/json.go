package main

import (
	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// boardOutput is `bgtool board --json`; docs/bgtool.md describes it.
type boardOutput struct {
	PositionID   string     `json:"position_id"`
	MatchID      string     `json:"match_id"`
	Names        [2]string  `json:"names"`
	Points       [2][25]int `json:"points"`
	Pips         [2]int     `json:"pips"`
	BorneOff     [2]int     `json:"borne_off"`
	Move         int        `json:"move"`
	Turn         int        `json:"turn"`
	Decision     string     `json:"decision"`
	Dice         [2]int     `json:"dice"`
	CubeValue    int        `json:"cube_value"`
	CubeOwner    int        `json:"cube_owner"`
	Doubled      bool       `json:"doubled"`
	Resigned     string     `json:"resigned"`
	MatchLength  int        `json:"match_length"`
	Score        [2]int     `json:"score"`
	Crawford     bool       `json:"crawford"`
	PostCrawford bool       `json:"post_crawford"`
	Jacoby       bool       `json:"jacoby"`
	GameState    string     `json:"game_state"`
}

type moveOutput struct {
	Move       string `json:"move"`
	PositionID string `json:"position_id"`
	// With --eval: the mover's cubeless money equity after the move and
	// its probabilities (win, win gammon, win backgammon, lose gammon,
	// lose backgammon).
	Equity *float64    `json:"equity,omitempty"`
	Probs  *[5]float64 `json:"probs,omitempty"`
}

// movesOutput is `bgtool moves --json`.
type movesOutput struct {
	PositionID string       `json:"position_id"`
	Dice       [2]int       `json:"dice"`
	Moves      []moveOutput `json:"moves"`
}

var gameStates = [...]string{"none", "playing", "over", "resigned", "dropped"}

func boardJSON(s *backgammon.State, names [2]string) boardOutput {
	pos, mid := gnubgid.Encode(s)
	o := boardOutput{
		PositionID: pos, MatchID: mid, Names: names,
		Move: s.Move, Turn: s.Turn, Decision: s.Decision().String(), Dice: s.Dice,
		CubeValue: s.CubeValue, CubeOwner: s.CubeOwner, Doubled: s.Doubled, Resigned: s.Resigned.String(),
		MatchLength: s.MatchLength, Score: s.Score, Crawford: s.CrawfordGame, PostCrawford: s.PostCrawford,
		Jacoby: s.Jacoby, GameState: gameStates[s.GameState],
	}
	for p := 0; p < 2; p++ {
		b := s.BoardFor(p)
		for i, n := range b[backgammon.OnRoll] {
			o.Points[p][i] = int(n)
		}
		o.Pips[p] = b.Pips(backgammon.OnRoll)
		o.BorneOff[p] = b.Borne(backgammon.OnRoll, s.Variant)
	}
	return o
}
