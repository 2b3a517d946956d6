// Package tune is the tuning competition types: mc_tuner, ce_tuner and
// spsa, each a tuner of competitions/tuners behind the competition seam.
// The three share their control-file shape (an opponent, a [candidate]
// template with {code} placeholders, [[parameters]] tables and
// candidate_colour) and everything between the tuner and the ringmaster,
// so they live in one package with a Type each; only the reading of each
// tuner's own keys differs.
package tune

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/competitions"
	"github.com/gamemill/gamemill/competitions/tuners"
	"github.com/gamemill/gamemill/ringmaster/contest"
)

// Seats a candidate may take (candidate_colour).
const (
	SeatFirst     = "first"     // the first seat (black in Go)
	SeatSecond    = "second"    // the second seat (white in Go)
	SeatAlternate = "alternate" // first in even-numbered games or pairs, second in odd
	// SeatRandom draws the seat of each game (or pair) from the
	// competition's seed and the game's (or pair's) number, so a resume
	// draws the same.
	SeatRandom = "random"
)

// commonKeys are the top-level keys every tuner reads.
var commonKeys = []string{"opponent", "candidate", "parameters", "candidate_colour", "luck_adjusted"}

// seatAliases maps gomill's colours onto seats.
var seatAliases = map[string]string{
	"b": SeatFirst, "black": SeatFirst, SeatFirst: SeatFirst,
	"w": SeatSecond, "white": SeatSecond, SeatSecond: SeatSecond,
	"r": SeatRandom, SeatRandom: SeatRandom, SeatAlternate: SeatAlternate,
}

// MC is the mc_tuner competition type.
type MC struct{}

// CE is the ce_tuner competition type.
type CE struct{}

// SPSA is the spsa competition type.
type SPSA struct{}

func (MC) Name() string   { return tuners.TypeMC }
func (CE) Name() string   { return tuners.TypeCE }
func (SPSA) Name() string { return tuners.TypeSPSA }

func (MC) Keys() []string {
	return append([]string{"number_of_games", "exploration_coefficient", "initial_visits", "initial_wins", "max_depth", "summary_spec"}, commonKeys...)
}
func (CE) Keys() []string {
	return append([]string{"number_of_generations", "samples_per_generation", "batch_size", "elite_proportion", "step_size"}, commonKeys...)
}
func (SPSA) Keys() []string {
	return append([]string{"iterations", "A", "alpha", "gamma", "mode"}, commonKeys...)
}

func (MC) Load(b contest.Builder) {
	var cfg tuners.MCConfig
	r := reader{b: b}
	cfg.ExplorationCoefficient = r.float(b, "exploration_coefficient", true, 0, math.MaxFloat64)
	cfg.InitialVisits = r.int(b, "initial_visits", true, 1, 1<<30)
	cfg.InitialWins = r.int(b, "initial_wins", true, 1, 1<<30)
	cfg.MaxDepth = r.int(b, "max_depth", false, 1, 32)
	cfg.NumberOfGames = r.int(b, "number_of_games", false, 0, 1<<40)
	if v, ok := b.Get("summary_spec"); ok {
		if list, ok := v.Raw().([]any); !ok {
			v.Errorf("must be a list of integers, e.g. [30] or [10, 10]")
		} else {
			for i := range list {
				if n, ok := v.At(i).Int(0, 1<<20); ok {
					cfg.SummarySpec = append(cfg.SummarySpec, n)
				}
			}
		}
	}
	tables := r.parameters(func(t contest.Table) {
		p := tuners.MCParameter{}
		p.Code = r.str(t, "code", true)
		p.Scale = r.str(t, "scale", false)
		p.Min = r.float(t, "min", false, -math.MaxFloat64, math.MaxFloat64)
		p.Max = r.float(t, "max", false, -math.MaxFloat64, math.MaxFloat64)
		p.Integer = r.bool(t, "integer")
		p.Split = r.int(t, "split", false, 1, 1<<10)
		if v, ok := t.Get("values"); ok {
			if list, ok := v.Raw().([]any); ok {
				p.Values = list
			} else {
				v.Errorf("must be a list of values (strings, numbers or booleans)")
			}
		}
		t.CheckOnlyKeys("code", "scale", "min", "max", "integer", "split", "values")
		cfg.Parameters = append(cfg.Parameters, p)
		r.codes = append(r.codes, p.Code)
	})
	r.finish(tables, r.codes, cfg)
}

