package tuners

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// CEConfig configures ce_tuner: gomill's cross-entropy tuner. Each
// generation draws candidates from a normal distribution per parameter,
// plays each candidate BatchSize games against the opponent, and moves the
// distribution towards the best candidates (the elite). The names in
// brackets are the control-file keys.
type CEConfig struct {
	// Parameters ([[parameters]]). Required.
	Parameters []CEParameter `toml:"parameters"`
	// NumberOfGenerations (number_of_generations),
	// SamplesPerGeneration (samples_per_generation) and BatchSize
	// (batch_size, games per candidate): required, positive.
	NumberOfGenerations  int `toml:"number_of_generations"`
	SamplesPerGeneration int `toml:"samples_per_generation"`
	BatchSize            int `toml:"batch_size"`
	// EliteProportion (elite_proportion): the share of a generation's
	// candidates that make the elite (at least one). Required, strictly
	// between 0 and 1.
	EliteProportion float64 `toml:"elite_proportion"`
	// StepSize (step_size): how far a generation moves the distribution
	// towards the elite's mean and variance. Required, strictly between 0
	// and 1.
	StepSize float64 `toml:"step_size"`
}

// CEParameter is one parameter of a ce_tuner.
type CEParameter struct {
	Code string `toml:"code"` // the {code} placeholder it fills
	// InitialMean (initial_mean) and InitialVariance (initial_variance,
	// at least 0) give generation 0's distribution.
	InitialMean     float64 `toml:"initial_mean"`
	InitialVariance float64 `toml:"initial_variance"`
	// Min (min) and Max (max), when set, clip each sample; the clipped
	// value is both what the candidate plays and what the update uses.
	Min *float64 `toml:"min"`
	Max *float64 `toml:"max"`
	// Integer (integer) rounds the played value half up (the distribution
	// stays continuous).
	Integer bool `toml:"integer"`
}

// ceGeneration is a finished generation, kept for the full report.
type ceGeneration struct {
	means, vars []float64
	samples     [][]float64
	wins        []float64
	order       []int // candidate indices, best first
	elite       int
}

type ceTuner struct {
	cfg      CEConfig
	seed     int64
	codes    []string
	gen      int
	means    []float64
	vars     []float64
	samples  [][]float64 // the current generation's, clipped
	wins     []float64
	recorded int
	inFlight map[int]bool
	history  []ceGeneration
}

// NewCE returns a ce_tuner.
func NewCE(cfg CEConfig, seed int64) (Tuner, error) {
	codes := make([]string, len(cfg.Parameters))
	for i, p := range cfg.Parameters {
		codes[i] = p.Code
	}
	if err := checkCodes(codes); err != nil {
		return nil, err
	}
	t := &ceTuner{cfg: cfg, seed: seed, codes: codes, inFlight: make(map[int]bool)}
	t.cfg.Parameters = slices.Clone(cfg.Parameters)
	for i, p := range cfg.Parameters {
		field := fmt.Sprintf("parameters[%d]", i)
		if !finite(p.InitialMean) {
			return nil, configErrorf(field+".initial_mean", "must be a finite number")
		}
		if !finite(p.InitialVariance) || p.InitialVariance < 0 {
			return nil, configErrorf(field+".initial_variance", "must be at least 0")
		}
		if p.Min != nil && !finite(*p.Min) {
			return nil, configErrorf(field+".min", "must be a finite number")
		}
		if p.Max != nil && (!finite(*p.Max) || p.Min != nil && !(*p.Max > *p.Min)) {
			return nil, configErrorf(field+".max", "must be greater than min")
		}
		t.means = append(t.means, p.InitialMean)
		t.vars = append(t.vars, p.InitialVariance)
	}
	for _, c := range []struct {
		field string
		v     int
	}{
		{"number_of_generations", cfg.NumberOfGenerations},
		{"samples_per_generation", cfg.SamplesPerGeneration},
		{"batch_size", cfg.BatchSize},
	} {
		if c.v < 1 {
			return nil, configErrorf(c.field, "must be a positive integer")
		}
	}
	if cfg.SamplesPerGeneration > 1<<20/cfg.BatchSize {
		return nil, configErrorf("batch_size", "a generation of samples_per_generation × batch_size games must be at most 1048576 games")
	}
	if !(cfg.EliteProportion > 0 && cfg.EliteProportion < 1) {
		return nil, configErrorf("elite_proportion", "out of range (0.0 to 1.0)")
	}
	if !(cfg.StepSize > 0 && cfg.StepSize < 1) {
		return nil, configErrorf("step_size", "out of range (0.0 to 1.0)")
	}
	t.startGeneration()
	return t, nil
}

