package tuners

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// SPSA modes.
const (
	SPSAPair     = "pair"     // plus plays minus, twice with seats swapped
	SPSAOpponent = "opponent" // plus and minus each play the opponent
)

// SPSAConfig configures spsa: simultaneous perturbation stochastic
// approximation as fishtest runs it. Iteration k (from 1) perturbs every
// parameter by ±c_k at once (signs drawn at random), plays the plus
// candidate against the minus one in two games, and moves θ by
// r_k·c_k·result·sign, where result is plus's wins minus losses (from −2
// to 2). With c = c_end·N^γ and a = r_end·c_end²·(A+N)^α, c_k = c/k^γ and
// r_k = a/(A+k)^α/c_k², so that c_N = c_end and r_N = r_end. The names in
// brackets are the control-file keys.
type SPSAConfig struct {
	// Parameters ([[parameters]]). Required.
	Parameters []SPSAParameter `toml:"parameters"`
	// Iterations (iterations): N, the number of iterations (two games
	// each). Required, positive.
	Iterations int `toml:"iterations"`
	// A (A): the stability constant, in iterations; nil means
	// fishtest's default, a tenth of Iterations.
	A *float64 `toml:"A"`
	// Alpha (alpha) and Gamma (gamma) are the decay exponents of the step
	// and of the perturbation; nil means fishtest's 0.602 and 0.101.
	Alpha *float64 `toml:"alpha"`
	Gamma *float64 `toml:"gamma"`
	// Mode (mode): SPSAPair (the default) or SPSAOpponent. Either way an
	// iteration is two games that share a Pair.
	Mode string `toml:"mode"`
}

// SPSAParameter is one parameter of an spsa tuner.
type SPSAParameter struct {
	Code string `toml:"code"` // the {code} placeholder it fills
	// Start (start) is θ's first value, within [Min, Max].
	Start float64 `toml:"start"`
	// Min (min) and Max (max) clip θ and the perturbed values.
	Min float64 `toml:"min"`
	Max float64 `toml:"max"`
	// CEnd (c_end): the perturbation at the last iteration; positive.
	CEnd float64 `toml:"c_end"`
	// REnd (r_end): the learning rate at the last iteration; at least 0.
	REnd float64 `toml:"r_end"`
	// Integer (integer) plays whole numbers: a perturbed value v is
	// rounded stochastically, to ⌊v⌋+1 with probability v−⌊v⌋ (as
	// fishtest's workers do), so that a perturbation below one half still
	// reaches the engine on average; θ itself stays continuous.
	Integer bool `toml:"integer"`
}

// spsaIteration is an iteration with a game issued and not both recorded.
type spsaIteration struct {
	base   []float64 // θ when the iteration was built
	issued [2]bool
	have   [2]bool
	score  [2]float64 // A's share in each game
}

// spsaPoint is θ after some number of finished iterations.
type spsaPoint struct {
	done  int
	theta []float64
}

type spsaTuner struct {
	cfg             SPSAConfig
	seed            int64
	codes           []string
	a, alpha, gamma float64 // A, α, γ
	cBase, aBase    []float64
	theta           []float64
	done            int
	pending         map[int]*spsaIteration
	history         []spsaPoint
	period          int
	mode            string
}

