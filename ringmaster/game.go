package ringmaster

import (
	"context"
	"io"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// Game is the seam between the generic ringmaster and one game. A game
// implements it in its own package (ringmaster/games/backgammon, ...), and
// the program registers the games it offers in one place
// (ringmaster/games.All); the ringmaster itself imports no game's rules or
// formats. The control file reads the game's settings through the embedded
// control.Game.
type Game interface {
	control.Game
	// Referee makes the referee of a matchup's games; logf receives its
	// notes on a game.
	Referee(m *control.Matchup, logf func(format string, args ...any)) (referee.Referee, error)
	// CheckPlayer is the game's part of a player's startup check, after the
	// generic protocol_version, name and version (backgammon: set_game).
	CheckPlayer(ctx context.Context, p player.Player, m *control.Matchup) error
	// Launch starts a player of one of the game's own kinds
	// (control.Game.PlayerKinds); spec holds what the ringmaster prepared
	// for every engine: directory, environment, stderr, timeout, transcript.
	Launch(ctx context.Context, p *control.Player, spec player.Spec) (player.Player, error)

	// PointsUnit names a matchup's points per game in reports.
	PointsUnit(s control.GameSettings) string
	// SeatNames heads the wins table's split by seat: the first mover's
	// wins and the other's ("as black: won", "as white: won").
	SeatNames() [2]string
	// SummaryColumns names the game statistics shown as columns of a
	// matchup's wins table.
	SummaryColumns(s control.GameSettings) []string
	// WriteDetails prints the game's own rows of a matchup in the full
	// report, from the totals of its statistics ([first player, second]).
	WriteDetails(w io.Writer, s control.GameSettings, players [2]string, totals map[string][2]int)
	// JSONDetails is a matchup's section of show --json under the game's
	// name.
	JSONDetails(s control.GameSettings, totals map[string][2]int) any
}

// findGame returns the registered game of that name.
func findGame(games []Game, name string) Game {
	for _, g := range games {
		if g.Name() == name {
			return g
		}
	}
	return nil
}

func controlGames(games []Game) []control.Game {
	out := make([]control.Game, len(games))
	for i, g := range games {
		out[i] = g
	}
	return out
}