// perGeneration is the number of games in a generation.
func (t *ceTuner) perGeneration() int { return t.cfg.SamplesPerGeneration * t.cfg.BatchSize }

// startGeneration draws the current generation's samples from the stream
// of (seed, generation).
func (t *ceTuner) startGeneration() {
	r := newStream(t.seed, tagCESamples, t.gen)
	t.samples = make([][]float64, t.cfg.SamplesPerGeneration)
	for i := range t.samples {
		s := make([]float64, len(t.codes))
		for d, p := range t.cfg.Parameters {
			s[d] = clip(t.means[d]+math.Sqrt(t.vars[d])*r.normal(), p.Min, p.Max)
		}
		t.samples[i] = s
	}
	t.wins = make([]float64, t.cfg.SamplesPerGeneration)
	t.recorded = 0
}

func clip(x float64, lo, hi *float64) float64 {
	if lo != nil && x < *lo {
		x = *lo
	}
	if hi != nil && x > *hi {
		x = *hi
	}
	return x
}

func (t *ceTuner) params(x []float64) Params {
	p := make(Params, len(t.codes))
	for d, c := range t.codes {
		p[c] = NumberValue(x[d], t.cfg.Parameters[d].Integer)
	}
	return p
}

func candidateName(gen, i int) string {
	return "g" + strconv.Itoa(gen) + "#" + strconv.Itoa(i)
}

// Next hands out a generation's games round by round: every candidate's
// first game, then every candidate's second, as gomill's scheduler does.
func (t *ceTuner) Next(n int) (Game, Status) {
	if t.gen >= t.cfg.NumberOfGenerations {
		return Game{}, Done
	}
	m := n - t.gen*t.perGeneration()
	if m < 0 || m >= t.perGeneration() {
		return Game{}, Wait
	}
	return t.game(n, m%t.cfg.SamplesPerGeneration), Ready
}

func (t *ceTuner) game(n, i int) Game {
	return Game{Number: n, A: Candidate{Name: candidateName(t.gen, i), Params: t.params(t.samples[i])}, Pair: -1}
}

// index returns the candidate index of game g, checking that g belongs to
// the current generation.
func (t *ceTuner) index(g Game) (int, error) {
	m := g.Number - t.gen*t.perGeneration()
	if t.gen >= t.cfg.NumberOfGenerations || m < 0 || m >= t.perGeneration() {
		return 0, fmt.Errorf("game %d (%s) is not in generation %d", g.Number, g.A.Name, t.gen)
	}
	i := m % t.cfg.SamplesPerGeneration
	want := t.game(g.Number, i)
	if g.A.Name != want.A.Name || g.B != nil || g.Pair != -1 || g.Detail != "" {
		return 0, fmt.Errorf("game %d: candidate %q is not this tuner's (want %s)", g.Number, g.A.Name, want.A.Name)
	}
	if !sameParams(t.codes, g.A.Params, want.A.Params) {
		return 0, fmt.Errorf("game %d: candidate %s played %s, but this tuner draws %s: the parameters or the seed changed",
			g.Number, g.A.Name, formatParams(t.codes, g.A.Params), formatParams(t.codes, want.A.Params))
	}
	return i, nil
}