// NewSPSA returns an spsa tuner.
func NewSPSA(cfg SPSAConfig, seed int64) (Tuner, error) {
	codes := make([]string, len(cfg.Parameters))
	for i, p := range cfg.Parameters {
		codes[i] = p.Code
	}
	if err := checkCodes(codes); err != nil {
		return nil, err
	}
	t := &spsaTuner{cfg: cfg, seed: seed, codes: codes, pending: make(map[int]*spsaIteration)}
	t.cfg.Parameters = slices.Clone(cfg.Parameters)
	if cfg.Iterations < 1 {
		return nil, configErrorf("iterations", "must be a positive integer")
	}
	n := float64(cfg.Iterations)
	t.a, t.alpha, t.gamma = n/10, 0.602, 0.101
	for _, o := range []struct {
		field string
		v     *float64
		dst   *float64
	}{{"A", cfg.A, &t.a}, {"alpha", cfg.Alpha, &t.alpha}, {"gamma", cfg.Gamma, &t.gamma}} {
		if o.v == nil {
			continue
		}
		if !finite(*o.v) || *o.v < 0 {
			return nil, configErrorf(o.field, "must be a number, at least 0")
		}
		*o.dst = *o.v
	}
	t.cfg.A, t.cfg.Alpha, t.cfg.Gamma = &t.a, &t.alpha, &t.gamma
	switch cfg.Mode {
	case "", SPSAPair:
		t.mode = SPSAPair
	case SPSAOpponent:
		t.mode = SPSAOpponent
	default:
		return nil, configErrorf("mode", "must be %q or %q, not %q", SPSAPair, SPSAOpponent, cfg.Mode)
	}
	for i, p := range cfg.Parameters {
		field := fmt.Sprintf("parameters[%d]", i)
		switch {
		case !finite(p.Min):
			return nil, configErrorf(field+".min", "must be a finite number")
		case !finite(p.Max) || !(p.Max > p.Min):
			return nil, configErrorf(field+".max", "must be greater than min")
		case !(p.Start >= p.Min && p.Start <= p.Max):
			return nil, configErrorf(field+".start", "must be within [min, max]")
		case !finite(p.CEnd) || p.CEnd <= 0:
			return nil, configErrorf(field+".c_end", "must be greater than 0")
		case !finite(p.REnd) || p.REnd < 0:
			return nil, configErrorf(field+".r_end", "must be at least 0")
		case p.Integer && math.Ceil(p.Min) > math.Floor(p.Max):
			return nil, configErrorf(field+".max", "an integer parameter needs a whole number within [min, max]")
		}
		// fishtest's c and a, in its order of operations.
		t.cBase = append(t.cBase, p.CEnd*math.Pow(n, t.gamma))
		t.aBase = append(t.aBase, p.REnd*p.CEnd*p.CEnd*math.Pow(t.a+n, t.alpha))
		t.theta = append(t.theta, p.Start)
	}
	t.period = max(1, cfg.Iterations/100)
	t.history = []spsaPoint{{0, slices.Clone(t.theta)}}
	return t, nil
}

// ck and rk are iteration k's perturbation and learning rate.
func (t *spsaTuner) ck(d, k int) float64 { return t.cBase[d] / math.Pow(float64(k), t.gamma) }
func (t *spsaTuner) rk(d, k int) float64 {
	c := t.ck(d, k)
	return t.aBase[d] / math.Pow(t.a+float64(k), t.alpha) / (c * c)
}

// flips are iteration k's perturbation signs, drawn from (seed, k).
func (t *spsaTuner) flips(k int) []float64 {
	r := newStream(t.seed, tagSPSAFlips, k)
	f := make([]float64, len(t.codes))
	for d := range f {
		f[d] = float64(2*r.intn(2) - 1)
	}
	return f
}

func (t *spsaTuner) clipTheta(d int, x float64) float64 {
	p := t.cfg.Parameters[d]
	return math.Min(math.Max(x, p.Min), p.Max)
}

// candidates builds iteration k's plus and minus from base.
func (t *spsaTuner) candidates(k int, base []float64) (plus, minus Candidate) {
	flips := t.flips(k)
	round := newStream(t.seed, tagSPSARound, k)
	plus = Candidate{Name: "i" + strconv.Itoa(k) + "+", Params: make(Params, len(t.codes))}
	minus = Candidate{Name: "i" + strconv.Itoa(k) + "-", Params: make(Params, len(t.codes))}
	for _, side := range []struct {
		c    Candidate
		sign float64
	}{{plus, 1}, {minus, -1}} {
		for d, code := range t.codes {
			p := t.cfg.Parameters[d]
			v := t.clipTheta(d, base[d]+side.sign*t.ck(d, k)*flips[d])
			if p.Integer {
				v = math.Floor(v + round.float64())
				v = math.Min(math.Max(v, math.Ceil(p.Min)), math.Floor(p.Max))
			}
			side.c.Params[code] = NumberValue(v, false)
		}
	}
	return plus, minus
}

func formatVector(x []float64) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(s, " ")
}

func (t *spsaTuner) parseVector(s string) ([]float64, error) {
	f := strings.Fields(s)
	if len(f) != len(t.codes) {
		return nil, fmt.Errorf("%d values for %d parameters", len(f), len(t.codes))
	}
	x := make([]float64, len(f))
	for d, v := range f {
		var err error
		x[d], err = strconv.ParseFloat(v, 64)
		if err != nil || t.clipTheta(d, x[d]) != x[d] {
			return nil, fmt.Errorf("%q is not within parameters[%d]'s [min, max]", v, d)
		}
	}
	return x, nil
}

// game builds game n of iteration k from base.
func (t *spsaTuner) game(n int, base []float64) Game {
	k := n/2 + 1
	plus, minus := t.candidates(k, base)
	g := Game{Number: n, A: plus, Pair: n / 2, Detail: formatVector(base)}
	if n%2 == 1 {
		g.A = minus
	}
	if t.mode == SPSAPair {
		b := minus
		if n%2 == 1 {
			b = plus
		}
		g.B = &b
	}
	return g
}

