package verdict

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// TestCubeCost prices each action by hand-worked equities (the
// doubler's, normalised: a pass is +1).
func TestCubeCost(t *testing.T) {
	doubler := func(nd, dt float64) CubeDecision {
		return CubeDecision{Role: "doubler", NoDouble: nd, DoubleTake: dt, DoublePass: 1, Cube: 1}
	}
	taker := func(dt float64) CubeDecision {
		return CubeDecision{Role: "taker", NoDouble: 0.5, DoubleTake: dt, DoublePass: 1, Cube: 1}
	}
	for _, c := range []struct {
		d      CubeDecision
		action string
		cost   float64
		best   string
		close  bool
	}{
		{doubler(0.5, 0.7), "no double", 0.2, "double", true},  // a missed double
		{doubler(0.5, 0.7), "double", 0, "double", true},       // double/take
		{doubler(0.8, 1.3), "double", 0, "double", true},       // double/pass
		{doubler(1.2, 1.5), "double", 0.2, "no double", false}, // too good: 1.2 against the pass's 1
		{doubler(0.5, 0.2), "double", 0.3, "no double", false}, // far from a double
		{doubler(0.3, 0.2), "double", 0.1, "no double", true},  // within 0.16
		{taker(1.1), "take", 0.1, "pass", true},
		{taker(1.1), "pass", 0, "pass", true},
		{taker(0.9), "pass", 0.1, "take", true},
	} {
		got, err := c.d.Cost(c.action)
		if err != nil || math.Abs(got-c.cost) > 1e-12 {
			t.Errorf("%+v %s: cost %v, %v; want %v", c.d, c.action, got, err, c.cost)
		}
		if b := c.d.BestAction(); b != c.best {
			t.Errorf("%+v: best %q, want %q", c.d, b, c.best)
		}
		if cl := c.d.CloseByEquities(); cl != c.close {
			t.Errorf("%+v: close %v, want %v", c.d, cl, c.close)
		}
	}
	if _, err := doubler(0.5, 0.7).Cost("take"); err == nil {
		t.Error("a doubler's take: no error")
	}
}

// TestCubeCostsAndGap scores two judges on two records: the tallies and
// the gap per close decision, worked by hand.
func TestCubeCostsAndGap(t *testing.T) {
	cs := []CubeDecision{
		{File: "a", Role: "doubler", NoDouble: 0.5, DoubleTake: 0.7, DoublePass: 1, Cube: 1}, // double right by 0.2
		{File: "a", Role: "doubler", NoDouble: 0.5, DoubleTake: 0.2, DoublePass: 1, Cube: 1}, // not close
		{File: "b", Role: "doubler", NoDouble: 0.6, DoubleTake: 0.5, DoublePass: 1, Cube: 1}, // no double by 0.1
		{File: "b", Role: "taker", NoDouble: 0.6, DoubleTake: 0.5, DoublePass: 1, Cube: 1},   // take by 0.5
	}
	always := func(d CubeDecision) (string, error) {
		if d.Role == "taker" {
			return "take", nil
		}
		return "double", nil
	}
	never := func(d CubeDecision) (string, error) {
		if d.Role == "taker" {
			return "pass", nil
		}
		return "no double", nil
	}
	ca, aa, err := CubeCosts(cs, always)
	if err != nil {
		t.Fatal(err)
	}
	cn, an, err := CubeCosts(cs, never)
	if err != nil {
		t.Fatal(err)
	}
	d, k := TallyCube(cs, ca, aa)
	if d.Decisions != 3 || d.Close != 2 || math.Abs(d.Error-0.4) > 1e-12 || d.Yes != 3 || d.WrongYes != 2 || d.Missed != 0 ||
		k.Decisions != 1 || k.Close != 1 || k.Error != 0 || k.Yes != 1 || k.Missed+k.WrongYes != 0 {
		t.Errorf("always double and take: %+v, %+v", d, k)
	}
	if r := (CubeTally{Error: 0.4, Close: 2}).Rate(); math.Abs(r-200) > 1e-9 {
		t.Errorf("rate %v, want 200 mEMG", r)
	}
	d, k = TallyCube(cs, cn, an)
	if math.Abs(d.Error-0.2) > 1e-12 || d.Missed != 1 || d.WrongYes != 0 || math.Abs(k.Error-0.5) > 1e-12 || k.Missed != 1 {
		t.Errorf("never double, always pass: %+v, %+v", d, k)
	}
	// never less always, decision by decision: record a 0.2 and -0.3
	// (-0.1 over 1 close decision), record b -0.1 and 0.5 (+0.4 over 2):
	// (-0.1+0.4)/3 = 0.1 EMG, 100 mEMG a close decision.
	gap, interval := CostGap(cs, ca, cn)
	if math.Abs(gap-100) > 1e-9 || !(interval[0] < gap && gap < interval[1]) {
		t.Errorf("gap %v [%v, %v], want 100 mEMG inside its interval", gap, interval[0], interval[1])
	}
	if _, _, err := CubeCosts(cs, func(CubeDecision) (string, error) { return "beaver", nil }); err == nil || !strings.Contains(err.Error(), "beaver") {
		t.Errorf("an unknown action: %v", err)
	}
}