func (t *ceTuner) Issued(g Game) error {
	if _, err := t.index(g); err != nil {
		return err
	}
	if t.inFlight[g.Number] {
		return fmt.Errorf("game %d: issued twice", g.Number)
	}
	t.inFlight[g.Number] = true
	return nil
}

func (t *ceTuner) Record(g Game, score float64) error {
	if err := checkScore(g, score); err != nil {
		return err
	}
	if !t.inFlight[g.Number] {
		return fmt.Errorf("game %d: recorded but not issued", g.Number)
	}
	i, err := t.index(g)
	if err != nil {
		return err
	}
	delete(t.inFlight, g.Number)
	t.wins[i] += score
	t.recorded++
	if t.recorded == t.perGeneration() {
		t.finishGeneration()
	}
	return nil
}

// finishGeneration picks the elite and updates the distribution.
func (t *ceTuner) finishGeneration() {
	n := t.cfg.SamplesPerGeneration
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// gomill sorts (wins, index) pairs in reverse: most wins first, and
	// among equal wins the higher index first.
	slices.SortFunc(order, func(a, b int) int {
		if t.wins[a] != t.wins[b] {
			if t.wins[a] > t.wins[b] {
				return -1
			}
			return 1
		}
		return b - a
	})
	elite := max(1, int(t.cfg.EliteProportion*float64(n)+0.5))
	elites := make([][]float64, elite)
	for k := range elites {
		elites[k] = t.samples[order[k]]
	}
	t.history = append(t.history, ceGeneration{
		means: t.means, vars: t.vars, samples: t.samples, wins: t.wins, order: order, elite: elite,
	})
	t.means, t.vars = updateDistribution(t.means, t.vars, elites, t.cfg.StepSize)
	t.gen++
	if t.gen < t.cfg.NumberOfGenerations {
		t.startGeneration()
	} else {
		// Done: the report keeps showing the last generation's wins, as
		// gomill's does.
		t.samples, t.recorded = nil, 0
	}
}

// updateDistribution is the cross-entropy step: each dimension's mean and
// variance move by step towards the elite's mean and population variance.
func updateDistribution(means, vars []float64, elites [][]float64, step float64) (newMeans, newVars []float64) {
	n := float64(len(elites))
	for d := range means {
		sum := 0.0
		for _, e := range elites {
			sum += e[d]
		}
		mean := sum / n
		ss := 0.0
		for _, e := range elites {
			ss += (e[d] - mean) * (e[d] - mean)
		}
		newMeans = append(newMeans, step*mean+(1-step)*means[d])
		newVars = append(newVars, step*(ss/n)+(1-step)*vars[d])
	}
	return newMeans, newVars
}

func (t *ceTuner) Best() Params { return t.params(t.means) }

func (t *ceTuner) Figures() []ParamFigure {
	best := t.Best()
	out := make([]ParamFigure, len(t.codes))
	for d, c := range t.codes {
		out[d] = ParamFigure{Code: c, Best: best[c], Figures: []Figure{
			{"mean", t.means[d]},
			{"variance", t.vars[d]},
		}}
	}
	return out
}

// formatDistribution writes the means as parameters and then gomill's
// mean~variance pairs.
func (t *ceTuner) formatDistribution(b *strings.Builder, means, vars []float64) {
	b.WriteString(formatParams(t.codes, t.params(means)))
	b.WriteString("\n")
	for d := range means {
		if d > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(b, "%5.2f~%4.2f", means[d], vars[d])
	}
	b.WriteString("\n")
}