// Next builds an iteration's first game from the current θ and its second
// from the θ its first was built from. With several games in flight, a new
// iteration uses θ after the iterations finished so far: an iteration
// moves θ once both its games are in, in the order iterations finish, so
// up to ⌈j/2⌉ iterations are built from one θ.
func (t *spsaTuner) Next(n int) (Game, Status) {
	k := n/2 + 1
	if n < 0 || k > t.cfg.Iterations {
		return Game{}, Done
	}
	base := t.theta
	if it := t.pending[k]; it != nil {
		base = it.base
	}
	return t.game(n, base), Ready
}

// check returns game g's iteration and its base, checking that g is the
// game this tuner builds from that base.
func (t *spsaTuner) check(g Game) (int, []float64, error) {
	k := g.Number/2 + 1
	if g.Number < 0 || k > t.cfg.Iterations {
		return 0, nil, fmt.Errorf("game %d: beyond %d iterations", g.Number, t.cfg.Iterations)
	}
	base, err := t.parseVector(g.Detail)
	if err != nil {
		return 0, nil, fmt.Errorf("game %d: base vector %q: %w", g.Number, g.Detail, err)
	}
	want := t.game(g.Number, base)
	same := g.A.Name == want.A.Name && sameParams(t.codes, g.A.Params, want.A.Params) && g.Pair == want.Pair &&
		(g.B == nil) == (want.B == nil) && (g.B == nil || g.B.Name == want.B.Name && sameParams(t.codes, g.B.Params, want.B.Params))
	if !same {
		return 0, nil, fmt.Errorf("game %d: %s is not the candidate this tuner builds (%s %s): the parameters, mode or seed changed",
			g.Number, g.A.Name, want.A.Name, formatParams(t.codes, want.A.Params))
	}
	return k, base, nil
}

func (t *spsaTuner) Issued(g Game) error {
	k, base, err := t.check(g)
	if err != nil {
		return err
	}
	it := t.pending[k]
	if it == nil {
		it = &spsaIteration{base: base}
		t.pending[k] = it
	} else if !slices.Equal(it.base, base) {
		return fmt.Errorf("game %d: built from %s, but iteration %d's other game from %s", g.Number, formatVector(base), k, formatVector(it.base))
	}
	j := g.Number % 2
	if it.issued[j] {
		return fmt.Errorf("game %d: issued twice", g.Number)
	}
	it.issued[j] = true
	return nil
}

func (t *spsaTuner) Record(g Game, score float64) error {
	if err := checkScore(g, score); err != nil {
		return err
	}
	k, j := g.Number/2+1, g.Number%2
	it := t.pending[k]
	if g.Number < 0 || it == nil || !it.issued[j] {
		return fmt.Errorf("game %d: recorded but not issued", g.Number)
	}
	if it.have[j] {
		return fmt.Errorf("game %d: recorded twice", g.Number)
	}
	if g.Detail != formatVector(it.base) {
		return fmt.Errorf("game %d: recorded with base %q, issued with %q", g.Number, g.Detail, formatVector(it.base))
	}
	it.have[j], it.score[j] = true, score
	if it.have[0] && it.have[1] {
		t.update(k, it)
		delete(t.pending, k)
	}
	return nil
}

// update applies a finished iteration. Both modes give plus's result
// minus minus's, 2·(s₀−s₁) with sᵢ A's share of game i: in pair mode A
// is plus in game 0 and minus in game 1.
func (t *spsaTuner) update(k int, it *spsaIteration) {
	result := 2 * (it.score[0] - it.score[1])
	flips := t.flips(k)
	for d := range t.theta {
		t.theta[d] = t.clipTheta(d, t.theta[d]+t.rk(d, k)*t.ck(d, k)*result*flips[d])
	}
	t.done++
	if t.done%t.period == 0 || t.done == t.cfg.Iterations {
		t.history = append(t.history, spsaPoint{t.done, slices.Clone(t.theta)})
	}
}

func (t *spsaTuner) bestOf(theta []float64) Params {
	p := make(Params, len(t.codes))
	for d, c := range t.codes {
		x := theta[d]
		if t.cfg.Parameters[d].Integer {
			x = math.Round(x)
		}
		p[c] = NumberValue(x, false)
	}
	return p
}

// Best is θ, integer parameters rounded to the nearest.
func (t *spsaTuner) Best() Params { return t.bestOf(t.theta) }

// current is the iteration whose c_k and r_k the reports show: the next
// one to finish, as fishtest shows.
func (t *spsaTuner) current() int { return min(t.done+1, t.cfg.Iterations) }

