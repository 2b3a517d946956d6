package tuners

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func newMCInternal(t *testing.T, cfg MCConfig) *mcTuner {
	t.Helper()
	tu, err := NewMC(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return tu.(*mcTuner)
}

func texts(p Params, codes ...string) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = p[c].Text
	}
	return strings.Join(s, " ")
}

// TestMCGrid checks the candidate grid against gomill's rules: each
// dimension cut into split slices, each slice's centre, the first
// parameter changing most slowly, log scales, integers rounded half up,
// explicit values by ⌊n·f⌋, and sub-slices below the root.
// The expected values are those gomill 0.8.3's Tree.parameters_for_path
// and scale functions give for the same settings (run under Python 2.7).
func TestMCGrid(t *testing.T) {
	cases := []struct {
		name   string
		params []MCParameter
		paths  [][]int
		want   []string
	}{
		{"linear centres", []MCParameter{{Code: "x", Min: 0, Max: 10, Split: 4}},
			[][]int{{0}, {1}, {2}, {3}}, []string{"1.25", "3.75", "6.25", "8.75"}},
		{"first parameter slowest", []MCParameter{{Code: "x", Min: 0, Max: 2, Split: 2}, {Code: "y", Min: 0, Max: 3, Split: 3}},
			[][]int{{0}, {1}, {2}, {3}, {5}}, []string{"0.5 0.5", "0.5 1.5", "0.5 2.5", "1.5 0.5", "1.5 2.5"}},
		{"integer rounds half up", []MCParameter{{Code: "x", Min: 0, Max: 4, Split: 4, Integer: true}},
			[][]int{{0}, {1}, {2}, {3}}, []string{"1", "2", "3", "4"}},
		{"log", []MCParameter{{Code: "x", Scale: "log", Min: 1, Max: 100, Split: 2}},
			[][]int{{0}, {1}}, []string{"3.16227766017", "31.6227766017"}}, // 100^0.25, 100^0.75 to 12 digits
		{"log integer", []MCParameter{{Code: "x", Scale: "log", Min: 1, Max: 100, Split: 2, Integer: true}},
			[][]int{{0}, {1}}, []string{"3", "32"}},
		{"explicit", []MCParameter{{Code: "x", Scale: "explicit", Values: []any{"a", int64(-2), 0.5, true}}},
			[][]int{{0}, {1}, {2}, {3}}, []string{"a", "-2", "0.5", "true"}},
		{"explicit with fewer slices", []MCParameter{{Code: "x", Scale: "explicit", Values: []any{"a", "b", "c", "d"}, Split: 2}},
			[][]int{{0}, {1}, {0, 1}, {1, 0}}, []string{"b", "d", "b", "c"}},
		{"12 significant digits", []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 5}},
			[][]int{{1}, {3}}, []string{"0.3", "0.7"}}, // 0.2+0.1 is 0.30000000000000004 in binary
		{"depth 2", []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 4}},
			[][]int{{1, 2}, {3, 3}}, []string{"0.40625", "0.96875"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tu := newMCInternal(t, MCConfig{Parameters: c.params, InitialVisits: 1, InitialWins: 1, MaxDepth: 2})
			for i, path := range c.paths {
				if got := texts(tu.params(path), tu.codes...); got != c.want[i] {
					t.Errorf("path %v: %s, want %s", path, got, c.want[i])
				}
			}
		})
	}
}

func TestMCExplicitNumbers(t *testing.T) {
	tu := newMCInternal(t, MCConfig{Parameters: []MCParameter{{Code: "x", Scale: "explicit", Values: []any{"1.5", "fast"}}}, InitialVisits: 1, InitialWins: 1})
	if v := tu.params([]int{0})["x"]; v.Num != 1.5 {
		t.Errorf("\"1.5\": Num %v", v.Num)
	}
	if v := tu.params([]int{1})["x"]; !math.IsNaN(v.Num) {
		t.Errorf("\"fast\": Num %v, want NaN", v.Num)
	}
}

// play issues and records the game of a given path.
func play(t *testing.T, tu *mcTuner, n int, path []int, score float64) {
	t.Helper()
	g := tu.game(n, path)
	if err := tu.Issued(g); err != nil {
		t.Fatal(err)
	}
	if err := tu.Record(g, score); err != nil {
		t.Fatal(err)
	}
}

