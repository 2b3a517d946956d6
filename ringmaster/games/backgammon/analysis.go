package backgammon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/judge"
)

// judgeParts are what every judge of one Game shares, read-only once
// built: the network's weights and the bearoff database (about 0.3 s to
// build).
type judgeParts struct {
	mu      sync.Mutex
	weights *bgbot.Weights
	bearoff *bgbot.Bearoff
}

func (p *judgeParts) get() (*bgbot.Weights, *bgbot.Bearoff, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.weights == nil {
		w, err := bgbot.DefaultWeights()
		if err != nil {
			return nil, nil, err
		}
		p.weights = w
	}
	if p.bearoff == nil {
		db, err := bgbot.NewBearoff(bgbot.DefaultBearoffCheckers)
		if err != nil {
			return nil, nil, err
		}
		p.bearoff = db
	}
	return p.weights, p.bearoff, nil
}

// Judges implements judge.Game: bgbot's analysis, and gnubg's.
func (g *Game) Judges() []string { return []string{"bgbot", "gnubg"} }

// NewJudge implements judge.Game: bgbot's analysis (engine/bgbot/analysis)
// at plies 0 to bgbot.MaxPlies, or gnubg's (ringmaster/judge/gnubgjudge)
// at 0 to gnubg's deepest.
func (g *Game) NewJudge(spec judge.Spec) (judge.Judge, error) {
	if spec.Engine == "gnubg" {
		return g.newGnubgJudge(spec.Plies)
	}
	if spec.Engine != "bgbot" {
		return nil, fmt.Errorf("no judge %q (the judges: %s)", spec.Engine, strings.Join(g.Judges(), ", "))
	}
	plies := spec.Plies
	if plies < 0 || plies > bgbot.MaxPlies {
		return nil, fmt.Errorf("bgbot judge: depth %d out of range 0..%d", plies, bgbot.MaxPlies)
	}
	w, db, err := g.judges.get()
	if err != nil {
		return nil, err
	}
	a, err := analysis.New(analysis.Config{Plies: plies, Weights: w, Bearoff: db})
	if err != nil {
		return nil, err
	}
	return &bgJudge{a: a, races: &g.races}, nil
}

type bgJudge struct {
	a     *analysis.Analyser
	races *raceParts // to value a settled race (settledResult)
}

func (j *bgJudge) Name() string { return fmt.Sprintf("bgbot %d-ply", j.a.Plies()) }

// Analyse reads the SGF record or else the .mat, replays it through the
// rules and judges it. A game whose start position only the match comment
// names (an SGF without gnubg's setup nodes) replays from the .mat: SGF
// moves name the points a checker passes, and a reader that does not know
// the position marks the hits the standard start would have, where the
// .mat's moves mark the ones the referee saw.
func (j *bgJudge) Analyse(ctx context.Context, records map[string]string) (judge.Analysis, error) {
	read := func(format string) (*record.Match, error) {
		r := strings.NewReader(records[format])
		if format == "sgf" {
			return sgf.Read(r)
		}
		return mat.Read(r)
	}
	format := "sgf"
	if records["sgf"] == "" {
		format = "mat"
	}
	if records[format] == "" {
		return judge.Analysis{}, errors.New("no .sgf or .mat record")
	}
	m, err := read(format)
	if err == nil && restoreStart(m) && format == "sgf" && records["mat"] != "" {
		if m, err = read("mat"); err == nil {
			restoreStart(m)
		}
	}
	if err != nil {
		return judge.Analysis{}, fmt.Errorf("read record: %w", err)
	}
	if err := record.Replay(m); err != nil {
		return judge.Analysis{}, fmt.Errorf("replay record: %w", err)
	}
	rep, err := j.a.AnalyseMatch(ctx, m)
	if err != nil {
		return judge.Analysis{}, err
	}
	if err := settledResult(&rep.Overall, m, j.races); err != nil {
		return judge.Analysis{}, err
	}
	return judge.Analysis{Players: m.Players, Figures: figuresOf(rep.Overall, m.MatchLength)}, nil
}