// TestReadCubeDecisions reads both kinds of line back and refuses a cube
// decision whose action does not fit its role.
func TestReadCubeDecisions(t *testing.T) {
	text := `{"game":1,"player":"x","length":5,"score":0,"opponent_score":0,"cube":1,"owner":"centre","position_id":"4HPwATDgc/ABMA","dice":"31","choices":16,"rank":0,"error":0}
{"game":1,"player":"y","role":"doubler","length":5,"score":0,"opponent_score":0,"cube":1,"owner":"centre","position_id":"4HPwATDgc/ABMA","no_double":0.5,"double_take":0.4,"double_pass":1,"action":"no double","error":0,"close":false}
`
	ds, cs, err := ReadDecisions(strings.NewReader(text))
	if err != nil || len(ds) != 1 || len(cs) != 1 || cs[0].Player != "y" || ds[0].Player != "x" {
		t.Fatalf("read %+v and %+v, %v", ds, cs, err)
	}
	bad := strings.Replace(text, `"action":"no double"`, `"action":"take"`, 1)
	if _, _, err := ReadDecisions(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a doubler's take: %v", err)
	}
}

// TestCubeDecisionState turns recorded decisions into game states: the
// doubler on roll with its own score first, the cube's owner from the
// decider's side, and a double pending for a taker's.
func TestCubeDecisionState(t *testing.T) {
	doubler := CubeDecision{Role: "doubler", Length: 5, Score: 3, OpponentScore: 1, Cube: 2, Owner: "mover", PositionID: "4HPwATDgc/ABMA", Action: "no double"}
	s, err := doubler.State()
	if err != nil {
		t.Fatal(err)
	}
	if s.Move != 0 || s.Score != [2]int{3, 1} || s.CubeValue != 2 || s.CubeOwner != 0 || !s.CanDouble() || s.Money() {
		t.Errorf("doubler's state: move %d, score %v, cube %d owned by %d, may double %v", s.Move, s.Score, s.CubeValue, s.CubeOwner, s.CanDouble())
	}
	// The taker's record: its own score first, the cube owned by the
	// doubler ("opponent" from the taker's side).
	taker := doubler
	taker.Role, taker.Action, taker.Score, taker.OpponentScore, taker.Owner = "taker", "take", 1, 3, "opponent"
	s, err = taker.State()
	if err != nil {
		t.Fatal(err)
	}
	if s.Move != 0 || s.Turn != 1 || s.Score != [2]int{3, 1} || s.CubeOwner != 0 || s.Decision() != backgammon.DecideTake {
		t.Errorf("taker's state: move %d, turn %d, score %v, owner %d, decision %v", s.Move, s.Turn, s.Score, s.CubeOwner, s.Decision())
	}
	// 4-away/1-away after the Crawford game, and money with the Jacoby rule.
	post := CubeDecision{Role: "doubler", Length: 5, Score: 1, OpponentScore: 4, Cube: 1, Owner: "centre", PositionID: "4HPwATDgc/ABMA"}
	if s, err := post.State(); err != nil || !s.PostCrawford || s.CrawfordGame {
		t.Errorf("post-Crawford: %+v, %v", s, err)
	}
	money := CubeDecision{Role: "doubler", Cube: 1, Owner: "centre", PositionID: "4HPwATDgc/ABMA"}
	if s, err := money.State(); err != nil || !s.Money() || !s.Jacoby {
		t.Errorf("money: %+v, %v", s, err)
	}
	// A taker facing a double of a cube it owns cannot be.
	bad := taker
	bad.Owner = "mover"
	if _, err := bad.State(); err == nil {
		t.Error("a double of the taker's own cube: no error")
	}
	if _, err := (CubeDecision{Role: "doubler", Cube: 1, Owner: "nobody", PositionID: "4HPwATDgc/ABMA"}).State(); err == nil {
		t.Error("an unknown owner: no error")
	}
}

