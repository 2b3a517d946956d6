package tuners

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MCConfig configures mc_tuner: gomill's Monte Carlo tuner. The parameter
// space is cut into slices, each candidate plays from the centre of a
// slice, and UCB chooses the slice of each game; with MaxDepth above 1 a
// slice that has been played is cut again (UCT). The names in brackets are
// the control-file keys.
type MCConfig struct {
	// Parameters ([[parameters]]) are the dimensions, the first changing
	// most slowly among a node's children. Required.
	Parameters []MCParameter `toml:"parameters"`
	// ExplorationCoefficient (exploration_coefficient) weighs exploration
	// in UCB: value + c·√(ln parent visits / visits). Required; at least 0.
	ExplorationCoefficient float64 `toml:"exploration_coefficient"`
	// InitialVisits (initial_visits) and InitialWins (initial_wins) are the
	// visits and wins every node starts with. Required; positive.
	InitialVisits int `toml:"initial_visits"`
	InitialWins   int `toml:"initial_wins"`
	// MaxDepth (max_depth) is the depth of the tree; 0 means 1 (plain UCB
	// over the root's children).
	MaxDepth int `toml:"max_depth"`
	// NumberOfGames (number_of_games) stops the tuner after that many
	// games; 0 means no limit.
	NumberOfGames int `toml:"number_of_games"`
	// SummarySpec (summary_spec) is how many of the most-visited nodes the
	// report lists at each depth; empty means [30].
	SummarySpec []int `toml:"summary_spec"`
}

// MCParameter is one dimension of an mc_tuner.
type MCParameter struct {
	Code string `toml:"code"` // the {code} placeholder it fills
	// Scale (scale) maps the optimiser's [0,1) onto values: "linear" (the
	// default) min + f·(max−min); "log" min·(max/min)^f; "explicit"
	// Values[⌊len·f⌋].
	Scale string `toml:"scale"`
	// Min (min) and Max (max) bound the linear and log scales; Max must be
	// greater than Min, and a log scale needs both of one sign, not 0.
	Min float64 `toml:"min"`
	Max float64 `toml:"max"`
	// Integer (integer) rounds a linear or log value half up.
	Integer bool `toml:"integer"`
	// Values (values) lists an explicit scale's values: strings, integers,
	// floats or booleans as the control file gives them.
	Values []any `toml:"values"`
	// Split (split) is how many slices each node cuts this dimension into.
	// Required, except that an explicit scale defaults to len(Values).
	Split int `toml:"split"`
}

type mcNode struct {
	children []*mcNode
	wins     int
	visits   int
}

type mcTuner struct {
	cfg       MCConfig
	seed      int64
	codes     []string
	splits    []int
	branching int
	coords    [][]int // child index -> coordinates, first dimension slowest
	explicit  [][]Value
	maxDepth  int
	summary   []int
	root      *mcNode
	nodeCount int
	played    int
	inFlight  map[int][]int // game number -> path
}

