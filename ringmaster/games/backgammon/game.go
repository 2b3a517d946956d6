package backgammon

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/player/agent"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// Name is the control file's name of the game.
const Name = "backgammon"

// Game is backgammon behind the ringmaster's game seam. Its built-in
// engines (bgbot) come from one factory, so that engines of one run share
// their weights and bearoff database.
type Game struct {
	factory gtpengine.Factory
	judges  judgeParts // for NewJudge (analysis.go)
	// GnubgCommand is the gnubg binary for players of kind gnubg that name
	// none; empty means /usr/games/gnubg or gnubg on PATH.
	GnubgCommand string
	races        raceParts // for settle_races (settle.go)
}

// New returns the game, ready to register.
func New() *Game { return &Game{} }

// Name implements control.Game.
func (g *Game) Name() string { return Name }

// PlayerKinds implements control.Game: bgbot built in, and gnubg behind
// its adapter.
func (g *Game) PlayerKinds() []string {
	return []string{control.KindBuiltin, control.KindGnubg, control.KindAgent}
}

// PlayerKeys implements control.Game: backgammon players take no game keys.
func (g *Game) PlayerKeys() []string { return nil }

// DefaultSettings implements control.Game.
func (g *Game) DefaultSettings() control.GameSettings { return DefaultSettings() }

// SettingsTable implements control.Game.
func (g *Game) SettingsTable() []control.Setting { return settingsTable() }

func settingsOf(m *control.Matchup) *Settings { return m.Settings.(*Settings) }

// Referee makes the referee of a matchup's games.
func (g *Game) Referee(m *control.Matchup, logf func(format string, args ...any)) (referee.Referee, error) {
	s := settingsOf(m)
	ref := &Referee{Rules: s.Rules(), MoveLimit: m.MoveLimit, SkipForced: s.SkipForced, Positions: s.Positions, Log: logf}
	if s.SettleRaces {
		races, err := g.races.databases(s.Cube)
		if err != nil {
			return nil, fmt.Errorf("settle_races: %w", err)
		}
		ref.Races = races
	}
	return ref, nil
}

// CheckPlayer is backgammon's part of a player's startup check: the engine
// must accept the rules of its first matchup.
func (g *Game) CheckPlayer(ctx context.Context, p player.Player, m *control.Matchup) error {
	client := &bgcmd.Client{R: p}
	return client.SetGame(ctx, bgcmd.FromRules(settingsOf(m).Rules()))
}

// Launch starts a player of one of the game's own kinds; spec holds what
// the ringmaster prepared (environment, stderr, timeout, transcript).
func (g *Game) Launch(ctx context.Context, p *control.Player, spec player.Spec) (player.Player, error) {
	switch p.Kind {
	case control.KindBuiltin:
		srv, err := g.factory.Server(p.Args)
		if err != nil {
			return nil, err
		}
		opts := []player.InProcessOption{player.WithTimeout(spec.Timeout)}
		if spec.Transcript != nil {
			opts = append(opts, player.WithTranscript(spec.Transcript))
		}
		return player.NewInProcess(srv, opts...), nil
	case control.KindGnubg:
		bin, err := g.gnubgBinary(p)
		if err != nil {
			return nil, err
		}
		// gnubg's noise is made deterministic (a function of the position),
		// so that a replayed game is played the same way.
		return gnubg.Launch(ctx, gnubg.Options{Binary: bin, Dir: spec.Dir, Env: spec.Env, Plies: p.Plies, Noise: p.Noise,
			DeterministicNoise: true, Stderr: spec.Stderr, Timeout: spec.Timeout, Transcript: spec.Transcript})
	case control.KindAgent:
		return agent.Launch(ctx, agent.Options{Argv: spec.Argv, Dir: spec.Dir, Env: spec.Env, Stderr: spec.Stderr,
			Timeout: spec.Timeout, Transcript: spec.Transcript})
	}
	return nil, fmt.Errorf("backgammon has no player kind %q", p.Kind)
}

// gnubgBinary finds the gnubg program for a gnubg player: its own
// command, else the ringmaster's gnubg command, else where gnubg.FindBinary
// looks.
func (g *Game) gnubgBinary(p *control.Player) (string, error) {
	if len(p.Command) > 0 {
		return p.Command[0], nil
	}
	return gnubg.FindBinary(g.GnubgCommand)
}

// PointsUnit names a matchup's points per game in reports.
func (g *Game) PointsUnit(s control.GameSettings) string {
	if s.(*Settings).MatchLength > 0 {
		return "match points/match (+1 win, -1 loss)"
	}
	return "points/game"
}

// PointsBound implements ringmaster.PointsBounder: a match scores +1 or
// -1 (points/match); a money game has no bound short of the cube's.
func (g *Game) PointsBound(s control.GameSettings) float64 {
	if s.(*Settings).MatchLength > 0 {
		return 1
	}
	return 0
}

// SeatNames heads the wins table's split by who moved first.
func (g *Game) SeatNames() [2]string { return [2]string{"moved first: won", "other moved first: won"} }

// SummaryColumns are the statistics shown as columns of the wins table.
func (g *Game) SummaryColumns(control.GameSettings) []string {
	return []string{StatGammons, StatBackgammons}
}

// WriteDetails prints the races settled (with settle_races) and the cube
// table of the full report.
func (g *Game) WriteDetails(w io.Writer, s control.GameSettings, players [2]string, totals map[string][2]int) {
	if s.(*Settings).SettleRaces {
		fmt.Fprintf(w, "races settled by the bearoff database: %d (adjudicated, fractional points)\n", totals[StatSettled][0])
	}
	if !s.(*Settings).Cube {
		return
	}
	// The title has its own line: in the table's first row it would sit
	// in the column of the players' names.
	fmt.Fprintln(w, "cube actions:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\tdoubles\ttakes\tdrops\tbeavers\t\n")
	for i := 0; i < 2; i++ {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", players[i], totals[StatDoubles][i], totals[StatTakes][i],
			totals[StatDrops][i], totals[StatBeavers][i])
	}
	tw.Flush()
}

// JSONDetails is a matchup's "backgammon" section of show --json.
func (g *Game) JSONDetails(s control.GameSettings, totals map[string][2]int) any {
	st := s.(*Settings)
	type cube struct {
		Doubles int `json:"doubles"`
		Takes   int `json:"takes"`
		Drops   int `json:"drops"`
		Beavers int `json:"beavers"`
	}
	out := struct {
		MatchLength int     `json:"match_length"`
		Gammons     [2]int  `json:"gammons"`
		Backgammons [2]int  `json:"backgammons"`
		Cube        [2]cube `json:"cube"`
		// RacesSettled counts the games adjudicated by settle_races.
		RacesSettled int `json:"races_settled,omitempty"`
	}{MatchLength: st.MatchLength, Gammons: totals[StatGammons], Backgammons: totals[StatBackgammons],
		RacesSettled: totals[StatSettled][0]}
	for i := range out.Cube {
		out.Cube[i] = cube{totals[StatDoubles][i], totals[StatTakes][i], totals[StatDrops][i], totals[StatBeavers][i]}
	}
	return out
}
