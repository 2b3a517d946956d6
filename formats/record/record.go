// Package record holds a format-neutral record of a backgammon match or
// money session: the players, the rules, and every game as the list of
// actions that were played (rolls and moves, cube actions, resignations).
//
// Readers and writers of concrete formats (formats/mat, formats/sgf) convert
// between files and a Match; Replay plays a Match through the rules in
// engine/backgammon, checking every action and filling in what a format
// leaves out (game results, the Crawford game, canonical move notation);
// a Builder records a match action by action while it is played.
//
// Players are numbered as gnubg numbers them: player 0 is the first name in
// a .mat file (its left column) and White in gnubg's SGF, player 1 the second
// (right column) and Black.
package record

import (
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Kind says what an action is.
type Kind int

const (
	// Move is a roll followed by the move played with it: Dice and Move are
	// set (Move is "" when no checker could move).
	Move Kind = iota + 1
	// Roll is a roll whose move was never made: only as the last action of an
	// unfinished game.
	Roll
	Double             // Player offers the cube; Cube is the value offered (0 if unknown)
	Take               // Player accepts the double
	Drop               // Player refuses the double and loses the game
	Beaver             // Player takes and redoubles at once; Cube is the new value (0 if unknown)
	Resign             // Player, on roll, offers to lose at Level
	AcceptResignation  // Player accepts the resignation on offer
	DeclineResignation // Player declines the resignation on offer
	Forfeit            // Player loses the game (match) for breaking the rules; Comment says why
)

var kindNames = [...]string{"", "move", "roll", "double", "take", "drop", "beaver", "resign", "accept", "decline", "forfeit"}

func (k Kind) String() string {
	if k <= 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Action is one thing a player did.
type Action struct {
	Player  int
	Kind    Kind
	Dice    [2]int            // Move and Roll
	Move    string            // Move: gnubg notation, "" for no move
	Cube    int               // Double and Beaver: the cube value after the action is accepted; 0 if not recorded
	Level   backgammon.Result // Resign
	Comment string
}

func (a Action) String() string {
	switch a.Kind {
	case Move:
		mv := a.Move
		if mv == "" {
			mv = "(no move)"
		}
		return fmt.Sprintf("player %d %d%d: %s", a.Player, a.Dice[0], a.Dice[1], mv)
	case Roll:
		return fmt.Sprintf("player %d rolls %d%d", a.Player, a.Dice[0], a.Dice[1])
	case Double, Beaver:
		if a.Cube > 0 {
			return fmt.Sprintf("player %d %v => %d", a.Player, a.Kind, a.Cube)
		}
	case Resign:
		return fmt.Sprintf("player %d resigns %v", a.Player, a.Level)
	}
	return fmt.Sprintf("player %d %v", a.Player, a.Kind)
}

// Game is one game of a match or session.
type Game struct {
	Number      int    // 1-based
	ScoreBefore [2]int // the match (or session) score when the game began
	Crawford    bool   // this is the Crawford game
	// Start is the position the game began at when not the variant's
	// start, as gnubg's "position ID:match ID" (the match ID gives the
	// player on roll and the cube; the score is the record's own). Its
	// first action is then any decision of that position, not an opening
	// roll. .mat and SGF cannot say it: their writers put it in a comment.
	Start   string
	Actions []Action

	// The result. Points == 0 means the game has no (known) result: Winner
	// and Result are then meaningless.
	Winner  int
	Points  int
	Result  backgammon.Result    // single, gammon or backgammon (for a resignation: the level resigned)
	End     backgammon.GameState // GameOver, GameResigned or GameDropped; GameOver also for a forfeit
	Comment string
}

// Finished reports whether the game has a result.
func (g *Game) Finished() bool { return g.Points > 0 }

// Match is a whole match, or a money session when MatchLength is 0.
type Match struct {
	Players [2]string
	// Rules are the variant, the match length (0 for a money session; -1
	// in a record still being read) and the options in force.
	backgammon.Rules
	Event   string
	Round   string
	Place   string
	Date    string // as written by the source, preferably YYYY-MM-DD
	Comment string
	Games   []Game
}

// New returns an empty match record for two players under rules r.
func New(players [2]string, r backgammon.Rules) *Match {
	return &Match{Players: players, Rules: r}
}

// DefaultRules are the rules a format assumes when a file does not say:
// the standard variant with the cube, the Crawford rule in matches, and
// neither Jacoby nor beavers.
func DefaultRules(matchLength int) backgammon.Rules {
	return backgammon.Rules{Variant: backgammon.Standard, MatchLength: matchLength, Crawford: matchLength > 0, Cube: true}
}

// FinalScore is the score after the last finished game.
func (m *Match) FinalScore() [2]int {
	var s [2]int
	for i := range m.Games {
		g := &m.Games[i]
		s = g.ScoreBefore
		if g.Finished() {
			s[g.Winner] += g.Points
		}
	}
	return s
}