// NewMC returns an mc_tuner.
func NewMC(cfg MCConfig, seed int64) (Tuner, error) {
	t := &mcTuner{cfg: cfg, seed: seed, maxDepth: cfg.MaxDepth, summary: slices.Clone(cfg.SummarySpec)}
	codes := make([]string, len(cfg.Parameters))
	for i, p := range cfg.Parameters {
		codes[i] = p.Code
	}
	if err := checkCodes(codes); err != nil {
		return nil, err
	}
	t.codes = codes
	t.branching = 1
	for i, p := range cfg.Parameters {
		field := fmt.Sprintf("parameters[%d]", i)
		var vals []Value
		switch p.Scale {
		case "", "linear", "log":
			if p.Values != nil {
				return nil, configErrorf(field+".values", `only for scale = "explicit"`)
			}
			if !finite(p.Min) {
				return nil, configErrorf(field+".min", "must be a finite number")
			}
			if !finite(p.Max) || !(p.Max > p.Min) {
				return nil, configErrorf(field+".max", "must be greater than min")
			}
			if p.Scale == "log" && !(p.Min > 0 || p.Max < 0) {
				return nil, configErrorf(field+".min", "a log scale needs min and max of one sign, neither 0")
			}
		case "explicit":
			if len(p.Values) == 0 {
				return nil, configErrorf(field+".values", "an explicit scale needs at least one value")
			}
			if p.Min != 0 || p.Max != 0 || p.Integer {
				return nil, configErrorf(field+".scale", `"explicit" takes values, not min, max or integer`)
			}
			for j, v := range p.Values {
				ev, err := explicitValue(v)
				if err != nil {
					return nil, configErrorf(fmt.Sprintf("%s.values[%d]", field, j), "%v", err)
				}
				vals = append(vals, ev)
			}
			if p.Split == 0 {
				p.Split = len(vals)
			}
		default:
			return nil, configErrorf(field+".scale", `must be "linear", "log" or "explicit", not %q`, p.Scale)
		}
		if p.Split < 1 {
			return nil, configErrorf(field+".split", "must be a positive integer")
		}
		if t.branching > 1<<16/p.Split {
			return nil, configErrorf(field+".split", "the splits' product (children of a node) must be at most 65536")
		}
		t.branching *= p.Split
		t.splits = append(t.splits, p.Split)
		t.explicit = append(t.explicit, vals)
	}
	// Keep a copy of our own, with the splits filled in.
	t.cfg.Parameters = slices.Clone(cfg.Parameters)
	for i := range t.cfg.Parameters {
		t.cfg.Parameters[i].Split = t.splits[i]
	}
	if !finite(cfg.ExplorationCoefficient) || cfg.ExplorationCoefficient < 0 {
		return nil, configErrorf("exploration_coefficient", "must be a number, at least 0")
	}
	if cfg.InitialVisits < 1 {
		return nil, configErrorf("initial_visits", "must be a positive integer")
	}
	if cfg.InitialWins < 1 {
		return nil, configErrorf("initial_wins", "must be a positive integer")
	}
	if t.maxDepth == 0 {
		t.maxDepth = 1
	}
	if t.maxDepth < 1 || t.maxDepth > 32 {
		return nil, configErrorf("max_depth", "must be from 1 to 32")
	}
	if cfg.NumberOfGames < 0 {
		return nil, configErrorf("number_of_games", "must be at least 0 (0: no limit)")
	}
	if len(t.summary) == 0 {
		t.summary = []int{30}
	}
	for i, n := range t.summary {
		if n < 0 {
			return nil, configErrorf(fmt.Sprintf("summary_spec[%d]", i), "must be at least 0")
		}
	}
	t.coords = make([][]int, t.branching)
	for child := range t.branching {
		v := make([]int, len(t.splits))
		i := child
		for d := len(t.splits) - 1; d >= 0; d-- {
			v[d] = i % t.splits[d]
			i /= t.splits[d]
		}
		t.coords[child] = v
	}
	t.root = &mcNode{wins: cfg.InitialWins, visits: cfg.InitialVisits}
	t.nodeCount = 1
	t.expand(t.root)
	t.inFlight = make(map[int][]int)
	// Apply every scale once, as gomill does, so that a bad one fails now.
	for d := range t.splits {
		if v := t.scale(d, 1/(2*float64(t.splits[d]))); !finite(v.Num) && t.explicit[d] == nil {
			return nil, configErrorf(fmt.Sprintf("parameters[%d].scale", d), "gives %v", v.Num)
		}
	}
	return t, nil
}

// explicitValue turns a control-file value into a Value.
func explicitValue(v any) (Value, error) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return Value{}, fmt.Errorf("empty string")
		}
		f, err := strconv.ParseFloat(x, 64)
		if err != nil || !finite(f) {
			f = math.NaN()
		}
		return Value{Text: x, Num: f}, nil
	case int:
		return Value{Text: strconv.Itoa(x), Num: float64(x)}, nil
	case int64:
		return Value{Text: strconv.FormatInt(x, 10), Num: float64(x)}, nil
	case float64:
		if !finite(x) {
			return Value{}, fmt.Errorf("must be finite")
		}
		return Value{Text: formatNumber(x), Num: x}, nil
	case bool:
		return Value{Text: strconv.FormatBool(x), Num: math.NaN()}, nil
	}
	return Value{}, fmt.Errorf("must be a string, number or boolean, not %T", v)
}

func (t *mcTuner) expand(n *mcNode) {
	n.children = make([]*mcNode, t.branching)
	for i := range n.children {
		n.children[i] = &mcNode{wins: t.cfg.InitialWins, visits: t.cfg.InitialVisits}
	}
	t.nodeCount += t.branching
}

// scale maps the optimiser's f in [0,1) for dimension d to a value.
func (t *mcTuner) scale(d int, f float64) Value {
	p := t.cfg.Parameters[d]
	if vals := t.explicit[d]; vals != nil {
		return vals[min(int(float64(len(vals))*f), len(vals)-1)]
	}
	var x float64
	if p.Scale == "log" {
		x = p.Min * math.Exp(f*math.Log(p.Max/p.Min))
	} else {
		x = p.Min + f*(p.Max-p.Min)
	}
	return NumberValue(x, p.Integer)
}

