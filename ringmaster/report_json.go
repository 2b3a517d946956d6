package ringmaster

import (
	"context"
	"encoding/json"
	"io"
	"math"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// JSONReport is the machine-readable report (ringmaster show --json). Each
// matchup's figures are from its first player's view where a single number
// is given; pairs of numbers are [first player, second player].
type JSONReport struct {
	Competition string `json:"competition"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	// Contest is the competition type's own section (a gauntlet's
	// challengers), where it has one.
	Contest any `json:"contest,omitempty"`
	// Tuner is a tuning competition's tuner: its best parameters and its
	// figures.
	Tuner     any               `json:"tuner,omitempty"`
	Matchups  []JSONMatchup     `json:"matchups"`
	VoidGames int               `json:"void_game_attempts"`
	Engines   map[string]string `json:"engines"`
	// Players lists every definition a player played under, by code and
	// then in the order they were first recorded.
	Players []JSONPlayer `json:"players,omitempty"`
}

// JSONPlayer is one definition a player played under.
type JSONPlayer struct {
	Code string `json:"code"`
	// Definition is the player's full definition as the store keeps it.
	Definition json.RawMessage `json:"definition"`
	Games      int             `json:"games"`
	FirstGame  string          `json:"first_game,omitempty"`
	LastGame   string          `json:"last_game,omitempty"`
}

// JSONMatchup is one matchup's results.
type JSONMatchup struct {
	ID            string        `json:"id"`
	Name          string        `json:"name"`
	Players       [2]string     `json:"players"`
	Played        int           `json:"played"`
	Planned       int           `json:"planned"`
	Wins          [2]float64    `json:"wins"`
	Unknown       int           `json:"unknown"`
	Draws         int           `json:"draws"`
	Forfeits      [2]int        `json:"forfeits"`
	PointsPerGame *JSONInterval `json:"points_per_game,omitempty"`
	// LuckAdjusted is points per game from luck-adjusted results (with
	// luck_adjust, over the games analysed).
	LuckAdjusted *JSONInterval `json:"luck_adjusted_points_per_game,omitempty"`
	Elo          *JSONInterval `json:"elo,omitempty"`
	// EloWithheld says why there is no Elo where results were disputed.
	EloWithheld string `json:"elo_withheld,omitempty"`
	// LuckAdjustedElo is the Elo from the luck-adjusted results, where
	// they are win-or-loss scores (backgammon matches).
	LuckAdjustedElo *JSONInterval `json:"luck_adjusted_elo,omitempty"`
	SPRT            *JSONSPRT     `json:"sprt,omitempty"`
	// Game holds the game's own section under its name, e.g.
	// "backgammon": {"match_length": 5, "gammons": [...], "cube": [...]}.
	Game map[string]any `json:"-"`
}

// MarshalJSON writes the matchup's fields with the game's section beside
// them, under the game's name.
func (m JSONMatchup) MarshalJSON() ([]byte, error) {
	type plain JSONMatchup // without this method
	data, err := json.Marshal(plain(m))
	if err != nil || len(m.Game) == 0 {
		return data, err
	}
	extra, err := json.Marshal(m.Game)
	if err != nil {
		return nil, err
	}
	return spliceObjects(data, extra), nil
}

// spliceObjects joins two JSON objects' fields into one: {"a":1} and
// {"b":2} give {"a":1,"b":2}.
func spliceObjects(a, b []byte) []byte {
	if len(b) <= 2 { // {}
		return a
	}
	return append(append(a[:len(a)-1:len(a)-1], ','), b[1:]...)
}

// JSONFloat is a figure in the JSON report: a number, or null where there
// is none (NaN or an infinite bound), so that show --json cannot fail on a
// figure.
type JSONFloat float64

// MarshalJSON implements json.Marshaler.
func (f JSONFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(x)
}

// JSONInterval is an estimate with its 95% interval.
type JSONInterval struct {
	Value JSONFloat `json:"value"`
	Low   JSONFloat `json:"low"`
	High  JSONFloat `json:"high"`
	Basis string    `json:"basis,omitempty"`
}

// JSONSPRT is the state of a matchup's sequential test.
type JSONSPRT struct {
	LLR      JSONFloat `json:"llr"`
	Lower    JSONFloat `json:"lower_bound"`
	Upper    JSONFloat `json:"upper_bound"`
	Decision string    `json:"decision"`
	// LuckAdjusted says the test reads luck-adjusted results; Samples is
	// then how many it has read (games, or pairs for paired dice).
	LuckAdjusted bool `json:"luck_adjusted,omitempty"`
	Samples      int  `json:"samples,omitempty"`
}

// ShowJSON writes the report as JSON.
func (r *Ringmaster) ShowJSON(ctx context.Context, w io.Writer) error {
	return r.withExistingStore(ctx, func(st *store.Store) error {
		d, err := r.loadReportDataWithDefinitions(ctx, st)
		if err != nil {
			return err
		}
		rep := r.jsonReport(d)
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	})
}

func (r *Ringmaster) jsonReport(d reportData) *JSONReport {
	rep := &JSONReport{Competition: r.Comp.Code, Type: r.Comp.Type, Description: r.Comp.Description,
		Matchups: []JSONMatchup{}, VoidGames: len(d.voids), Engines: d.engines}
	stats := r.gather(d)
	for _, s := range stats {
		rep.Matchups = append(rep.Matchups, r.jsonMatchup(s))
	}
	if jr, ok := r.sectionOwner().(contest.JSONReporter); ok {
		rep.Contest = jr.JSONSection(r.field(d, stats))
	}
	if r.Comp.Proposer != nil {
		rep.Tuner, rep.Contest = r.tuningJSON(d)
	}
	for _, def := range d.defs {
		p := JSONPlayer{Code: def.Code, Definition: json.RawMessage(def.Definition), Games: def.Games,
			FirstGame: def.FirstGame, LastGame: def.LastGame}
		if !json.Valid(p.Definition) {
			p.Definition, _ = json.Marshal(def.Definition)
		}
		rep.Players = append(rep.Players, p)
	}
	return rep
}

// jsonMatchup is one matchup's figures for show --json (and pool --json).
func (r *Ringmaster) jsonMatchup(s *matchupStats) JSONMatchup {
	// JSON has no infinity: an unbounded Elo end is left out as null by
	// dropping the whole estimate, which then has no finite interval.
	finite := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return false
			}
		}
		return true
	}
	m := s.m
	jm := JSONMatchup{ID: m.ID, Name: m.Name, Players: [2]string{m.PlayerA, m.PlayerB}, Played: s.played,
		Planned: m.NumberOfGames, Wins: s.wins, Unknown: s.unknown, Draws: s.draws, Forfeits: s.forfeits,
		Game: map[string]any{r.Game.Name(): r.Game.JSONDetails(m.Settings, s.totals)}}
	if s.played > 0 {
		sum, basis := s.summary()
		if finite(sum.Mean, sum.Low, sum.High) {
			jm.PointsPerGame = &JSONInterval{Value: JSONFloat(sum.Mean), Low: JSONFloat(sum.Low), High: JSONFloat(sum.High), Basis: basis}
		}
	}
	if r.Comp.JudgesGames(m) && len(s.luck) >= 2 {
		l := ratings.PointsPerGame(s.luck)
		jm.LuckAdjusted = &JSONInterval{Value: JSONFloat(l.Mean), Low: JSONFloat(l.Low), High: JSONFloat(l.High),
			Basis: plural(len(s.luck), "game") + " analysed"}
		if elo, lo, hi, ok := r.luckAdjustedElo(m, l); ok {
			jm.LuckAdjustedElo = &JSONInterval{Value: JSONFloat(elo), Low: JSONFloat(lo), High: JSONFloat(hi)}
		}
	}
	jm.EloWithheld = s.eloWithheld()
	if s.wins[0] > 0 && s.wins[1] > 0 && jm.EloWithheld == "" {
		elo, lo, hi := ratings.EloInterval(s.wins[0], s.wins[1], 0, 0.95)
		if finite(elo, lo, hi) {
			jm.Elo = &JSONInterval{Value: JSONFloat(elo), Low: JSONFloat(lo), High: JSONFloat(hi)}
		}
	}
	if s.sprt != nil {
		llr, d := s.sprt.state()
		lo, hi := s.sprt.test.Bounds()
		jm.SPRT = &JSONSPRT{LLR: JSONFloat(llr), Lower: JSONFloat(lo), Upper: JSONFloat(hi), Decision: d.String(),
			LuckAdjusted: s.sprt.luck, Samples: int(s.sprt.n)}
	}
	return jm
}
