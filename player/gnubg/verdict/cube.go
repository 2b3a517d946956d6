package verdict

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// CubeDecision is one cube decision as gnubg's analysis of a record
// judged it: a player's double or no double before a roll (role
// "doubler"), or its answer to a double (role "taker"). The equities are
// the doubler's, normalised to the cube as gnubg's statistics count
// them (in match play from match winning chances): double/pass is +1.
type CubeDecision struct {
	File          string  `json:"file"` // the record, as named to AnalyseDecisions
	Game          int     `json:"game"` // from 1
	Player        string  `json:"player"`
	Role          string  `json:"role"`   // "doubler" or "taker"
	Length        int     `json:"length"` // match length; 0 for money
	Score         int     `json:"score"`  // the decider's points before the game
	OpponentScore int     `json:"opponent_score"`
	Crawford      bool    `json:"crawford"`
	Cube          int     `json:"cube"`        // before the double
	Owner         string  `json:"owner"`       // "centre", "mover" (the decider) or "opponent"
	PositionID    string  `json:"position_id"` // the doubler on roll
	NoDouble      float64 `json:"no_double"`
	DoubleTake    float64 `json:"double_take"`
	DoublePass    float64 `json:"double_pass"`
	Action        string  `json:"action"` // "no double", "double", "take" or "pass"
	Error         float64 `json:"error"`  // EMG given up against the best action, at least 0
	Close         bool    `json:"close"`  // among gnubg's "close or actual" cube decisions
	// Probs are the analysis's cubeless probabilities of the position
	// for the doubler on roll: win, win gammon, win backgammon, lose
	// gammon, lose backgammon (absent in files written before they were
	// recorded).
	Probs []float64 `json:"probs,omitempty"`
}

// Away is the points the decider still needs, 0 in money play.
func (d CubeDecision) Away() int { return away(d.Length, d.Score) }

// OpponentAway is the points the decider's opponent still needs.
func (d CubeDecision) OpponentAway() int { return away(d.Length, d.OpponentScore) }

// Kind names the decision by what was done and whether gnubg agreed:
// "missed double", "wrong double", "wrong take", "wrong pass", or
// "right no double", "right double", "right take", "right pass".
func (d CubeDecision) Kind() string {
	switch {
	case d.Error <= 0:
		return "right " + d.Action
	case d.Action == "no double":
		return "missed double"
	}
	return "wrong " + d.Action
}

// check says what is wrong with a decision read back, if anything.
func (d CubeDecision) check() error {
	actions := map[string]string{"no double": "doubler", "double": "doubler", "take": "taker", "pass": "taker"}
	if role, ok := actions[d.Action]; !ok || role != d.Role {
		return fmt.Errorf("action %q with role %q", d.Action, d.Role)
	}
	for _, v := range []float64{d.NoDouble, d.DoubleTake, d.DoublePass, d.Error} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("equity or error %v", v)
		}
	}
	if d.Error < -1e-9 {
		return fmt.Errorf("error %v below 0", d.Error)
	}
	if d.Cube < 1 {
		return fmt.Errorf("cube %d", d.Cube)
	}
	if d.Probs != nil {
		if len(d.Probs) != 5 {
			return fmt.Errorf("%d probabilities, want 5", len(d.Probs))
		}
		for _, p := range d.Probs {
			// gnubg's probabilities are float32s, which may round past 0 or 1.
			if !(p >= -1e-6 && p <= 1+1e-6) {
				return fmt.Errorf("probability %v", p)
			}
		}
	}
	return nil
}

// GroupCubeDecisions sums the cube figures of the records' cube
// decisions by group, as GroupDecisions does the chequer figures: a
// group's decisions are its close or actual ones (every error is one).
func GroupCubeDecisions(records []Record, key func(CubeDecision) (string, error)) (map[string][][2]Player, error) {
	groups := map[string][][2]Player{}
	for i, r := range records {
		for _, d := range r.CubeDecisions {
			if !d.Close {
				continue
			}
			k, err := key(d)
			if err != nil {
				return nil, err
			}
			if p := groupPlayer(groups, records, k, i, d.Player); p != nil {
				p.CubeDecisions++
				p.CubeError += d.Error
			}
		}
	}
	return groups, nil
}