func (t *spsaTuner) Figures() []ParamFigure {
	best, k := t.Best(), t.current()
	out := make([]ParamFigure, len(t.codes))
	for d, c := range t.codes {
		p := t.cfg.Parameters[d]
		out[d] = ParamFigure{Code: c, Best: best[c], Figures: []Figure{
			{"theta", t.theta[d]}, {"start", p.Start}, {"min", p.Min}, {"max", p.Max},
			{"c", t.ck(d, k)}, {"c_end", p.CEnd}, {"r", t.rk(d, k)}, {"r_end", p.REnd},
		}}
	}
	return out
}

// WriteReport writes fishtest's summary line and parameter table; the full
// report adds the iterations in progress and θ's history.
func (t *spsaTuner) WriteReport(w io.Writer, full bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "iter: %d/%d, A: %s, alpha: %0.3f, gamma: %0.3f, mode: %s\n\n",
		t.done, t.cfg.Iterations, formatNumber(t.a), t.alpha, t.gamma, t.mode)
	fmt.Fprintf(&b, "Best parameters: %s\n\n", formatParams(t.codes, t.Best()))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "param\ttheta\tstart\tmin\tmax\tc\tc_end\tr\tr_end")
	k := t.current()
	for d, c := range t.codes {
		p := t.cfg.Parameters[d]
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%s\t%s\t%.3g\t%.3g\t%.2e\t%.2e\n", c, t.theta[d], formatNumber(p.Start),
			formatNumber(p.Min), formatNumber(p.Max), t.ck(d, k), p.CEnd, t.rk(d, k), p.REnd)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if full {
		if len(t.pending) > 0 {
			b.WriteString("\nIn progress:\n")
			for _, k := range slices.Sorted(maps.Keys(t.pending)) {
				plus, minus := t.candidates(k, t.pending[k].base)
				fmt.Fprintf(&b, "iteration %d: %s %s; %s %s\n", k, plus.Name, formatParams(t.codes, plus.Params),
					minus.Name, formatParams(t.codes, minus.Params))
			}
		}
		b.WriteString("\nHistory:\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "iter\t%s\n", strings.Join(t.codes, "\t"))
		for _, h := range t.history {
			fmt.Fprintf(tw, "%d", h.done)
			for _, x := range h.theta {
				fmt.Fprintf(tw, "\t%.4g", x)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SPSAReport is spsa's JSON report section.
type SPSAReport struct {
	Type           string              `json:"type"` // "spsa"
	Mode           string              `json:"mode"`
	Iterations     int                 `json:"iterations"`
	IterationsDone int                 `json:"iterations_done"`
	InProgress     []int               `json:"in_progress"` // iterations
	A              float64             `json:"A"`
	Alpha          float64             `json:"alpha"`
	Gamma          float64             `json:"gamma"`
	Best           map[string]any      `json:"best"`
	Parameters     []SPSAParameterJSON `json:"parameters"`
	History        []SPSAPointJSON     `json:"history"`
}

// SPSAParameterJSON is one parameter's θ and schedule (c and r at the
// next iteration to finish).
type SPSAParameterJSON struct {
	Code  string  `json:"code"`
	Best  any     `json:"best"`
	Theta float64 `json:"theta"`
	Start float64 `json:"start"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	C     float64 `json:"c"`
	CEnd  float64 `json:"c_end"`
	R     float64 `json:"r"`
	REnd  float64 `json:"r_end"`
}

// SPSAPointJSON is θ after some number of finished iterations.
type SPSAPointJSON struct {
	Iterations int                `json:"iterations"`
	Theta      map[string]float64 `json:"theta"`
}

func (t *spsaTuner) JSON() any {
	r := &SPSAReport{
		Type: "spsa", Mode: t.mode, Iterations: t.cfg.Iterations, IterationsDone: t.done,
		InProgress: slices.Sorted(maps.Keys(t.pending)),
		A:          t.a, Alpha: t.alpha, Gamma: t.gamma,
		Best: bestJSON(t.Best()),
	}
	if r.InProgress == nil {
		r.InProgress = []int{}
	}
	for _, f := range t.Figures() {
		v := func(i int) float64 { return f.Figures[i].Value }
		r.Parameters = append(r.Parameters, SPSAParameterJSON{
			Code: f.Code, Best: jsonValue(f.Best), Theta: v(0), Start: v(1), Min: v(2), Max: v(3),
			C: v(4), CEnd: v(5), R: v(6), REnd: v(7),
		})
	}
	for _, h := range t.history {
		p := SPSAPointJSON{Iterations: h.done, Theta: map[string]float64{}}
		for d, c := range t.codes {
			p.Theta[c] = h.theta[d]
		}
		r.History = append(r.History, p)
	}
	return r
}