func (CE) Load(b contest.Builder) {
	var cfg tuners.CEConfig
	r := reader{b: b}
	cfg.NumberOfGenerations = r.int(b, "number_of_generations", true, 1, 1<<30)
	cfg.SamplesPerGeneration = r.int(b, "samples_per_generation", true, 1, 1<<20)
	cfg.BatchSize = r.int(b, "batch_size", true, 1, 1<<20)
	cfg.EliteProportion = r.float(b, "elite_proportion", true, 0, 1)
	cfg.StepSize = r.float(b, "step_size", true, 0, 1)
	tables := r.parameters(func(t contest.Table) {
		p := tuners.CEParameter{}
		p.Code = r.str(t, "code", true)
		p.InitialMean = r.float(t, "initial_mean", true, -math.MaxFloat64, math.MaxFloat64)
		p.InitialVariance = r.float(t, "initial_variance", true, 0, math.MaxFloat64)
		if _, ok := t.Get("min"); ok {
			x := r.float(t, "min", false, -math.MaxFloat64, math.MaxFloat64)
			p.Min = &x
		}
		if _, ok := t.Get("max"); ok {
			x := r.float(t, "max", false, -math.MaxFloat64, math.MaxFloat64)
			p.Max = &x
		}
		p.Integer = r.bool(t, "integer")
		t.CheckOnlyKeys("code", "initial_mean", "initial_variance", "min", "max", "integer")
		cfg.Parameters = append(cfg.Parameters, p)
		r.codes = append(r.codes, p.Code)
	})
	r.finish(tables, r.codes, cfg)
}

func (SPSA) Load(b contest.Builder) {
	var cfg tuners.SPSAConfig
	r := reader{b: b}
	cfg.Iterations = r.int(b, "iterations", true, 1, 1<<30)
	for _, o := range []struct {
		key string
		dst **float64
	}{{"A", &cfg.A}, {"alpha", &cfg.Alpha}, {"gamma", &cfg.Gamma}} {
		if _, ok := b.Get(o.key); ok {
			x := r.float(b, o.key, false, 0, math.MaxFloat64)
			*o.dst = &x
		}
	}
	cfg.Mode = r.str(b, "mode", false)
	tables := r.parameters(func(t contest.Table) {
		p := tuners.SPSAParameter{}
		p.Code = r.str(t, "code", true)
		p.Start = r.float(t, "start", true, -math.MaxFloat64, math.MaxFloat64)
		p.Min = r.float(t, "min", true, -math.MaxFloat64, math.MaxFloat64)
		p.Max = r.float(t, "max", true, -math.MaxFloat64, math.MaxFloat64)
		p.CEnd = r.float(t, "c_end", true, 0, math.MaxFloat64)
		p.REnd = r.float(t, "r_end", true, 0, math.MaxFloat64)
		p.Integer = r.bool(t, "integer")
		t.CheckOnlyKeys("code", "start", "min", "max", "c_end", "r_end", "integer")
		cfg.Parameters = append(cfg.Parameters, p)
		r.codes = append(r.codes, p.Code)
	})
	r.finish(tables, r.codes, cfg)
}

// reader reads a tuner's keys through the builder, reporting each problem
// at its key.
type reader struct {
	b    contest.Builder
	opp  string
	seat string
	// codes are the parameters' codes in the order read.
	codes []string
}

func (r *reader) float(t contest.Table, key string, required bool, min, max float64) float64 {
	v, ok := t.Get(key)
	if !ok {
		if required {
			t.Errorf(key, "required")
		}
		return 0
	}
	x, _ := v.Float(min, max)
	return x
}

func (r *reader) int(t contest.Table, key string, required bool, min, max int64) int {
	v, ok := t.Get(key)
	if !ok {
		if required {
			t.Errorf(key, "required")
		}
		return 0
	}
	n, _ := v.Int(min, max)
	return n
}

func (r *reader) str(t contest.Table, key string, required bool) string {
	v, ok := t.Get(key)
	if !ok {
		if required {
			t.Errorf(key, "required")
		}
		return ""
	}
	s, _ := v.Str()
	return s
}

func (r *reader) bool(t contest.Table, key string) bool {
	v, ok := t.Get(key)
	if !ok {
		return false
	}
	x, _ := v.Bool()
	return x
}