// Cost is what action gives up in this decision by its equities (EMG,
// at least 0), as gnubg's statistics count it: a doubler's no double or
// double (the taker answering right), a taker's take or pass.
func (d CubeDecision) Cost(action string) (float64, error) {
	double := min(d.DoubleTake, d.DoublePass)
	best := max(d.NoDouble, double)
	switch {
	case d.Role == "doubler" && action == "no double":
		return best - d.NoDouble, nil
	case d.Role == "doubler" && action == "double":
		return best - double, nil
	case d.Role == "taker" && action == "take":
		return max(0, d.DoubleTake-d.DoublePass), nil
	case d.Role == "taker" && action == "pass":
		return max(0, d.DoublePass-d.DoubleTake), nil
	}
	return 0, fmt.Errorf("no action %q for a %s", action, d.Role)
}

// BestAction is the action the decision's own equities choose: the one
// a judge whose analysis wrote them would take.
func (d CubeDecision) BestAction() string {
	if d.Role == "taker" {
		if d.DoubleTake > d.DoublePass {
			return "pass"
		}
		return "take"
	}
	if min(d.DoubleTake, d.DoublePass) > d.NoDouble {
		return "double"
	}
	return "no double"
}

// CubeTally is a judge's figures over the decisions of one role.
type CubeTally struct {
	Decisions int     // decisions judged
	Close     int     // of them close by the truth's equities (CloseByEquities)
	Error     float64 // EMG given up
	// A doubler's doubles, missed doubles and wrong doubles; a taker's
	// takes, wrong takes and wrong passes.
	Yes, Missed, WrongYes int
}

// Rate is the error in mEMG per close decision.
func (t CubeTally) Rate() float64 { return rate(t.Error, t.Close) }

// CubeCosts prices a judge's answers to the decisions by their equities
// (the truth, such as gnubg's 2-ply analysis), in cs's order: judge
// returns the action it would take in each ("no double" or "double" for
// a doubler's, "take" or "pass" for a taker's). A taker's decisions are
// those where a double was offered in the record.
func CubeCosts(cs []CubeDecision, judge func(CubeDecision) (string, error)) (costs []float64, actions []string, err error) {
	costs, actions = make([]float64, len(cs)), make([]string, len(cs))
	for i, d := range cs {
		if actions[i], err = judge(d); err == nil {
			costs[i], err = d.Cost(actions[i])
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s game %d (%s): %w", d.File, d.Game, d.PositionID, err)
		}
	}
	return costs, actions, nil
}

// TallyCube sums a judge's costs and actions (CubeCosts) by role.
func TallyCube(cs []CubeDecision, costs []float64, actions []string) (doubler, taker CubeTally) {
	for i, d := range cs {
		t := &doubler
		if d.Role == "taker" {
			t = &taker
		}
		t.Decisions++
		t.Error += costs[i]
		if d.CloseByEquities() {
			t.Close++
		}
		yes := actions[i] == "double" || actions[i] == "take"
		if yes {
			t.Yes++
		}
		if costs[i] > 0 {
			if yes {
				t.WrongYes++
			} else {
				t.Missed++
			}
		}
	}
	return doubler, taker
}

// CostGap is how much more b gives up than a per close decision
// (CloseByEquities) of cs, in mEMG, with its 95% interval over the
// records (the decisions' files): a and b price the same decisions
// (CubeCosts), so the records' luck is shared.
func CostGap(cs []CubeDecision, a, b []float64) (float64, [2]float64) {
	index := map[string]int{}
	var diff, close []float64
	for i, d := range cs {
		j, ok := index[d.File]
		if !ok {
			j = len(diff)
			index[d.File] = j
			diff, close = append(diff, 0), append(close, 0)
		}
		diff[j] += b[i] - a[i]
		if d.CloseByEquities() {
			close[j]++
		}
	}
	return ratioStatistic(ratio{sign: 1, e: diff, n: close})
}

// CloseByEquities reports whether the decision is close by its equities
// alone, whatever was done: every answer to a double; a doubler's where
// doubling is right or the best action is within closeMargin of
// double/take (capped at a pass's +1), as gnubg counts a no double.
func (d CubeDecision) CloseByEquities() bool {
	if d.Role == "taker" {
		return true
	}
	best := max(d.NoDouble, min(d.DoubleTake, d.DoublePass))
	return d.BestAction() == "double" || best-min(d.DoubleTake, 1) < closeMargin
}