// TestMCReport checks gomill's report layout, that only a win counts and
// that the best parameters follow the most wins.
// The expected text is what gomill 0.8.3's summarise and
// Greedy_simulation print for a tree with the same counts.
func TestMCReport(t *testing.T) {
	tu := newMCInternal(t, MCConfig{
		Parameters:    []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 2}},
		InitialVisits: 1, InitialWins: 1, NumberOfGames: 10,
	})
	play(t, tu, 0, []int{1}, 1)
	play(t, tu, 1, []int{0}, 0)
	play(t, tu, 2, []int{1}, 0.5) // a draw is a loss
	var b strings.Builder
	if err := tu.WriteReport(&b, false); err != nil {
		t.Fatal(err)
	}
	pad := func(s string) string { return s + strings.Repeat(" ", 40-len(s)) }
	want := "3/10 games played\n\n" +
		"Best parameters: x:0.75 [(1,)]\n\n" +
		"most visited at depth 1\n" +
		"(0,) " + pad("x:0.25") + " 0.500   1\n" +
		"(1,) " + pad("x:0.75") + " 0.667   2\n\n"
	if b.String() != want {
		t.Errorf("report:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	g, _ := tu.Next(3)
	if err := tu.Issued(g); err != nil {
		t.Fatal(err)
	}
	if err := tu.WriteReport(&b, true); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"3 nodes\nWin rate 1/3 = 0.333\n", "  (1,) x:0.75 0.667   2\n", "In progress:\ngame 3: x:"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("full report lacks %q:\n%s", line, b.String())
		}
	}
	r := tu.JSON().(*MCReport)
	if r.Best["x"] != 0.75 || r.BestGames != 2 || r.GamesPlayed != 3 || len(r.InProgress) != 1 {
		t.Errorf("JSON: %+v", r)
	}
}

// TestMCChoosesByUCB checks the choice among children: with no
// exploration the child with the best win rate, and with ties the random
// start spreads games over the children.
func TestMCChoosesByUCB(t *testing.T) {
	tu := newMCInternal(t, MCConfig{
		Parameters:    []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 4}},
		InitialVisits: 2, InitialWins: 1,
	})
	counts := map[string]int{}
	for n := 0; n < 400; n++ {
		g, _ := tu.Next(n)
		counts[g.Detail]++
	}
	for i := range 4 {
		if c := counts[fmt.Sprint(i)]; c < 60 {
			t.Errorf("fresh tree: child %d chosen %d times in 400", i, c)
		}
	}
	play(t, tu, 0, []int{2}, 1)
	play(t, tu, 1, []int{0}, 0)
	for n := 2; n < 50; n++ {
		if g, _ := tu.Next(n); g.Detail != "2" {
			t.Fatalf("Next(%d) chose %s, want the only child with a win", n, g.Detail)
		}
	}
}

// TestMCExpands checks UCT: a leaf chosen again after a result is
// expanded when the game is issued, and no deeper than max_depth.
func TestMCExpands(t *testing.T) {
	tu := newMCInternal(t, MCConfig{
		Parameters:    []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 2}},
		InitialVisits: 1, InitialWins: 1, MaxDepth: 2,
	})
	play(t, tu, 0, []int{0}, 1)
	play(t, tu, 1, []int{1}, 0)
	g, _ := tu.Next(2)
	if !strings.HasPrefix(g.Detail, "0/") {
		t.Fatalf("Next(2) = %q, want a child of the winning leaf", g.Detail)
	}
	if tu.nodeCount != 3 {
		t.Fatalf("Next expanded the tree: %d nodes", tu.nodeCount)
	}
	if err := tu.Issued(g); err != nil {
		t.Fatal(err)
	}
	if tu.nodeCount != 5 {
		t.Fatalf("Issued: %d nodes, want 5", tu.nodeCount)
	}
	if err := tu.Record(g, 1); err != nil {
		t.Fatal(err)
	}
	// The result counts at every node of the path and at the root.
	leaf := tu.root.children[0].children[g.Detail[2]-'0']
	if n := tu.root.children[0]; n.visits != 3 || n.wins != 3 || leaf.visits != 2 || leaf.wins != 2 || tu.root.visits != 4 || tu.root.wins != 3 {
		t.Errorf("after a win at %s: node %d/%d, leaf %d/%d, root %d/%d", g.Detail, n.wins, n.visits, leaf.wins, leaf.visits, tu.root.wins, tu.root.visits)
	}
	if err := tu.Issued(tu.game(3, []int{0, 0, 1})); err == nil {
		t.Error("a path deeper than max_depth was accepted")
	}
}