// parameters reads each [[parameters]] table with read.
func (r *reader) parameters(read func(t contest.Table)) []contest.Table {
	v, ok := r.b.Get("parameters")
	if !ok {
		r.b.Errorf("parameters", "required: one [[parameters]] table per parameter")
		return nil
	}
	tables, ok := v.Tables()
	if !ok {
		return nil
	}
	if len(tables) == 0 {
		v.Errorf("at least one parameter is needed")
	}
	for _, t := range tables {
		read(t)
	}
	return tables
}

// finish reads the common keys, makes the tuner (whose complaints about
// its config go to the key they name) and sets the proposer.
func (r *reader) finish(tables []contest.Table, codes []string, cfg any) {
	b := r.b
	if v, ok := b.Get("opponent"); !ok {
		b.Errorf("opponent", "required: the code of the player the candidates meet")
	} else if s, ok := v.Str(); ok {
		if !b.Defined(s) {
			v.Errorf("unknown player %q", s)
		}
		r.opp = s
	}
	r.seat = SeatAlternate
	if v, ok := b.Get("candidate_colour"); ok {
		if s, ok := v.Str(); ok {
			if seat, ok := seatAliases[s]; ok {
				r.seat = seat
			} else {
				v.Errorf("must be %q, %q, %q or %q (or gomill's \"b\", \"w\", \"black\", \"white\", \"r\"), not %q",
					SeatFirst, SeatSecond, SeatAlternate, SeatRandom, s)
			}
		}
	}
	luck := r.bool(b, "luck_adjusted")
	if v, ok := b.Get("sprt"); ok {
		v.Errorf("not allowed in a tuning competition: the tuner decides which games to play and when to stop")
	}
	b.CheckSettings()
	candidateOK := b.Candidate("candidate", codes)
	if b.Errors() > 0 || !candidateOK {
		return
	}
	seed := int64(0)
	if v, ok := b.Get("seed"); ok {
		if n, ok := v.Raw().(int64); ok {
			seed = n
		}
	}
	if _, err := tuners.New(cfg, seed); err != nil {
		reportConfigError(b, tables, err)
		return
	}
	b.SetCompetitors([]string{r.opp})
	b.SetProposer(&Proposer{Config: cfg, Seed: seed, Opponent: r.opp, Seat: r.seat, Luck: luck})
}

// reportConfigError reports a tuner's complaint at the key it names:
// "parameters[1].max" at that parameter table's max.
func reportConfigError(b contest.Builder, tables []contest.Table, err error) {
	ce, ok := err.(*tuners.ConfigError)
	if !ok {
		b.Errorf("parameters", "%v", err)
		return
	}
	if rest, ok := strings.CutPrefix(ce.Field, "parameters["); ok {
		if i, key, ok := strings.Cut(rest, "]."); ok {
			if n, err := strconv.Atoi(i); err == nil && n >= 0 && n < len(tables) {
				tables[n].Errorf(key, "%s", ce.Problem)
				return
			}
		}
	}
	b.Errorf(ce.Field, "%s", ce.Problem)
}

// Proposer proposes a tuning competition's games.
type Proposer struct {
	Config   any // a tuners.MCConfig, CEConfig or SPSAConfig
	Seed     int64
	Opponent string
	Seat     string // SeatFirst, SeatSecond or SeatAlternate
	// Luck scores games by their luck-adjusted results.
	Luck bool
}

// LuckAdjusted reports whether games score by luck-adjusted results.
func (p *Proposer) LuckAdjusted() bool { return p.Luck }

// Start makes the tuner afresh.
func (p *Proposer) Start() (contest.Proposals, error) {
	t, err := tuners.New(p.Config, p.Seed)
	if err != nil {
		return nil, err
	}
	return &state{p: p, t: t}, nil
}

// state is a tuner as the ringmaster drives it.
type state struct {
	p *Proposer
	t tuners.Tuner
}

func (s *state) Next(n int) (contest.Proposal, contest.ProposalStatus) {
	g, status := s.t.Next(n)
	switch status {
	case tuners.Wait:
		return contest.Proposal{}, contest.Wait
	case tuners.Done:
		return contest.Proposal{}, contest.Finish
	}
	return s.proposal(g), contest.Propose
}