// closeMargin is how near double/take (capped at a pass's +1) the best
// action's equity must be for gnubg to count a no double as close.
const closeMargin = 0.16

// CubeKey names a decision across two analyses of the same records (at
// different depths, say): the record's base name, the game, the role
// and the position with its match state.
func CubeKey(d CubeDecision) string {
	return fmt.Sprintf("%s/%d/%s/%s/%d-%d/%d/%s", filepath.Base(d.File), d.Game, d.Role, d.PositionID, d.Score, d.OpponentScore, d.Cube, d.Owner)
}

// State is the game state of the decision: the doubler (player 0) on
// roll before rolling, with the double pending for a taker's. Money
// decisions are played under the Jacoby rule, as the ringmaster's
// strength runs play them.
func (d CubeDecision) State() (*backgammon.State, error) {
	b, err := gnubgid.DecodePosition(d.PositionID)
	if err != nil {
		return nil, err
	}
	s := backgammon.NewMatch(backgammon.Rules{MatchLength: d.Length, Crawford: d.Length > 0, Jacoby: d.Length == 0, Cube: true})
	s.Board = b
	s.GameState = backgammon.GamePlaying
	s.Move, s.Turn = 0, 0
	s.Winner = -1
	s.CubeValue = d.Cube
	s.Score = [2]int{d.Score, d.OpponentScore}
	owner := map[string]int{"centre": -1, "mover": 0, "opponent": 1}
	if d.Role == "taker" {
		// The record's figures are the taker's: turn them to the doubler's.
		s.Score = [2]int{d.OpponentScore, d.Score}
		owner = map[string]int{"centre": -1, "mover": 1, "opponent": 0}
	}
	o, ok := owner[d.Owner]
	if !ok {
		return nil, fmt.Errorf("cube owner %q", d.Owner)
	}
	s.CubeOwner = o
	s.CrawfordGame = d.Crawford
	s.PostCrawford = d.Length > 0 && !d.Crawford && (s.Score[0] == d.Length-1 || s.Score[1] == d.Length-1)
	if d.Role == "taker" {
		if err := s.Double(); err != nil {
			return nil, fmt.Errorf("a double in %s with the cube at %d (%s): %w", d.PositionID, d.Cube, d.Owner, err)
		}
	}
	return s, nil
}

// BiasGroup is how far a cube model's equities lie from the truth's over a
// group of close doubling decisions: the means of the model's no-double
// and double/take less the truth's, in the truth's normalised units (a
// pass is +1).
type BiasGroup struct {
	Group      string // as the key function of ModelBias names it
	Decisions  int
	NoDouble   float64
	DoubleTake float64
}

// ModelBias averages, group by group (key names a decision's group, as
// for GroupCubeDecisions), what model (no double and double/take for the
// doubler on roll, in the truth's units) says less what the truth's own
// equities say, over the close decisions of cs where a player could
// double, largest groups first. A lean that a group shows and its
// neighbours do not is a fault of the model there rather than noise of
// the probabilities, when model is fed the truth's own probabilities.
func ModelBias(cs []CubeDecision, key func(CubeDecision) (string, error), model func(CubeDecision) (nd, dt float64, err error)) ([]BiasGroup, error) {
	groups := map[string]*BiasGroup{}
	for _, d := range cs {
		if d.Role != "doubler" || !d.Close {
			continue
		}
		nd, dt, err := model(d)
		if err != nil {
			return nil, fmt.Errorf("%s game %d: %w", d.File, d.Game, err)
		}
		k, err := key(d)
		if err != nil {
			return nil, err
		}
		g := groups[k]
		if g == nil {
			g = &BiasGroup{Group: k}
			groups[k] = g
		}
		g.Decisions++
		g.NoDouble += nd - d.NoDouble
		g.DoubleTake += dt - d.DoubleTake
	}
	out := make([]BiasGroup, 0, len(groups))
	for _, g := range groups {
		g.NoDouble /= float64(g.Decisions)
		g.DoubleTake /= float64(g.Decisions)
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Decisions != out[j].Decisions {
			return out[i].Decisions > out[j].Decisions
		}
		return out[i].Group < out[j].Group
	})
	return out, nil
}