// TestModelBias groups close doubling decisions by score and cube and
// averages a model's equities less the truth's; answers and decisions
// that are not close stay out.
func TestModelBias(t *testing.T) {
	d := func(score, opp, cube int, owner, role string, close bool, nd, dt float64) CubeDecision {
		return CubeDecision{File: "m.mat", Game: 1, Role: role, Length: 5, Score: score, OpponentScore: opp,
			Cube: cube, Owner: owner, NoDouble: nd, DoubleTake: dt, DoublePass: 1, Close: close}
	}
	cs := []CubeDecision{
		d(3, 0, 1, "centre", "doubler", true, 0.50, 0.40),
		d(3, 0, 1, "centre", "doubler", true, 0.70, 0.80),
		d(3, 0, 1, "centre", "taker", true, 0.70, 0.80),  // an answer: out
		d(3, 0, 1, "centre", "doubler", false, 0.1, 0.2), // not close: out
		d(0, 0, 2, "mover", "doubler", true, 0.30, 0.30),
		d(2, 4, 1, "centre", "doubler", true, 0.90, 1.20),
		{File: "g.mat", Game: 2, Role: "doubler", Cube: 1, Owner: "centre", NoDouble: 0.2, DoubleTake: 0.1, DoublePass: 1, Close: true},
	}
	key := func(c CubeDecision) (string, error) {
		if c.Length == 0 {
			return fmt.Sprintf("money, cube %d %s", c.Cube, c.Owner), nil
		}
		return fmt.Sprintf("%d-away/%d-away, cube %d %s", c.Away(), c.OpponentAway(), c.Cube, c.Owner), nil
	}
	groups, err := ModelBias(cs, key, func(c CubeDecision) (float64, float64, error) { return 0.6, 0.5, nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []BiasGroup{
		{"2-away/5-away, cube 1 centre", 2, 0.6 - 0.6, 0.5 - 0.6},
		{"3-away/1-away, cube 1 centre", 1, 0.6 - 0.9, 0.5 - 1.2},
		{"5-away/5-away, cube 2 mover", 1, 0.6 - 0.3, 0.5 - 0.3},
		{"money, cube 1 centre", 1, 0.6 - 0.2, 0.5 - 0.1},
	}
	if len(groups) != len(want) {
		t.Fatalf("groups %+v, want %+v", groups, want)
	}
	for i := range want {
		g := groups[i]
		if g.Group != want[i].Group || g.Decisions != want[i].Decisions ||
			math.Abs(g.NoDouble-want[i].NoDouble) > 1e-12 || math.Abs(g.DoubleTake-want[i].DoubleTake) > 1e-12 {
			t.Errorf("group %d: %+v, want %+v", i, g, want[i])
		}
	}
	if _, err := ModelBias(cs, key, func(CubeDecision) (float64, float64, error) { return 0, 0, errors.New("no") }); err == nil {
		t.Error("a model's error was not passed on")
	}
}