func formatWins(w []float64) string {
	s := make([]string, len(w))
	for i, x := range w {
		s[i] = strconv.FormatFloat(x, 'f', -1, 64)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// WriteReport writes gomill's report: the generation, the current
// samples' wins and the distribution; the full report adds each finished
// generation as gomill's history log has it, the elite starred.
func (t *ceTuner) WriteReport(w io.Writer, full bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "generation %d\n\n", t.gen)
	fmt.Fprintf(&b, "wins from current samples:\n%s\n\n", formatWins(t.wins))
	if t.gen >= t.cfg.NumberOfGenerations {
		b.WriteString("final distribution:\n")
	} else {
		fmt.Fprintf(&b, "distribution for generation %d:\n", t.gen)
	}
	t.formatDistribution(&b, t.means, t.vars)
	if full {
		for g, h := range t.history {
			fmt.Fprintf(&b, "\nGeneration %d\nDistribution\n", g)
			t.formatDistribution(&b, h.means, h.vars)
			for k, i := range h.order {
				star := " "
				if k < h.elite {
					star = "*"
				}
				fmt.Fprintf(&b, "%s%s %s %3s\n", candidateName(g, i), star, formatParams(t.codes, t.params(h.samples[i])),
					strconv.FormatFloat(h.wins[i], 'f', -1, 64))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CEReport is ce_tuner's JSON report section.
type CEReport struct {
	Type                string             `json:"type"` // "ce_tuner"
	Generation          int                `json:"generation"`
	NumberOfGenerations int                `json:"number_of_generations"`
	GamesPlayed         int                `json:"games_played"`
	InProgress          []int              `json:"in_progress"`
	Best                map[string]any     `json:"best"`
	Parameters          []CEParameterJSON  `json:"parameters"`
	Samples             []CECandidateJSON  `json:"samples"` // the current generation's
	Generations         []CEGenerationJSON `json:"generations"`
}

// CEParameterJSON is one parameter's current distribution.
type CEParameterJSON struct {
	Code     string  `json:"code"`
	Best     any     `json:"best"`
	Mean     float64 `json:"mean"`
	Variance float64 `json:"variance"`
}

// CECandidateJSON is one sample of a generation.
type CECandidateJSON struct {
	Name       string         `json:"name"`
	Parameters map[string]any `json:"parameters"`
	Wins       float64        `json:"wins"`
	Elite      bool           `json:"elite,omitempty"`
}

// CEGenerationJSON is a finished generation: its distribution and
// candidates, best first.
type CEGenerationJSON struct {
	Means      map[string]float64 `json:"means"`
	Variances  map[string]float64 `json:"variances"`
	Candidates []CECandidateJSON  `json:"candidates"`
}

func (t *ceTuner) JSON() any {
	r := &CEReport{
		Type:                "ce_tuner",
		Generation:          t.gen,
		NumberOfGenerations: t.cfg.NumberOfGenerations,
		GamesPlayed:         t.gen*t.perGeneration() + t.recorded,
		InProgress:          slices.Sorted(maps.Keys(t.inFlight)),
		Best:                bestJSON(t.Best()),
		Samples:             []CECandidateJSON{},
		Generations:         []CEGenerationJSON{},
	}
	if r.InProgress == nil {
		r.InProgress = []int{}
	}
	best := t.Best()
	for d, c := range t.codes {
		r.Parameters = append(r.Parameters, CEParameterJSON{Code: c, Best: jsonValue(best[c]), Mean: t.means[d], Variance: t.vars[d]})
	}
	for i, s := range t.samples {
		r.Samples = append(r.Samples, CECandidateJSON{Name: candidateName(t.gen, i), Parameters: bestJSON(t.params(s)), Wins: t.wins[i]})
	}
	for g, h := range t.history {
		gj := CEGenerationJSON{Means: map[string]float64{}, Variances: map[string]float64{}}
		for d, c := range t.codes {
			gj.Means[c] = h.means[d]
			gj.Variances[c] = h.vars[d]
		}
		for k, i := range h.order {
			gj.Candidates = append(gj.Candidates, CECandidateJSON{
				Name: candidateName(g, i), Parameters: bestJSON(t.params(h.samples[i])), Wins: h.wins[i], Elite: k < h.elite,
			})
		}
		r.Generations = append(r.Generations, gj)
	}
	return r
}
