package backgammon

import (
	"fmt"
	"sync"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
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

// RaceDatabases are the bearoff databases a referee settles races with:
// One, the one-sided database (cubeless races), and Two, the two-sided
// one (races with the cube). Either may be nil: its races are then played
// out.
type RaceDatabases struct {
	One *bgbot.Bearoff
	Two *bgbot.Bearoff2
}

// Text describes the settlement for the game's detail and record: who was
// on roll, the expected points and where they come from.
func (s Settlement) Text(players [2]string, cube int) string {
	how := "cubeless equity from the one-sided bearoff database"
	if s.Cubeful {
		how = "cubeful equity from the two-sided bearoff database"
	}
	if cube > 1 {
		how += fmt.Sprintf(", cube %d", cube)
	}
	return fmt.Sprintf("race settled, %s on roll: %s %+.4f points, %s %+.4f (%s)",
		players[s.Mover], players[s.Mover], s.Points, players[1-s.Mover], -s.Points, how)
}

// settle ends the game at a race the referee's databases can value, at
// the turn of the player on roll before the roll; it reports whether it
// did. The record's game stays unfinished (neither .mat nor SGF has a
// result short of a win), with the settlement in its comment.
func (g *game) settle() bool {
	if g.ref.Races == nil {
		return false
	}
	st := g.st()
	s, ok := SettleRace(st, g.ref.Races.One, g.ref.Races.Two)
	if !ok {
		return false
	}
	o := &g.out
	o.Settled = &s
	o.Result = ResultSettled
	o.Points[s.Mover], o.Points[1-s.Mover] = s.Points, -s.Points
	switch {
	case s.Points > 0:
		o.Winner = s.Mover
	case s.Points < 0:
		o.Winner = 1 - s.Mover
	}
	players := [2]string{g.seats[0].Code, g.seats[1].Code}
	o.Detail = s.Text(players, st.CubeValue)
	o.Moves += st.Plies
	rec := g.rec.Match()
	rec.Games[len(rec.Games)-1].Comment = "adjudicated: " + o.Detail
	g.logf("%s", o.Detail)
	return true
}

// raceParts builds the bearoff databases once for all the referees of a
// run (about a second of CPU between them) and shares them: they are read
// only.
type raceParts struct {
	oneOnce, twoOnce sync.Once
	one              *bgbot.Bearoff
	two              *bgbot.Bearoff2
	oneErr, twoErr   error
}

// databases returns the database that settles races: with the cube the
// two-sided one (bgbot.MaxBearoff2Checkers checkers a side), cubeless the
// one-sided one of all 15 checkers (bgbot's own), read from bgbot's cache when an engine
// left it there.
func (p *raceParts) databases(cube bool) (*RaceDatabases, error) {
	if cube {
		p.twoOnce.Do(func() { p.two, p.twoErr = bgbot.NewBearoff2(bgbot.MaxBearoff2Checkers) })
		return &RaceDatabases{Two: p.two}, p.twoErr
	}
	p.oneOnce.Do(func() {
		p.one, p.oneErr = bgbot.CachedBearoff(bgbot.DefaultCacheDir(), gtpengine.EngineBearoffCheckers, nil)
	})
	return &RaceDatabases{One: p.one}, p.oneErr
}