// region returns the low corner and the breadths of a path's cuboid in
// optimiser space.
func (t *mcTuner) region(path []int) (lo, breadth []float64) {
	lo = make([]float64, len(t.splits))
	breadth = make([]float64, len(t.splits))
	for d := range breadth {
		breadth[d] = 1
	}
	for _, child := range path {
		for d, c := range t.coords[child] {
			breadth[d] /= float64(t.splits[d])
			lo[d] += breadth[d] * float64(c)
		}
	}
	return lo, breadth
}

// params returns the candidate settings at the centre of a path's region.
func (t *mcTuner) params(path []int) Params {
	lo, breadth := t.region(path)
	p := make(Params, len(t.codes))
	for d, c := range t.codes {
		p[c] = t.scale(d, lo[d]+0.5*breadth[d])
	}
	return p
}

// choose is gomill's UCB choice among n's children, ties going to the
// first in a scan from a random start.
func (t *mcTuner) choose(n *mcNode, r *stream) int {
	numerator := t.cfg.ExplorationCoefficient * math.Sqrt(math.Log(float64(n.visits)))
	start := r.intn(len(n.children))
	best, bestU := -1, 0.0
	for k := range n.children {
		i := (start + k) % len(n.children)
		c := n.children[i]
		u := float64(c.wins)/float64(c.visits) + numerator/math.Sqrt(float64(c.visits))
		if best < 0 || u > bestU {
			best, bestU = i, u
		}
	}
	return best
}

func (t *mcTuner) Next(n int) (Game, Status) {
	if t.cfg.NumberOfGames > 0 && n >= t.cfg.NumberOfGames {
		return Game{}, Done
	}
	r := newStream(t.seed, tagMCGame, n)
	var path []int
	node := t.root
	for node.children != nil {
		i := t.choose(node, &r)
		path = append(path, i)
		node = node.children[i]
	}
	if len(path) < t.maxDepth && node.visits != t.cfg.InitialVisits {
		// Issued expands this leaf; its fresh children all tie, so the
		// choice is the scan's random start.
		path = append(path, r.intn(t.branching))
	}
	return t.game(n, path), Ready
}

func (t *mcTuner) game(n int, path []int) Game {
	return Game{
		Number: n,
		A:      Candidate{Name: "#" + strconv.Itoa(n), Params: t.params(path)},
		Pair:   -1,
		Detail: formatPath(path),
	}
}

// formatPath writes a path as child indices joined by '/'.
func formatPath(path []int) string {
	s := make([]string, len(path))
	for i, c := range path {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, "/")
}

// parsePath reads a game's path and checks that it fits the tree.
func (t *mcTuner) parsePath(g Game) ([]int, error) {
	fields := strings.Split(g.Detail, "/")
	if g.Detail == "" || len(fields) > t.maxDepth {
		return nil, fmt.Errorf("game %d: path %q does not fit max_depth %d", g.Number, g.Detail, t.maxDepth)
	}
	path := make([]int, len(fields))
	for i, f := range fields {
		c, err := strconv.Atoi(f)
		if err != nil || c < 0 || c >= t.branching || strconv.Itoa(c) != f {
			return nil, fmt.Errorf("game %d: path %q does not fit a tree of %d children a node", g.Number, g.Detail, t.branching)
		}
		path[i] = c
	}
	return path, nil
}

// checkGame checks that g is a game this tuner proposes for its path.
func (t *mcTuner) checkGame(g Game) ([]int, error) {
	path, err := t.parsePath(g)
	if err != nil {
		return nil, err
	}
	want := t.game(g.Number, path)
	if g.Number < 0 || g.A.Name != want.A.Name || g.B != nil || g.Pair != -1 {
		return nil, fmt.Errorf("game %d: candidate %q is not this tuner's", g.Number, g.A.Name)
	}
	if !sameParams(t.codes, g.A.Params, want.A.Params) {
		return nil, fmt.Errorf("game %d: candidate %s played %s, but its path gives %s: the parameters changed",
			g.Number, g.A.Name, formatParams(t.codes, g.A.Params), formatParams(t.codes, want.A.Params))
	}
	return path, nil
}

