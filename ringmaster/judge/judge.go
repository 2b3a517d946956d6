// Package judge is the seam through which `ringmaster analyse` has a game
// judge the play in its finished games' records. It is optional: a game
// that implements Game offers analysis (backgammon, with bgbot as the
// judge); for the others the command says analysis is not available. The
// ringmaster stores what a judge finds as named figures per seat and sums
// them per matchup side and per player, without reading them: the game
// prints and describes its own figures.
//
// It is a package of its own, beside referee, so that a game implements it
// without importing the ringmaster.
package judge

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gamemill/gamemill/ringmaster/control"
)

// LuckAdjusted names the one figure the ringmaster reads: each side's
// luck-adjusted result of the game on the scale of the stored points
// (points_a, points_b), for points per game with less luck in them.
const LuckAdjusted = "luck_adjusted_points"

// Game is what a game implements to offer analysis.
type Game interface {
	// Judges lists the engines that can judge, the default first
	// (backgammon: bgbot, gnubg).
	Judges() []string
	// NewJudge makes the judge of one worker: an engine of Judges at a
	// depth; an invalid depth is an error. A judge is used by one
	// goroutine at a time.
	NewJudge(spec Spec) (Judge, error)
	// WriteSides prints the statistics of a matchup's two sides, each the
	// sum over the games analysed.
	WriteSides(w io.Writer, sides [2]Player) error
	// WritePlayers prints one line per player, each over all of its games
	// analysed.
	WritePlayers(w io.Writer, players []Player) error
	// PlayerJSON is one player's (or side's) statistics for --json.
	PlayerJSON(p Player) any
	// WinScaled reports whether, under these settings, a game's
	// LuckAdjusted figure estimates its win or loss (+1 a win, -1 a loss),
	// so that (1+x)/2 estimates the chance of winning and may stand for
	// the game's score in an Elo or a sequential test (backgammon: in
	// matches; a money game's points are not a score).
	WinScaled(s control.GameSettings) bool
}

// Judge analyses finished games.
type Judge interface {
	// Name says what judges, for people and the store ("bgbot 0-ply").
	Name() string
	// Analyse judges the play of one finished game from its records (by
	// format, as the referee wrote them).
	Analyse(ctx context.Context, records map[string]string) (Analysis, error)
}

// Analysis is one game's judgement.
type Analysis struct {
	// Players are the two sides as the records name them (the player
	// codes of the game's seats), in the order of Figures.
	Players [2]string
	// Figures are the game's named figures for each side: sums and counts,
	// so that the figures of several games add up.
	Figures map[string][2]float64
}

// Player is a side's or a player's figures summed over games.
type Player struct {
	Code string
	// Settings are the settings of the player's games, or nil when they
	// were played under different settings.
	Settings control.GameSettings
	Games    int
	Figures  map[string]float64
}

// Spec names a judge: an engine and the depth it judges at.
type Spec = control.JudgeSpec

// MaxSpecPlies bounds the depth a spec may name; each engine has its own
// lower bound, which NewJudge checks.
const MaxSpecPlies = control.MaxJudgePlies

// ParseSpec reads "ENGINE:PLIES", or "ENGINE" alone for defaultPlies, by
// the rule the control file's luck_judge is read by
// (control.ParseJudgeSpec). It checks the form only; the game checks that
// it offers the engine.
func ParseSpec(text string, defaultPlies int) (Spec, error) {
	return control.ParseJudgeSpec(text, defaultPlies)
}

// Resolve checks spec against the engines g offers, an empty engine
// standing for the default (the first).
func Resolve(g Game, spec Spec) (Spec, error) {
	engines := g.Judges()
	if spec.Engine == "" && len(engines) > 0 {
		spec.Engine = engines[0]
	}
	for _, e := range engines {
		if e == spec.Engine {
			return spec, nil
		}
	}
	return spec, fmt.Errorf("no judge %q (the judges: %s)", spec.Engine, strings.Join(engines, ", "))
}
