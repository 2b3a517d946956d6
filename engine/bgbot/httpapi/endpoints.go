package httpapi

import (
	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// MoveResponse answers /move: the move in gnubg notation, as the
// protocol's genmove answers it ("none" when no checker can move).
type MoveResponse struct {
	Move string `json:"move"`
}

// CubeResponse answers /cube. The equities are the doubler's (the player
// on roll's): in units of the cube in money play, match winning chances
// in a match (Units "cube" or "mwc"). Double is what gencube answers
// before the roll; Take is what gentake answers once the double is
// offered (for a double not yet offered, the answer if it were).
type CubeResponse struct {
	Units      string  `json:"units"`
	NoDouble   float64 `json:"no_double"`
	DoubleTake float64 `json:"double_take"`
	DoublePass float64 `json:"double_pass"`
	Double     *bool   `json:"double,omitempty"`
	Take       string  `json:"take,omitempty"`
}

// EvalResponse answers /eval: the cubeless probabilities for the player
// on roll, judged before the roll (as the protocol's evaluate), and, where
// the player on roll may double, the cubeful equities and the equity of
// the right cube action.
type EvalResponse struct {
	Cubeless Cubeless `json:"cubeless"`
	Cubeful  *Cubeful `json:"cubeful,omitempty"`
}

// Cubeless are outcome probabilities (the gammons include the
// backgammons) and their cubeless money equity.
type Cubeless struct {
	Win            float64 `json:"win"`
	WinGammon      float64 `json:"win_gammon"`
	WinBackgammon  float64 `json:"win_backgammon"`
	LoseGammon     float64 `json:"lose_gammon"`
	LoseBackgammon float64 `json:"lose_backgammon"`
	Equity         float64 `json:"equity"`
}

// Cubeful are the cube equities of CubeResponse and Equity, the best of
// them for the player on roll: no double, or double/take or double/pass,
// whichever the opponent prefers, where doubling is right.
type Cubeful struct {
	Units      string  `json:"units"`
	NoDouble   float64 `json:"no_double"`
	DoubleTake float64 `json:"double_take"`
	DoublePass float64 `json:"double_pass"`
	Equity     float64 `json:"equity"`
}

func units(s *backgammon.State) string {
	if s.Money() {
		return "cube"
	}
	return "mwc"
}

func (h *Handler) move(bot *bgbot.Bot, s *backgammon.State) (any, error) {
	if s.Decision() != backgammon.DecideMove {
		return nil, fieldErrorf("dice", "the position waits for a %v decision: a move needs rolled dice", s.Decision())
	}
	m, ok, err := bot.Move(s)
	if err != nil {
		return nil, err
	}
	if !ok {
		return MoveResponse{Move: bgcmd.NoMove}, nil
	}
	return MoveResponse{Move: backgammon.Format(s.Board, m)}, nil
}

func (h *Handler) cube(bot *bgbot.Bot, s *backgammon.State) (any, error) {
	d := s.Decision()
	if d != backgammon.DecideCube && d != backgammon.NeedRoll && d != backgammon.DecideTake {
		return nil, fieldErrorf("dice", "the position waits for a %v decision: a cube decision comes before the roll", d)
	}
	ce, err := bot.Cube(s)
	if err != nil {
		return nil, err
	}
	out := CubeResponse{Units: units(s), NoDouble: ce.NoDouble, DoubleTake: ce.DoubleTake, DoublePass: ce.DoublePass}
	taker := s
	if d != backgammon.DecideTake {
		dbl, err := bot.Double(s)
		if err != nil {
			return nil, err
		}
		out.Double = &dbl
		if !s.CanDouble() {
			return out, nil
		}
		offered := *s
		if err := offered.Double(); err != nil {
			return nil, err
		}
		taker = &offered
	}
	a, err := bot.Take(taker)
	if err != nil {
		return nil, err
	}
	out.Take = answerName(a)
	return out, nil
}

func answerName(a backgammon.Answer) string {
	switch a {
	case backgammon.Take:
		return "take"
	case backgammon.Beaver:
		return "beaver"
	}
	return "drop"
}

func (h *Handler) eval(bot *bgbot.Bot, s *backgammon.State) (any, error) {
	bot.SetVariant(s.Variant)
	p := bot.Probs(s.Board)
	out := EvalResponse{Cubeless: Cubeless{
		Win: float64(p[bgbot.Win]), WinGammon: float64(p[bgbot.WinGammon]), WinBackgammon: float64(p[bgbot.WinBackgammon]),
		LoseGammon: float64(p[bgbot.LoseGammon]), LoseBackgammon: float64(p[bgbot.LoseBackgammon]), Equity: float64(p.Equity()),
	}}
	before := *s
	before.Dice = [2]int{}
	if !before.CanDouble() || bot.Config().Level != bgbot.LevelNet {
		return out, nil
	}
	ce, err := bot.Cube(&before)
	if err != nil {
		return nil, err
	}
	eq := ce.NoDouble
	if ce.ShouldDouble() {
		eq = min(ce.DoubleTake, ce.DoublePass)
	}
	out.Cubeful = &Cubeful{Units: units(s), NoDouble: ce.NoDouble, DoubleTake: ce.DoubleTake, DoublePass: ce.DoublePass, Equity: eq}
	return out, nil
}