func (t *mcTuner) Issued(g Game) error {
	path, err := t.checkGame(g)
	if err != nil {
		return err
	}
	if _, ok := t.inFlight[g.Number]; ok {
		return fmt.Errorf("game %d: issued twice", g.Number)
	}
	node := t.root
	for _, c := range path {
		if node.children == nil {
			t.expand(node)
		}
		node = node.children[c]
	}
	t.inFlight[g.Number] = path
	return nil
}

func (t *mcTuner) Record(g Game, score float64) error {
	if err := checkScore(g, score); err != nil {
		return err
	}
	path, ok := t.inFlight[g.Number]
	if !ok {
		return fmt.Errorf("game %d: recorded but not issued", g.Number)
	}
	if g.Detail != formatPath(path) {
		return fmt.Errorf("game %d: recorded with path %q, issued with %q", g.Number, g.Detail, formatPath(path))
	}
	delete(t.inFlight, g.Number)
	// Only a win counts, as in gomill: a draw or no result is a loss.
	won := 0
	if score > 0.5 {
		won = 1
	}
	node := t.root
	for _, c := range path {
		node = node.children[c]
		node.visits++
		node.wins += won
	}
	t.root.visits++
	t.root.wins += won
	t.played++
	return nil
}

// bestPath walks from the root through the children with the most wins
// (the first of equals).
func (t *mcTuner) bestPath() ([]int, *mcNode) {
	var path []int
	node := t.root
	for node.children != nil {
		best := 0
		for i, c := range node.children {
			if c.wins > node.children[best].wins {
				best = i
			}
		}
		path = append(path, best)
		node = node.children[best]
	}
	return path, node
}

func (t *mcTuner) Best() Params {
	path, _ := t.bestPath()
	return t.params(path)
}

func (t *mcTuner) Figures() []ParamFigure {
	path, node := t.bestPath()
	best := t.params(path)
	lo, breadth := t.region(path)
	out := make([]ParamFigure, len(t.codes))
	for d, c := range t.codes {
		out[d] = ParamFigure{Code: c, Best: best[c], Figures: []Figure{
			{"low", t.scale(d, lo[d]).Num},
			{"high", t.scale(d, math.Nextafter(lo[d]+breadth[d], 0)).Num},
			{"winrate", float64(node.wins) / float64(node.visits)},
			{"games", float64(node.visits - t.cfg.InitialVisits)},
		}}
	}
	return out
}

// describeChoice writes a child's coordinates as gomill does (a Python
// tuple): "(1,)" in one dimension, "(1,2)" in two.
func (t *mcTuner) describeChoice(child int) string {
	c := t.coords[child]
	s := make([]string, len(c))
	for i, v := range c {
		s[i] = strconv.Itoa(v)
	}
	if len(s) == 1 {
		return "(" + s[0] + ",)"
	}
	return "(" + strings.Join(s, ",") + ")"
}

func (t *mcTuner) describePath(path []int) string {
	s := make([]string, len(path))
	for i, c := range path {
		s[i] = t.describeChoice(c)
	}
	return strings.Join(s, " ")
}

type mcEntry struct {
	path []int
	node *mcNode
}

// mostVisited returns, per depth of the summary, the most-visited nodes
// in path order (gomill's summarise).
func (t *mcTuner) mostVisited() [][]mcEntry {
	var out [][]mcEntry
	last := []mcEntry{{nil, t.root}}
	for _, n := range t.summary {
		var this []mcEntry
		for _, e := range last {
			for i, c := range e.node.children {
				this = append(this, mcEntry{append(slices.Clone(e.path), i), c})
			}
		}
		top := slices.Clone(this)
		slices.SortStableFunc(top, func(a, b mcEntry) int { return cmp.Compare(b.node.visits, a.node.visits) })
		top = top[:min(n, len(top))]
		slices.SortFunc(top, func(a, b mcEntry) int { return slices.Compare(a.path, b.path) })
		out = append(out, top)
		last = this
	}
	return out
}

