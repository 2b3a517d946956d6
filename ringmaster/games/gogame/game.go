package gogame

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// Name is the control file's name of the game.
const Name = "go"

// Statistics a Go game stores (game_stats names), by seat.
const (
	StatCaptures = "captures" // stones each seat captured
	StatBlack    = "black"    // 1 for the seat that played Black
)

// Game is Go behind the ringmaster's game seam.
type Game struct{}

// New returns the game, ready to register.
func New() *Game { return &Game{} }

// Name implements control.Game.
func (g *Game) Name() string { return Name }

// PlayerKinds implements control.Game: Go engines are GTP subprocesses
// (kind "protocol") for now.
func (g *Game) PlayerKinds() []string { return nil }

// PlayerKeys implements control.Game: gomill's player settings for Go.
func (g *Game) PlayerKeys() []string { return []string{"is_reliable_scorer", "allow_claim"} }

// DefaultSettings implements control.Game.
func (g *Game) DefaultSettings() control.GameSettings { return DefaultSettings() }

// SettingsTable implements control.Game.
func (g *Game) SettingsTable() []control.Setting { return settingsTable() }

func settingsOf(m *control.Matchup) *Settings { return m.Settings.(*Settings) }

// Referee makes the referee of a matchup's games.
func (g *Game) Referee(m *control.Matchup, logf func(format string, args ...any)) (referee.Referee, error) {
	s := *settingsOf(m)
	if s.OpeningsPath != "" {
		// Loaded by Check; a matchup made after loading (from unchecked
		// settings) reads them here, into its own copy.
		s.loadOpenings()
		if s.openingsError != nil {
			return nil, fmt.Errorf("openings: %w", s.openingsError)
		}
	}
	return &Referee{Settings: s, MoveLimit: m.MoveLimit, Log: logf}, nil
}

// CheckPlayer is Go's part of a player's startup check, as gomill's: the
// engine accepts the board size, clear_board and the komi of its first
// matchup.
func (g *Game) CheckPlayer(ctx context.Context, p player.Player, m *control.Matchup) error {
	s := settingsOf(m)
	for _, c := range [][]string{{"boardsize", strconv.Itoa(s.BoardSize)}, {"clear_board"}, {"komi", komiText(s.Komi)}} {
		if _, err := p.Do(ctx, c[0], c[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// NeededCommands lists, by player code, the GTP commands a matchup's
// games will send that an engine may lack: the handicap placement, the
// clock's, gomill-genmove_ex for a player allowed to claim, and the
// referee engine's final_score. The startup check asks known_command for
// each, so that a competition that cannot work is refused before its
// first game.
func (g *Game) NeededCommands(m *control.Matchup, players map[string]*control.Player) map[string][]string {
	s := settingsOf(m)
	need := map[string][]string{}
	add := func(code string, cmds ...string) { need[code] = append(need[code], cmds...) }
	swaps := m.Alternating || s.PairedGames()
	if s.Handicap > 0 {
		if s.HandicapStyle == HandicapFixed {
			add(m.PlayerA, "fixed_handicap")
			add(m.PlayerB, "fixed_handicap")
		} else {
			add(m.PlayerA, "place_free_handicap")
			add(m.PlayerB, "set_free_handicap")
			if swaps {
				add(m.PlayerB, "place_free_handicap")
				add(m.PlayerA, "set_free_handicap")
			}
		}
	}
	for _, code := range []string{m.PlayerA, m.PlayerB} {
		if s.Clock != nil {
			add(code, "time_settings", "time_left")
		}
		if p := players[code]; p != nil && p.AllowClaim {
			add(code, "gomill-genmove_ex")
		}
	}
	if s.Scorer == ScorerReferee {
		add(s.RefereePlayer, "final_score")
		if s.Handicap > 0 {
			add(s.RefereePlayer, "set_free_handicap")
		}
	}
	return need
}

// Launch implements the ringmaster's Game: Go offers no player kind of its
// own yet.
func (g *Game) Launch(ctx context.Context, p *control.Player, spec player.Spec) (player.Player, error) {
	return nil, fmt.Errorf("go has no player kind %q", p.Kind)
}

// PointsUnit names a matchup's points per game in reports.
func (g *Game) PointsUnit(control.GameSettings) string {
	return "points/game (+1 win, -1 loss, 0 jigo or no result)"
}

// PointsBound implements ringmaster.PointsBounder: a game scores +1, -1
// or 0.
func (g *Game) PointsBound(control.GameSettings) float64 { return 1 }

// SeatNames names the two seats in the wins table.
func (g *Game) SeatNames() [2]string { return [2]string{"as black: won", "as white: won"} }

// SummaryColumns implements the ringmaster's Game: captures are shown in
// the details, not the wins table.
func (g *Game) SummaryColumns(control.GameSettings) []string { return nil }

// WriteDetails prints the stones each player captured and the scoring
// disputes charged to each.
func (g *Game) WriteDetails(w io.Writer, _ control.GameSettings, players [2]string, totals map[string][2]int) {
	if c := totals[StatCaptures]; c != [2]int{} {
		fmt.Fprintf(w, "captures: %s %d, %s %d\n", players[0], c[0], players[1], c[1])
	}
	if n := totals[StatThinks]; n[0] > 0 || n[1] > 0 {
		ms, longest := totals[StatThinkMillis], totals[StatLongest]
		fmt.Fprintf(w, "thinking time (wall clock of genmove): %s average %s, longest %s; %s average %s, longest %s\n",
			players[0], averageSeconds(ms[0], n[0]), seconds(longest[0]), players[1], averageSeconds(ms[1], n[1]), seconds(longest[1]))
	}
	if d := totals[referee.StatDisputes]; d != [2]int{} {
		fmt.Fprintf(w, "scoring disputes (a final_score the referee's area count does not back; the game has no result): %s %d, %s %d; "+
			"a player with disputes is not rated\n", players[0], d[0], players[1], d[1])
	}
}

// JSONDetails is a matchup's "go" section of show --json.
func (g *Game) JSONDetails(s control.GameSettings, totals map[string][2]int) any {
	st := s.(*Settings)
	return struct {
		BoardSize     int     `json:"board_size"`
		Komi          float64 `json:"komi"`
		Handicap      int     `json:"handicap"`
		HandicapStyle string  `json:"handicap_style,omitempty"`
		Scorer        string  `json:"scorer"`
		Captures      [2]int  `json:"captures"`
		GamesAsBlack  [2]int  `json:"games_as_black"`
		// Disputes counts, by player, the results each disputed
		// (referee.StatDisputes).
		Disputes [2]int `json:"scoring_disputes"`
		// Thinks, ThinkMillis and LongestMillis are the clock's figures
		// by player (games with time_settings only).
		Thinks        [2]int `json:"thinks,omitzero"`
		ThinkMillis   [2]int `json:"think_ms,omitzero"`
		LongestMillis [2]int `json:"longest_think_ms,omitzero"`
	}{st.BoardSize, st.Komi, st.Handicap, handicapStyle(st), st.Scorer, totals[StatCaptures], totals[StatBlack], totals[referee.StatDisputes],
		totals[StatThinks], totals[StatThinkMillis], totals[StatLongest]}
}

func seconds(ms int) string { return fmt.Sprintf("%.2fs", float64(ms)/1000) }

func averageSeconds(ms, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fs", float64(ms)/1000/float64(n))
}

func handicapStyle(s *Settings) string {
	if s.Handicap == 0 {
		return ""
	}
	return s.HandicapStyle
}
