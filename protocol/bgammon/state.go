package bgammon

import (
	"fmt"

	bg "github.com/gamemill/gamemill/engine/backgammon"
)

// The spaces of a board, in the receiver's orientation.
const (
	SpaceHome         = 0  // the receiver's borne-off checkers
	SpaceHomeOpponent = 25 // the opponent's borne-off checkers
	SpaceBar          = 26 // the receiver's bar
	SpaceBarOpponent  = 27 // the opponent's bar
	BoardSpaces       = 28
)

// Checkers is the number of checkers a side has in standard backgammon,
// the only variant (0) this package plays.
const Checkers = 15

// Crawford states of a match.
const (
	CrawfordPending = 0 // no player has reached match point yet
	CrawfordActive  = 1 // this is the Crawford game: no doubling
	CrawfordExpired = 2 // the Crawford game is over
)

// Player is one side of a match as a board event names it.
type Player struct {
	Number int
	Name   string
	Rating int
	Points int // match score
}

// GameState is a board event: the match as one receiver sees it. Field
// names are the server's.
type GameState struct {
	Player1, Player2 Player
	Variant          int
	Board            []int
	Turn             int // 0 during the opening roll, else the player on roll
	Roll1, Roll2     int
	Roll3            int
	Moves            [][]int // the steps played so far this turn
	Winner           int
	Points           int // match length
	Crawford         int
	DoubleValue      int
	DoublePlayer     int // the cube's owner; 0 centred
	DoubleOffered    bool
	PlayerNumber     int // the receiver: 1 (the server flips the second player's view)
	Available        [][]int
	Forced           bool
	Spectating       bool
}

// ValidateView checks what the rest of the package relies on: 28 spaces,
// each side's checkers on its own side of zero and on its own bar and
// home, 15 of each in standard backgammon, a known turn, dice 0-6.
func (g *GameState) ValidateView() error {
	if len(g.Board) != BoardSpaces {
		return fmt.Errorf("Board has %d spaces, want %d", len(g.Board), BoardSpaces)
	}
	if g.PlayerNumber < 0 || g.PlayerNumber > 2 {
		return fmt.Errorf("PlayerNumber %d, want 1 or 2", g.PlayerNumber)
	}
	for _, f := range []struct {
		name string
		v    int
		max  int
	}{{"Turn", g.Turn, 2}, {"Winner", g.Winner, 2}, {"DoublePlayer", g.DoublePlayer, 2},
		{"Roll1", g.Roll1, 6}, {"Roll2", g.Roll2, 6}, {"Roll3", g.Roll3, 6}, {"Crawford", g.Crawford, 2}} {
		if f.v < 0 || f.v > f.max {
			return fmt.Errorf("%s %d out of range 0-%d", f.name, f.v, f.max)
		}
	}
	if g.Points < 0 || g.Player1.Points < 0 || g.Player2.Points < 0 || g.DoubleValue < 0 {
		return fmt.Errorf("negative score, match length or cube")
	}
	// Player 1 is positive in every view, with its home at 0 and its
	// bar at 26; a view numbered 2 only tells who the receiver is.
	pos, neg := 0, 0
	for i, n := range g.Board {
		if n < -Checkers || n > Checkers {
			return fmt.Errorf("Board[%d] = %d: more than %d checkers", i, n, Checkers)
		}
		if n > 0 {
			pos += n
		} else {
			neg -= n
		}
	}
	if g.Board[SpaceHome] < 0 || g.Board[SpaceBar] < 0 || g.Board[SpaceHomeOpponent] > 0 || g.Board[SpaceBarOpponent] > 0 {
		return fmt.Errorf("a home or bar space holds the wrong side's checkers")
	}
	if g.Variant == 0 && (pos != Checkers || neg != Checkers) {
		return fmt.Errorf("Board holds %d and %d checkers, want %d each", pos, neg, Checkers)
	}
	return nil
}

// Canonical returns the state as the receiver sees itself: player 1,
// positive, moving down to point 1. A view numbered 2 (the raw board, as
// a spectator of the second seat would get it) is flipped.
func (g GameState) Canonical() GameState {
	if g.PlayerNumber == 2 {
		return g.Flipped()
	}
	g.PlayerNumber = 1
	return g
}

// Flipped returns the other orientation of the same state: spaces s and
// 25-s swap and change sign, the homes and bars swap, and so do the
// players, turn, winner, cube owner, the opening dice and PlayerNumber
// (1 and 2). Flipping twice gives the state back.
func (g GameState) Flipped() GameState {
	out := g
	out.PlayerNumber = otherSeat(g.PlayerNumber)
	out.Board = make([]int, BoardSpaces)
	for s := 1; s <= 24; s++ {
		out.Board[s] = -g.Board[25-s]
	}
	out.Board[SpaceHome], out.Board[SpaceHomeOpponent] = -g.Board[SpaceHomeOpponent], -g.Board[SpaceHome]
	out.Board[SpaceBar], out.Board[SpaceBarOpponent] = -g.Board[SpaceBarOpponent], -g.Board[SpaceBar]
	out.Player1, out.Player2 = g.Player2, g.Player1
	out.Player1.Number, out.Player2.Number = 1, 2
	out.Turn, out.Winner, out.DoublePlayer = otherSeat(g.Turn), otherSeat(g.Winner), otherSeat(g.DoublePlayer)
	if g.Turn == 0 {
		out.Roll1, out.Roll2 = g.Roll2, g.Roll1
	}
	out.Moves = flipMoves(g.Moves)
	out.Available = flipMoves(g.Available)
	return out
}

