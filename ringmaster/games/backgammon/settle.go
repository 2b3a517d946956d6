package backgammon

import (
	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
)

// Settlement is what a no-contact race is worth by the bearoff databases:
// the expected points of the player on roll (the other player's are the
// negative), in points, the cube value included.
type Settlement struct {
	Mover  int     // the seat on roll
	Points float64 // the mover's expected points
	// Cubeful says the figure is the exact cubeful money equity (optimal
	// doubles, takes and passes from here on), not the cubeless one.
	Cubeful bool
}

// SettleRace values a money game's position before the roll when there is
// no contact and both sides are in the databases: with the cube, the
// two-sided database's cubeful equity for the cube as it lies (centred,
// the mover's, or the opponent's), which is the value of the best cube
// action now, a double that should be passed included; without it, the
// one-sided database's cubeless equity with gammons. ok is false when the
// position cannot be settled (contact, a side outside the database needed,
// match play, a cube limit, or a decision other than the mover's cube or
// roll pending).
func SettleRace(st *bg.State, one *bgbot.Bearoff, two *bgbot.Bearoff2) (Settlement, bool) {
	if !st.Money() || st.GameState != bg.GamePlaying || st.Doubled || st.Resigned != bg.NoResult ||
		st.Dice != [2]int{} || bgbot.Contact(&st.Board) {
		return Settlement{}, false
	}
	r := st.Rules.InForce()
	if !r.Cube {
		if one == nil {
			return Settlement{}, false
		}
		p, ok := one.Probs(&st.Board)
		if !ok {
			return Settlement{}, false
		}
		return Settlement{Mover: st.Move, Points: float64(p.Equity()) * float64(st.CubeValue)}, true
	}
	if two == nil || r.CubeLimit > 0 {
		return Settlement{}, false
	}
	own := bgbot.CubeCentred
	switch st.CubeOwner {
	case st.Move:
		own = bgbot.CubeOwned
	case 1 - st.Move:
		own = bgbot.CubeUnavailable
	}
	e, ok := two.Cubeful(&st.Board, own)
	if !ok {
		return Settlement{}, false
	}
	return Settlement{Mover: st.Move, Points: e * float64(st.CubeValue), Cubeful: true}, true
}