// The figures stored per side: every count and sum of analysis.Stats.
var (
	countFigures = []struct {
		name string
		f    func(*analysis.Stats) *int
	}{
		{"total_moves", func(s *analysis.Stats) *int { return &s.TotalMoves }},
		{"unforced_moves", func(s *analysis.Stats) *int { return &s.UnforcedMoves }},
		{"forced_moves", func(s *analysis.Stats) *int { return &s.ForcedMoves }},
		{"very_bad_moves", func(s *analysis.Stats) *int { return &s.VeryBadMoves }},
		{"cube_decisions", func(s *analysis.Stats) *int { return &s.CubeDecisions }},
		{"close_cube_decisions", func(s *analysis.Stats) *int { return &s.CloseCube }},
		{"doubles", func(s *analysis.Stats) *int { return &s.Doubles }},
		{"takes", func(s *analysis.Stats) *int { return &s.Takes }},
		{"drops", func(s *analysis.Stats) *int { return &s.Drops }},
		{"missed_doubles", func(s *analysis.Stats) *int { return &s.MissedDoubles }},
		{"wrong_doubles", func(s *analysis.Stats) *int { return &s.WrongDoubles }},
		{"wrong_takes", func(s *analysis.Stats) *int { return &s.WrongTakes }},
		{"wrong_drops", func(s *analysis.Stats) *int { return &s.WrongDrops }},
		{"resignations", func(s *analysis.Stats) *int { return &s.Resignations }},
		{"very_lucky_rolls", func(s *analysis.Stats) *int { return &s.VeryLucky }},
		{"lucky_rolls", func(s *analysis.Stats) *int { return &s.Lucky }},
		{"unlucky_rolls", func(s *analysis.Stats) *int { return &s.Unlucky }},
		{"very_unlucky_rolls", func(s *analysis.Stats) *int { return &s.VeryUnlucky }},
	}
	sumFigures = []struct {
		name string
		f    func(*analysis.Stats) *float64
	}{
		{"chequer_error", func(s *analysis.Stats) *float64 { return &s.ChequerError }},
		{"chequer_error_unnorm", func(s *analysis.Stats) *float64 { return &s.ChequerUnnorm }},
		{"cube_error", func(s *analysis.Stats) *float64 { return &s.CubeError }},
		{"cube_error_unnorm", func(s *analysis.Stats) *float64 { return &s.CubeUnnorm }},
		{"luck", func(s *analysis.Stats) *float64 { return &s.Luck }},
		{"luck_unnorm", func(s *analysis.Stats) *float64 { return &s.LuckUnnorm }},
		{"result", func(s *analysis.Stats) *float64 { return &s.Result }},
		{"luck_adjusted_result", func(s *analysis.Stats) *float64 { return &s.LuckAdjusted }},
	}
)

// figuresOf turns both players' statistics into the stored figures, with
// judge.LuckAdjusted on the stored points' scale: points in money play; in
// a match the luck-adjusted match winning chance gained, doubled, so that
// a match won is +1 as in points_a.
func figuresOf(st [2]analysis.Stats, matchLength int) map[string][2]float64 {
	out := map[string][2]float64{}
	for _, c := range countFigures {
		out[c.name] = [2]float64{float64(*c.f(&st[0])), float64(*c.f(&st[1]))}
	}
	for _, c := range sumFigures {
		out[c.name] = [2]float64{*c.f(&st[0]), *c.f(&st[1])}
	}
	scale := 1.0
	if matchLength > 0 {
		scale = 2
	}
	out[judge.LuckAdjusted] = [2]float64{scale * st[0].LuckAdjusted, scale * st[1].LuckAdjusted}
	return out
}

// statsOf is the inverse of figuresOf for one side.
func statsOf(figs map[string]float64) analysis.Stats {
	var s analysis.Stats
	for _, c := range countFigures {
		*c.f(&s) = int(math.Round(figs[c.name]))
	}
	for _, c := range sumFigures {
		*c.f(&s) = figs[c.name]
	}
	return s
}

// matchLengthOf is the match length of a player's games, 0 for money play
// or when its games were played under different settings.
func matchLengthOf(p judge.Player) int {
	if s, ok := p.Settings.(*Settings); ok {
		return s.MatchLength
	}
	return 0
}

