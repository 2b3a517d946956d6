package backgammon

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/formats/record"
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

// settledMark is in the match comment of a record whose last game was
// settled (Outcome.generic writes it).
const settledMark = " adjudicated: race settled"

// settledResult corrects a judge's figures for a game that settle_races
// ended: its record stops unfinished, which a judge scores as no result,
// while the game scored the settlement. The race at the record's end is
// valued again (the same databases give the same figure) and each side's
// result and luck-adjusted result move by the difference. Other records
// are left alone.
func settledResult(st *[2]analysis.Stats, m *record.Match, races *raceParts) error {
	n := len(m.Games)
	if n == 0 || !m.Money() || m.Games[n-1].Finished() || !strings.Contains(m.Comment, fmt.Sprintf("game %d%s", n, settledMark)) {
		return nil
	}
	end, err := finalState(m)
	if err != nil {
		return fmt.Errorf("settled race: %w", err)
	}
	dbs, err := races.databases(m.Cube)
	if err != nil {
		return fmt.Errorf("settled race: %w", err)
	}
	s, ok := SettleRace(end, dbs.One, dbs.Two)
	if !ok {
		return errors.New("settled race: the record's last position is not one the bearoff database values")
	}
	points := s.Points // player 0's
	if s.Mover == 1 {
		points = -points
	}
	d := points - st[0].Result
	st[0].Result, st[0].LuckAdjusted = st[0].Result+d, st[0].LuckAdjusted+d
	st[1].Result, st[1].LuckAdjusted = st[1].Result-d, st[1].LuckAdjusted-d
	return nil
}

// finalState replays a record's actions and returns the match as they
// leave it.
func finalState(m *record.Match) (*bg.State, error) {
	b := record.NewBuilder(m.Players, m.Rules)
	for _, g := range m.Games {
		if g.Start != "" {
			if err := b.StartAt(g.Start); err != nil {
				return nil, err
			}
		}
		for _, a := range g.Actions {
			if err := b.Apply(a); err != nil {
				return nil, err
			}
		}
	}
	return b.State(), nil
}