func (t *mcTuner) WriteReport(w io.Writer, full bool) error {
	var b strings.Builder
	if t.cfg.NumberOfGames > 0 {
		fmt.Fprintf(&b, "%d/%d games played\n\n", t.played, t.cfg.NumberOfGames)
	} else {
		fmt.Fprintf(&b, "%d games played\n\n", t.played)
	}
	path, _ := t.bestPath()
	fmt.Fprintf(&b, "Best parameters: %s [%s]\n\n", formatParams(t.codes, t.params(path)), t.describePath(path))
	for d, entries := range t.mostVisited() {
		fmt.Fprintf(&b, "most visited at depth %d\n", d+1)
		for _, e := range entries {
			fmt.Fprintf(&b, "%s %-40s %.3f %3d\n", t.describePath(e.path), formatParams(t.codes, t.params(e.path)),
				float64(e.node.wins)/float64(e.node.visits), e.node.visits-t.cfg.InitialVisits)
		}
		b.WriteString("\n")
	}
	if full {
		t.writeTree(&b)
		if len(t.inFlight) > 0 {
			b.WriteString("In progress:\n")
			for _, n := range slices.Sorted(maps.Keys(t.inFlight)) {
				p := t.inFlight[n]
				fmt.Fprintf(&b, "game %d: %s [%s]\n", n, formatParams(t.codes, t.params(p)), t.describePath(p))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTree is gomill's tree description: the root's win rate and every
// node to depth 2.
func (t *mcTuner) writeTree(b *strings.Builder) {
	wins := t.root.wins - t.cfg.InitialWins
	visits := t.root.visits - t.cfg.InitialVisits
	rate := "--"
	if visits > 0 {
		rate = fmt.Sprintf("%.3f", float64(wins)/float64(visits))
	}
	fmt.Fprintf(b, "%d nodes\nWin rate %d/%d = %s\n", t.nodeCount, wins, visits, rate)
	line := func(indent string, n *mcNode, path []int) {
		fmt.Fprintf(b, "%s%s %s %.3f %3d\n", indent, t.describeChoice(path[len(path)-1]), formatParams(t.codes, t.params(path)),
			float64(n.wins)/float64(n.visits), n.visits-t.cfg.InitialVisits)
	}
	for i, c := range t.root.children {
		line("  ", c, []int{i})
		for j, c2 := range c.children {
			line("    ", c2, []int{i, j})
		}
	}
	b.WriteString("\n")
}

// MCReport is mc_tuner's JSON report section.
type MCReport struct {
	Type          string            `json:"type"` // "mc_tuner"
	GamesPlayed   int               `json:"games_played"`
	NumberOfGames int               `json:"number_of_games,omitempty"`
	InProgress    []int             `json:"in_progress"` // game numbers
	Best          map[string]any    `json:"best"`
	BestPath      string            `json:"best_path"` // gomill's coordinates, "(1,) (0,)"
	BestWinrate   float64           `json:"best_winrate"`
	BestGames     int               `json:"best_games"`
	Parameters    []MCParameterJSON `json:"parameters"`
	Nodes         int               `json:"nodes"`
	MostVisited   [][]MCNodeJSON    `json:"most_visited"` // per depth from 1
}

// MCParameterJSON is one parameter of an MCReport: its best value and the
// bounds of the best node's slice.
type MCParameterJSON struct {
	Code string `json:"code"`
	Best any    `json:"best"`
	Low  any    `json:"low"`
	High any    `json:"high"`
}

// MCNodeJSON is one node of the tree.
type MCNodeJSON struct {
	Path       string         `json:"path"`
	Parameters map[string]any `json:"parameters"`
	Winrate    float64        `json:"winrate"` // includes the initial visits and wins
	Games      int            `json:"games"`   // excludes them
}

func (t *mcTuner) JSON() any {
	path, node := t.bestPath()
	lo, breadth := t.region(path)
	r := &MCReport{
		Type:          "mc_tuner",
		GamesPlayed:   t.played,
		NumberOfGames: t.cfg.NumberOfGames,
		InProgress:    slices.Sorted(maps.Keys(t.inFlight)),
		Best:          bestJSON(t.params(path)),
		BestPath:      t.describePath(path),
		BestWinrate:   float64(node.wins) / float64(node.visits),
		BestGames:     node.visits - t.cfg.InitialVisits,
		Nodes:         t.nodeCount,
	}
	if r.InProgress == nil {
		r.InProgress = []int{}
	}
	best := t.params(path)
	for d, c := range t.codes {
		r.Parameters = append(r.Parameters, MCParameterJSON{
			Code: c, Best: jsonValue(best[c]),
			Low:  jsonValue(t.scale(d, lo[d])),
			High: jsonValue(t.scale(d, math.Nextafter(lo[d]+breadth[d], 0))),
		})
	}
	for _, entries := range t.mostVisited() {
		level := []MCNodeJSON{}
		for _, e := range entries {
			level = append(level, MCNodeJSON{
				Path: t.describePath(e.path), Parameters: bestJSON(t.params(e.path)),
				Winrate: float64(e.node.wins) / float64(e.node.visits), Games: e.node.visits - t.cfg.InitialVisits,
			})
		}
		r.MostVisited = append(r.MostVisited, level)
	}
	return r
}