// WriteSides implements judge.Game: gnubg's statistics table for the two
// sides, then, in a match, their rating difference four ways.
func (g *Game) WriteSides(w io.Writer, sides [2]judge.Player) error {
	n := matchLengthOf(sides[0])
	st := [2]analysis.Stats{statsOf(sides[0].Figures), statsOf(sides[1].Figures)}
	if sides[0].Games == 0 {
		return analysis.WriteText(w, [2]string{sides[0].Code, sides[1].Code}, st, n)
	}
	// The results print per game (per match), the rest as sums.
	games := float64(sides[0].Games)
	perGame := st
	for i := range perGame {
		perGame[i].Result /= games
		perGame[i].LuckAdjusted /= games
	}
	if err := analysis.WriteText(w, [2]string{sides[0].Code, sides[1].Code}, perGame, n); err != nil {
		return err
	}
	unit := "game"
	if n > 0 {
		unit = "match"
	}
	if _, err := fmt.Fprintf(w, "(actual and luck-adjusted results per %s, averaged over %d)\n", unit, sides[0].Games); err != nil {
		return err
	}
	if n < 1 {
		return nil
	}
	sign := func(v float64) string {
		if math.IsNaN(v) {
			return "n/a"
		}
		return fmt.Sprintf("%+.0f", v)
	}
	_, err := fmt.Fprintf(w, "\nrating of %s minus %s (FIBS points): %s from error rates (a2(N)*EPM + b(N)*EPC), %s by a(N)*DEPD, %s from the luck-adjusted results, %s from the results\n",
		sides[0].Code, sides[1].Code,
		sign(analysis.RatingDifference(st[0].ChequerErrorRate(), st[0].CubeErrorRate(), st[1].ChequerErrorRate(), st[1].CubeErrorRate(), n)),
		sign(analysis.SingleRateDifference(st[0].OverallErrorRate(), st[1].OverallErrorRate(), n)),
		sign(analysis.LuckBasedRatingDifference(0.5+st[0].LuckAdjusted/games, n)),
		sign(analysis.LuckBasedRatingDifference(0.5+st[0].Result/games, n)))
	return err
}

// WritePlayers implements judge.Game: one line per player.
func (g *Game) WritePlayers(w io.Writer, players []judge.Player) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "player\tgames\tunforced\tchequer mEMG\tclose cube\tcube mEMG\toverall mEMG\trating\tluck mEMG\tluck\tFIBS estimate\t\n")
	rate := func(v float64) string {
		if math.IsNaN(v) {
			return "n/a"
		}
		return fmt.Sprintf("%.1f", 1000*v)
	}
	for _, p := range players {
		s := statsOf(p.Figures)
		est := "n/a"
		if v := s.RatingEstimate(matchLengthOf(p)); !math.IsNaN(v) {
			est = fmt.Sprintf("%.0f", v)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Code, p.Games, s.UnforcedMoves, rate(s.ChequerErrorRate()),
			s.CloseCube, rate(s.CubeErrorRate()), rate(s.OverallErrorRate()), s.RatingLabel(), rate(s.LuckRate()), s.LuckLabel(), est)
	}
	return tw.Flush()
}

// PlayerAnalysis is a player's (or a matchup side's) statistics in
// `ringmaster analyse --json`: analysis.PlayerSummary's fields and the
// games analysed.
type PlayerAnalysis struct {
	analysis.PlayerSummary
	Games int `json:"games"`
}

// PlayerJSON implements judge.Game.
func (g *Game) PlayerJSON(p judge.Player) any {
	s := statsOf(p.Figures)
	return PlayerAnalysis{PlayerSummary: s.Summary(p.Code, matchLengthOf(p)), Games: p.Games}
}

// MatchLength implements ringmaster.MatchLengther: the ratings put an
// N-point match on the FIBS scale; a money game (0) is a single game.
func (g *Game) MatchLength(s control.GameSettings) int { return s.(*Settings).MatchLength }

// WinScaled implements judge.Game: in a match the luck-adjusted figure is
// the luck-adjusted match winning chance gained, doubled, which estimates
// the match's +1 or -1; in money play it is points, not a score.
func (g *Game) WinScaled(s control.GameSettings) bool {
	bs, ok := s.(*Settings)
	return ok && bs.MatchLength > 0
}
