package rollout

import (
	"fmt"
	"sort"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// The names of a cube decision's alternatives.
const (
	NoDouble   = "No double"
	DoubleTake = "Double, take"
	DoublePass = "Double, pass"
)

// fresh copies s through its IDs: a state no move generator has touched,
// safe to copy by value into each trial.
func fresh(s *backgammon.State, rules backgammon.Rules) (*backgammon.State, error) {
	pos, match := gnubgid.Encode(s)
	return gnubgid.DecodeState(pos, match, rules)
}

func checkBeforeRoll(s *backgammon.State) error {
	if s.GameState != backgammon.GamePlaying {
		return fmt.Errorf("no game in progress")
	}
	if d := s.Decision(); d != backgammon.DecideCube && d != backgammon.NeedRoll {
		return fmt.Errorf("the position is not before the roll (waiting for %v)", d)
	}
	return nil
}

// NewPosition rolls out the position of s before the roll, as gnubg's
// rollout of a position does: the player on roll rolls at once (no double
// before the first roll); both sides may double later in a cubeful
// rollout.
func NewPosition(s *backgammon.State, rules backgammon.Rules, set Settings) (*Rollout, error) {
	if err := checkBeforeRoll(s); err != nil {
		return nil, fmt.Errorf("rollout: %w", err)
	}
	pos, match := gnubgid.Encode(s)
	return &Rollout{Settings: set, Rules: rules, Alternatives: []Alternative{{
		Name: "Position", PositionID: pos, MatchID: match, NoDoubleFirst: true, BaseCube: s.CubeValue,
	}}}, nil
}

// NewCube rolls out the cube decision of the player on roll of s: no
// double, double/take (the taker owning the cube at twice its value, the
// doubler rolling) and double/pass (exact: the cube's value, or the match
// winning chance of winning it). It is always cubeful.
func NewCube(s *backgammon.State, rules backgammon.Rules, set Settings) (*Rollout, error) {
	if err := checkBeforeRoll(s); err != nil {
		return nil, fmt.Errorf("rollout: %w", err)
	}
	if !s.CanDouble() {
		return nil, fmt.Errorf("rollout: the player on roll cannot double")
	}
	set.Cubeful = true
	pos, match := gnubgid.Encode(s)
	taken, err := fresh(s, rules)
	if err != nil {
		return nil, fmt.Errorf("rollout: %w", err)
	}
	if err := taken.Double(); err != nil {
		return nil, fmt.Errorf("rollout: %w", err)
	}
	if err := taken.Take(); err != nil {
		return nil, fmt.Errorf("rollout: %w", err)
	}
	tpos, tmatch := gnubgid.Encode(taken)
	pass := 1.0
	if !s.Money() {
		met, err := bgbot.DefaultMET()
		if err != nil {
			return nil, fmt.Errorf("rollout: %w", err)
		}
		me, opp := need(s, s.Move)
		pass = met.Win(me-s.CubeValue, opp, postCrawford(s))
	}
	return &Rollout{Settings: set, Rules: rules, Alternatives: []Alternative{
		{Name: NoDouble, PositionID: pos, MatchID: match, NoDoubleFirst: true, BaseCube: s.CubeValue},
		{Name: DoubleTake, PositionID: tpos, MatchID: tmatch, NoDoubleFirst: true, BaseCube: s.CubeValue},
		{Name: DoublePass, PositionID: pos, MatchID: match, BaseCube: s.CubeValue, Fixed: &pass},
	}}, nil
}

// ProperCubeAction names the proper cube action by the results of a
// NewCube rollout, in its order: NoDouble unless both double/take and
// double/pass beat it, then the cheaper of the two for the doubler's
// opponent (a tie passes).
func ProperCubeAction(results []Result) (string, error) {
	if len(results) != 3 || results[0].Cubeful == nil || results[1].Cubeful == nil || results[2].Cubeful == nil {
		return "", fmt.Errorf("rollout: want the three cubeful results of a cube decision, have %d", len(results))
	}
	ce := bgbot.CubeEquities{NoDouble: results[0].Cubeful.Mean, DoubleTake: results[1].Cubeful.Mean, DoublePass: results[2].Cubeful.Mean}
	switch {
	case !ce.ShouldDouble():
		return NoDouble, nil
	case ce.DoubleTake < ce.DoublePass:
		return DoubleTake, nil
	}
	return DoublePass, nil
}

// Candidate is a legal move of a chequer decision with the bot's cubeless
// money equity of it, from the mover's view.
type Candidate struct {
	Move   backgammon.Move
	Text   string
	Equity float64
}

// Candidates ranks the legal moves of the player on roll of s with the
// dice rolled (s waits for a move), best first by bot's cubeless equity
// (a stable sort: equal moves keep the generator's order).
func Candidates(s *backgammon.State, bot *bgbot.Bot) ([]Candidate, error) {
	if s.GameState != backgammon.GamePlaying || s.Decision() != backgammon.DecideMove {
		return nil, fmt.Errorf("rollout: the position does not wait for a move")
	}
	bot.SetVariant(s.Variant)
	moves, results := backgammon.LegalMoves(s.Board, s.Dice[0], s.Dice[1])
	out := make([]Candidate, len(moves))
	for i, m := range moves {
		eq := 0.0
		if p, over := bgbot.Outcome(&results[i], s.Variant.Checkers()); over {
			eq = float64(p.Equity())
		} else {
			eq = float64(bot.Probs(results[i].Swap()).Invert().Equity())
		}
		out[i] = Candidate{Move: m, Text: backgammon.Format(s.Board, m), Equity: eq}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Equity > out[j].Equity })
	return out, nil
}

// NewChequer rolls out the chequer decision of s (dice rolled, a move to
// make) for the given moves: each is played, and the position after it
// rolled out with the opponent on roll (who may double at once in a
// cubeful rollout), the results seen from the mover. A move that ends the
// game cannot be rolled out (there is nothing to decide).
func NewChequer(s *backgammon.State, rules backgammon.Rules, set Settings, moves []Candidate) (*Rollout, error) {
	if s.GameState != backgammon.GamePlaying || s.Decision() != backgammon.DecideMove {
		return nil, fmt.Errorf("rollout: the position does not wait for a move")
	}
	if len(moves) == 0 {
		return nil, fmt.Errorf("rollout: no moves to roll out")
	}
	r := &Rollout{Settings: set, Rules: rules}
	for _, c := range moves {
		after, err := fresh(s, rules)
		if err != nil {
			return nil, fmt.Errorf("rollout: %w", err)
		}
		if err := after.Play(c.Move); err != nil {
			return nil, fmt.Errorf("rollout: move %s: %w", c.Text, err)
		}
		if after.GameState != backgammon.GamePlaying {
			return nil, fmt.Errorf("rollout: move %s ends the game", c.Text)
		}
		pos, match := gnubgid.Encode(after)
		r.Alternatives = append(r.Alternatives, Alternative{
			Name: c.Text, PositionID: pos, MatchID: match, Invert: true, BaseCube: s.CubeValue,
		})
	}
	return r, nil
}