func otherSeat(n int) int {
	switch n {
	case 1:
		return 2
	case 2:
		return 1
	}
	return n
}

// FlipSpace maps a space between the two players' orientations.
func FlipSpace(s int) int {
	switch s {
	case SpaceHome:
		return SpaceHomeOpponent
	case SpaceHomeOpponent:
		return SpaceHome
	case SpaceBar:
		return SpaceBarOpponent
	case SpaceBarOpponent:
		return SpaceBar
	}
	if s >= 1 && s <= 24 {
		return 25 - s
	}
	return s
}

func flipMoves(ms [][]int) [][]int {
	if ms == nil {
		return nil
	}
	out := make([][]int, len(ms))
	for i, m := range ms {
		out[i] = make([]int, len(m))
		for j, s := range m {
			out[i][j] = FlipSpace(s)
		}
	}
	return out
}

// Sides returns both sides' checkers in engine/backgammon's layout
// (side[i] on its own point i+1, side[24] on the bar): the receiver's
// and the opponent's, of a canonical state.
func (g *GameState) Sides() (me, opp [25]int8) {
	for s := 1; s <= 24; s++ {
		if n := g.Board[s]; n > 0 {
			me[s-1] = int8(n)
		} else if n < 0 {
			opp[24-s] = int8(-n)
		}
	}
	me[24] = int8(g.Board[SpaceBar])
	opp[24] = int8(-g.Board[SpaceBarOpponent])
	return me, opp
}

// BoardView is the inverse of Sides: the receiver's board array (28
// spaces) for the two sides, with the borne-off checkers at 0 and 25.
func BoardView(me, opp [25]int8) []int {
	b := make([]int, BoardSpaces)
	onMe, onOpp := 0, 0
	for i := 0; i < 24; i++ {
		if me[i] > 0 {
			b[i+1] += int(me[i])
		}
		if opp[i] > 0 {
			b[24-i] -= int(opp[i])
		}
	}
	for i := 0; i < 25; i++ {
		onMe += int(me[i])
		onOpp += int(opp[i])
	}
	b[SpaceBar] = int(me[24])
	b[SpaceBarOpponent] = -int(opp[24])
	b[SpaceHome] = Checkers - onMe
	b[SpaceHomeOpponent] = -(Checkers - onOpp)
	return b
}

// Me and Opponent are the receiver's and the opponent's records in a
// canonical state.
func (g *GameState) Me() Player       { return g.Player1 }
func (g *GameState) Opponent() Player { return g.Player2 }

// MatchOver reports whether a player has reached the match length.
func (g *GameState) MatchOver() bool {
	return g.Points > 0 && (g.Player1.Points >= g.Points || g.Player2.Points >= g.Points)
}

// MayDouble reports whether the receiver, on roll and before rolling, may
// offer the cube under the server's rules (no cube in 1-point matches or
// the Crawford game, none above 64).
func (g *GameState) MayDouble() bool {
	return g.Variant == 0 && g.Winner == 0 && g.Points != 1 && g.Crawford != CrawfordActive &&
		g.DoubleValue < 64 && g.Turn == 1 && g.Roll1 == 0 && !g.DoubleOffered &&
		(g.DoublePlayer == 0 || g.DoublePlayer == 1)
}

// Rules are the rules of the match in engine/backgammon's terms: the
// server plays every match with the Crawford rule and a cube.
func (g *GameState) Rules() bg.Rules {
	return bg.Rules{Variant: bg.Standard, MatchLength: g.Points, Crawford: g.Points > 1, Cube: true}
}

// State returns the engine's view of a canonical state in play, with the
// receiver as player 0: the board seen from the player on roll, the dice,
// cube, score and Crawford status. It is false when no game is in play
// (the opening roll, a finished game).
func (g *GameState) State() (*bg.State, bool) {
	if g.Turn == 0 || g.Winner != 0 {
		return nil, false
	}
	st := bg.NewMatch(g.Rules())
	me, opp := g.Sides()
	st.GameState = bg.GamePlaying
	st.Move = g.Turn - 1
	// engine/backgammon keeps the side on roll at index bg.OnRoll.
	if st.Move == 0 {
		st.Board = bg.Board{bg.Opponent: opp, bg.OnRoll: me}
	} else {
		st.Board = bg.Board{bg.Opponent: me, bg.OnRoll: opp}
	}
	st.Turn = st.Move
	if g.Roll1 != 0 && g.Roll2 != 0 {
		st.Dice = [2]int{g.Roll1, g.Roll2}
	}
	st.CubeValue = max(g.DoubleValue, 1)
	st.CubeOwner = g.DoublePlayer - 1
	if g.DoubleOffered {
		st.Doubled, st.Turn = true, 1-st.Move
	}
	st.Score = [2]int{g.Player1.Points, g.Player2.Points}
	st.CrawfordGame = g.Crawford == CrawfordActive
	st.PostCrawford = g.Crawford == CrawfordExpired
	return st, true
}