// proposal turns a tuner's game into a proposal: the candidate's seat from
// candidate_colour (by pair, so both games of a pair seat A alike), the
// opponent where the game has no B.
func (s *state) proposal(g tuners.Game) contest.Proposal {
	p := contest.Proposal{Number: g.Number, A: entrant(g.A), Pair: g.Pair, Stored: encode(g)}
	if g.B != nil {
		p.B = entrant(*g.B)
	} else {
		p.B = contest.Entrant{Code: s.p.Opponent}
	}
	switch s.p.Seat {
	case SeatSecond:
		p.ASecond = true
	case SeatAlternate:
		p.ASecond = competitions.PairOrNumber(g.Number, g.Pair)%2 == 1
	case SeatRandom:
		p.ASecond = RandomSecond(s.p.Seed, competitions.PairOrNumber(g.Number, g.Pair))
	}
	return p
}

// RandomSecond is candidate_colour = "random"'s draw for game (or pair)
// k of a competition with the given seed: whether the candidate sits
// second. It is a fixed function of the two, like the dice.
func RandomSecond(seed int64, k int) bool {
	return competitions.DiceSeed(seed, "candidate_colour", k)&1 == 1
}

func entrant(c tuners.Candidate) contest.Entrant {
	params := make(map[string]string, len(c.Params))
	for code, v := range c.Params {
		params[code] = v.Text
	}
	return contest.Entrant{Code: c.Name, Params: params}
}

func (s *state) Issued(p contest.Proposal) error {
	g, err := decode(p.Stored)
	if err != nil {
		return err
	}
	return s.t.Issued(g)
}

func (s *state) Record(p contest.Proposal, score float64) error {
	g, err := decode(p.Stored)
	if err != nil {
		return err
	}
	return s.t.Record(g, score)
}

func (s *state) Decode(stored string) (contest.Proposal, error) {
	g, err := decode(stored)
	if err != nil {
		return contest.Proposal{}, err
	}
	return s.proposal(g), nil
}

func (s *state) WriteSection(w io.Writer, full bool) error {
	if err := s.t.WriteReport(w, full); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

func (s *state) JSONSection() any { return s.t.JSON() }

// storedGame is a tuner's game as the store keeps it: JSON, with a
// value's number null where it has none.
type storedGame struct {
	Number int              `json:"number"`
	A      storedCandidate  `json:"a"`
	B      *storedCandidate `json:"b,omitempty"`
	Pair   int              `json:"pair"`
	Detail string           `json:"detail"`
}

type storedCandidate struct {
	Name   string                 `json:"name"`
	Params map[string]storedValue `json:"params"`
}

type storedValue struct {
	Text string   `json:"text"`
	Num  *float64 `json:"num"`
}

func toStored(c tuners.Candidate) storedCandidate {
	sc := storedCandidate{Name: c.Name, Params: make(map[string]storedValue, len(c.Params))}
	for code, v := range c.Params {
		sv := storedValue{Text: v.Text}
		if !math.IsNaN(v.Num) && !math.IsInf(v.Num, 0) {
			x := v.Num
			sv.Num = &x
		}
		sc.Params[code] = sv
	}
	return sc
}

func fromStored(sc storedCandidate) tuners.Candidate {
	c := tuners.Candidate{Name: sc.Name, Params: make(tuners.Params, len(sc.Params))}
	for code, sv := range sc.Params {
		v := tuners.Value{Text: sv.Text, Num: math.NaN()}
		if sv.Num != nil {
			v.Num = *sv.Num
		}
		c.Params[code] = v
	}
	return c
}

func encode(g tuners.Game) string {
	sg := storedGame{Number: g.Number, A: toStored(g.A), Pair: g.Pair, Detail: g.Detail}
	if g.B != nil {
		b := toStored(*g.B)
		sg.B = &b
	}
	data, err := json.Marshal(sg)
	if err != nil {
		panic(fmt.Sprintf("tune: encode game %d: %v", g.Number, err)) // only finite numbers are kept
	}
	return string(data)
}

func decode(stored string) (tuners.Game, error) {
	var sg storedGame
	if err := json.Unmarshal([]byte(stored), &sg); err != nil {
		return tuners.Game{}, fmt.Errorf("stored tuner game %.60q: %w", stored, err)
	}
	g := tuners.Game{Number: sg.Number, A: fromStored(sg.A), Pair: sg.Pair, Detail: sg.Detail}
	if sg.B != nil {
		b := fromStored(*sg.B)
		g.B = &b
	}
	return g, nil
}