func TestMCConfigErrors(t *testing.T) {
	ok := func() MCConfig {
		return MCConfig{Parameters: []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 2}, {Code: "y", Min: 1, Max: 2, Split: 2}},
			ExplorationCoefficient: 0.5, InitialVisits: 2, InitialWins: 1}
	}
	cases := []struct {
		want   string
		change func(*MCConfig)
	}{
		{"parameters: at least one parameter is needed", func(c *MCConfig) { c.Parameters = nil }},
		{`parameters[1].code: duplicate parameter code "x" (also parameters[0])`, func(c *MCConfig) { c.Parameters[1].Code = "x" }},
		{`parameters[0].code: invalid parameter code "a#b"`, func(c *MCConfig) { c.Parameters[0].Code = "a#b" }},
		{"parameters[1].max: must be greater than min", func(c *MCConfig) { c.Parameters[1].Max = 1 }},
		{"parameters[1].split: must be a positive integer", func(c *MCConfig) { c.Parameters[1].Split = 0 }},
		{`parameters[0].scale: must be "linear", "log" or "explicit", not "cubic"`, func(c *MCConfig) { c.Parameters[0].Scale = "cubic" }},
		{"parameters[0].min: a log scale needs min and max of one sign", func(c *MCConfig) { c.Parameters[0].Scale = "log" }},
		{"parameters[1].values: an explicit scale needs at least one value", func(c *MCConfig) { c.Parameters[1] = MCParameter{Code: "y", Scale: "explicit"} }},
		{"parameters[1].values[1]: must be a string, number or boolean", func(c *MCConfig) {
			c.Parameters[1] = MCParameter{Code: "y", Scale: "explicit", Values: []any{"a", []int{1}}}
		}},
		{`parameters[0].values: only for scale = "explicit"`, func(c *MCConfig) { c.Parameters[0].Values = []any{"a"} }},
		{"exploration_coefficient: must be a number, at least 0", func(c *MCConfig) { c.ExplorationCoefficient = -1 }},
		{"initial_visits: must be a positive integer", func(c *MCConfig) { c.InitialVisits = 0 }},
		{"initial_wins: must be a positive integer", func(c *MCConfig) { c.InitialWins = 0 }},
		{"max_depth: must be from 1 to 32", func(c *MCConfig) { c.MaxDepth = -1 }},
		{"number_of_games: must be at least 0", func(c *MCConfig) { c.NumberOfGames = -5 }},
		{"summary_spec[1]: must be at least 0", func(c *MCConfig) { c.SummarySpec = []int{3, -1} }},
	}
	for _, c := range cases {
		cfg := ok()
		c.change(&cfg)
		_, err := NewMC(cfg, 0)
		var ce *ConfigError
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &ce) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	if _, err := NewMC(ok(), 0); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

// FuzzMCDetail feeds stored paths to Issued: it accepts or refuses, never
// panics, and a game it accepts can be recorded.
func FuzzMCDetail(f *testing.F) {
	for _, s := range []string{"0", "3/1", "", "/", "0//1", "-1", "99999999999999999999", "1/1/1/1", "+1", "01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, detail string) {
		tu, err := NewMC(MCConfig{Parameters: []MCParameter{{Code: "x", Min: 0, Max: 1, Split: 4}}, InitialVisits: 1, InitialWins: 1, MaxDepth: 3}, 1)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := tu.Next(0)
		g.Detail = detail
		if path, err := tu.(*mcTuner).parsePath(g); err == nil {
			g = tu.(*mcTuner).game(0, path)
		}
		if err := tu.Issued(g); err != nil {
			return
		}
		if err := tu.Record(g, 1); err != nil {
			t.Fatalf("accepted %q but cannot record it: %v", detail, err)
		}
	})
}
