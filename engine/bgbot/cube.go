package bgbot

import (
	"fmt"
	"slices"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// CubeEfficiency is the x of Janowski's model: how much of the live-cube
// value a real game realises. 0.68 is the usual figure for middle games
// (and gnubg's for contact and crashed positions).
const CubeEfficiency = 0.68

// The cube efficiencies of the other position classes, as gnubg sets them
// (its "show cube efficiency"): a race realises less of the live cube the
// shorter it is, x = 0.55 + 0.00125 * the pip count of the player on roll,
// kept within [0.6, 0.7]; a bear-off with every checker home has x = 0.6.
const (
	RaceCubeEfficiencyBase     = 0.55
	RaceCubeEfficiencyPerPip   = 0.00125
	RaceCubeEfficiencyMin      = 0.6
	RaceCubeEfficiencyMax      = 0.7
	BearoffCubeEfficiency      = 0.6
	bearoffCubeEfficiencyPoint = 6 // every checker within the home board
)

// CubeEfficiencyOf is the Janowski x for the position b, the player on roll
// being Board[1]: CubeEfficiency with contact, the race formula without,
// BearoffCubeEfficiency once both sides have every checker home.
func CubeEfficiencyOf(b *backgammon.Board) float64 {
	if Contact(b) {
		return CubeEfficiency
	}
	if rearmost(&b[backgammon.OnRoll]) <= bearoffCubeEfficiencyPoint && rearmost(&b[backgammon.Opponent]) <= bearoffCubeEfficiencyPoint {
		return BearoffCubeEfficiency
	}
	x := RaceCubeEfficiencyBase + RaceCubeEfficiencyPerPip*float64(b.Pips(backgammon.OnRoll))
	return min(max(x, RaceCubeEfficiencyMin), RaceCubeEfficiencyMax)
}

// MoneyContactCubeEfficiency is the x of contact (and crashed) positions
// in money play. With gnubg's 0.68 bgbot's money cube model, fed gnubg's
// own 2-ply probabilities, priced no double below gnubg's 2-ply cubeful
// equity (by 0.036 with the cube centred), so it doubled early: the
// double margin made up for it. 0.76 without the margin gave up the least
// on the cube decisions of 1,000 money games and again on 1,000 others
// (docs/bgbot.md, The money cube efficiency). Config.MoneyCubeEfficiency
// overrides it; matches keep the class values of CubeEfficiencyOf.
const MoneyContactCubeEfficiency = 0.76

// cubeEfficiency is the Janowski x the bot uses for board b in the game
// of s: MoneyContactCubeEfficiency (or Config.MoneyCubeEfficiency) with
// contact in money play, CubeEfficiencyOf otherwise.
func (bt *Bot) cubeEfficiency(s *backgammon.State, b *backgammon.Board) float64 {
	if !s.Money() || !Contact(b) {
		return CubeEfficiencyOf(b)
	}
	if bt.cfg.MoneyCubeEfficiency != 0 {
		return bt.cfg.MoneyCubeEfficiency
	}
	return MoneyContactCubeEfficiency
}

// BeaverMargin is how far above zero (in units of the cube offered) the
// taker's equity must be before the bot beavers.
const BeaverMargin = 0.1

// Cube ownership from the view of the player whose equity is computed.
const (
	CubeCentred = iota
	CubeOwned
	CubeUnavailable // the opponent owns it
)

// Janowski returns the money cubeful equity, in units of the current cube,
// of a player with cubeless probabilities p and cube ownership own, with
// cube efficiency x: x times the live-cube equity plus (1-x) times the
// dead-cube equity (Janowski, "Take-Points in Money Games", 1993).
//
// With W = 1 + (wg+wbg)/win the average win and L = 1 + (lg+lbg)/loss the
// average loss, the dead equity is p(W+L) - L; live-cube take and cash
// points are TP = (L-1/2)/(W+L+1/2) and CP = (L+1)/(W+L+1/2), and the live
// equity is linear in p between the points where play stops: (0, -L) to
// (CP, 1) when owning the cube, (TP, -1) to (CP, 1) when it is centred,
// (TP, -1) to (1, W) when the opponent owns it. Beyond the points where
// play would stop, a side too good to double (or to be doubled out) plays
// on for its gammons: the line runs on from (CP, 1) to (1, W), and from
// (0, -L) to (TP, -1).
func Janowski(p Probs, own int, x float64) float64 {
	return x*janowskiLive(p, own, false) + (1-x)*janowskiDead(p)
}

// janowskiWL returns the win probability, the average win W and the
// average loss L of p, in games.
func janowskiWL(p Probs) (w, W, L float64) {
	w = float64(p[Win])
	W, L = 1.0, 1.0
	if w > 1e-6 {
		W += float64(p[WinGammon]+p[WinBackgammon]) / w
	}
	if w < 1-1e-6 {
		L += float64(p[LoseGammon]+p[LoseBackgammon]) / (1 - w)
	}
	return w, W, L
}

// janowskiDead is the dead-cube equity of p.
func janowskiDead(p Probs) float64 {
	w, W, L := janowskiWL(p)
	return w*(W+L) - L
}

// janowskiLive is the live-cube equity of p with cube ownership own. With
// jacoby (a centred cube under the Jacoby rule) the take and cash points
// are the same, since gammons count once the cube is turned, but a side
// too good to double cannot play on for a gammon: the line is flat beyond
// them.
func janowskiLive(p Probs, own int, jacoby bool) float64 {
	w, W, L := janowskiWL(p)
	tp := (L - 0.5) / (W + L + 0.5)
	cp := (L + 1) / (W + L + 0.5)
	var pts []point
	switch own {
	case CubeOwned:
		pts = []point{{0, -L}, {cp, 1}, {1, W}}
	case CubeUnavailable:
		pts = []point{{0, -L}, {tp, -1}, {1, W}}
	default:
		pts = []point{{0, -L}, {tp, -1}, {cp, 1}, {1, W}}
		if jacoby {
			pts = []point{{0, -1}, {tp, -1}, {cp, 1}, {1, 1}}
		}
	}
	return polyline(w, pts)
}

// singles drops the gammons from p, for the Jacoby rule.
func singles(p Probs) Probs { return Probs{Win: p[Win]} }

// CubeEquities are the three equities of a doubling decision from the
// doubler's view, in units of the current cube: no double, double/take and
// double/pass (always 1 in money play).
type CubeEquities struct{ NoDouble, DoubleTake, DoublePass float64 }

// ShouldDouble reports whether doubling is right: both double/take and
// double/pass must beat not doubling.
func (c CubeEquities) ShouldDouble() bool {
	return min(c.DoubleTake, c.DoublePass) > c.NoDouble
}

// MoneyCube computes the cube equities of a money game for the player on
// roll with probabilities p and cube efficiency x (CubeEfficiencyOf the
// position). centred says the cube is centred (otherwise the player owns
// it); jacoby applies the Jacoby rule to a centred cube.
func MoneyCube(p Probs, x float64, centred, jacoby bool) CubeEquities {
	var nd float64
	switch {
	case centred && jacoby:
		// Gammons count only once the cube is turned: the take and cash
		// points keep them, the dead part and playing on do not.
		nd = x*janowskiLive(p, CubeCentred, true) + (1-x)*janowskiDead(singles(p))
	case centred:
		nd = Janowski(p, CubeCentred, x)
	default:
		nd = Janowski(p, CubeOwned, x)
	}
	return CubeEquities{NoDouble: nd, DoubleTake: 2 * Janowski(p, CubeUnavailable, x), DoublePass: 1}
}

// matchInfo is the match context of one player.
type matchInfo struct {
	me, opp      int // points needed
	cube         int
	postCrawford bool
}

func (bt *Bot) matchInfo(s *backgammon.State, player int) (matchInfo, error) {
	if bt.met == nil {
		m, err := DefaultMET()
		if err != nil {
			return matchInfo{}, err
		}
		bt.met = m
	}
	return matchInfoOf(s, player), nil
}

// mwc is the dead-cube match winning chance of probabilities p with the
// game played for cube points.
func (m *MET) mwc(p Probs, mi matchInfo, cube int) float64 {
	f := func(x float32) float64 { return float64(x) }
	ws, wg, wb := f(p[Win]-p[WinGammon]), f(p[WinGammon]-p[WinBackgammon]), f(p[WinBackgammon])
	ls, lg, lb := f(1-p[Win]-p[LoseGammon]), f(p[LoseGammon]-p[LoseBackgammon]), f(p[LoseBackgammon])
	pc := mi.postCrawford
	return ws*m.Win(mi.me-cube, mi.opp, pc) + wg*m.Win(mi.me-2*cube, mi.opp, pc) + wb*m.Win(mi.me-3*cube, mi.opp, pc) +
		ls*m.Win(mi.me, mi.opp-cube, pc) + lg*m.Win(mi.me, mi.opp-2*cube, pc) + lb*m.Win(mi.me, mi.opp-3*cube, pc)
}

// matchCube computes the cube equities of a match game for player, on roll
// in s, as match winning chances. Each equity mixes, as Janowski's money
// formula does, a live-cube part (liveMatch) with weight x and the
// dead-cube match winning chance. After the Crawford game the leader's
// cube is dead (one game wins it the match), the trailer's alive. When the
// opponent owns the cube, only NoDouble means anything.
func (bt *Bot) matchCube(s *backgammon.State, player int, p Probs, x float64) (CubeEquities, error) {
	mi, err := bt.matchInfo(s, player)
	if err != nil {
		return CubeEquities{}, err
	}
	c := s.CubeValue
	ce := CubeEquities{
		NoDouble:   bt.met.mwc(p, mi, c),
		DoubleTake: bt.met.mwc(p, mi, 2*c),
		DoublePass: bt.met.Win(mi.me-c, mi.opp, mi.postCrawford),
	}
	l := liveMatch{m: bt.met, pc: mi.postCrawford}
	w := float64(p[Win])
	var nd float64
	switch s.CubeOwner {
	case player:
		nd = l.owned(mi.me, mi.opp, c, p, w)
	case -1:
		nd = l.centred(mi.me, mi.opp, c, p, w)
	default:
		nd = l.opponentOwns(mi.me, mi.opp, c, p, w)
	}
	xn, xt := x, x
	if !bt.cfg.JanowskiOneWay {
		// The opponent holds a cube that player's single win at its value
		// would make pointless: only the opponent can double again.
		if s.CubeOwner == 1-player && c >= mi.me {
			xn = OneWayCubeEfficiency
		}
		if 2*c >= mi.me { // likewise once the opponent has taken a double
			xt = OneWayCubeEfficiency
		}
	}
	ce.NoDouble = xn*nd + (1-xn)*ce.NoDouble
	ce.DoubleTake = xt*l.opponentOwns(mi.me, mi.opp, 2*c, p, w) + (1-xt)*ce.DoubleTake
	return ce, nil
}

// OneWayCubeEfficiency is the x of a cube that only its holder can still
// use, because the other side already wins the match with any win at the
// cube's value: a leader 2 away who has doubled to 2, say, against the
// trailer who took. The leader's equity after the take (double/take) and
// while the trailer holds the cube treats the trailer's cube as fully
// live. With Janowski's 0.68 there, bgbot's model (fed gnubg's own
// probabilities) rated double/take 0.05-0.25 EMG above gnubg's 2-ply
// verdict wherever it arose, doubled such positions too early and passed
// doubles it should take; with 1 those biases vanish (docs/bgbot.md, The
// one-way cube). The holder's own no-double equity keeps x: a fully live
// cube there is never worth cashing before the cash point, and the
// verdict wants such redoubles given earlier. Config.JanowskiOneWay keeps
// x everywhere.
const OneWayCubeEfficiency = 1.0

// liveMatch is Janowski's live cube carried over to match play, with the
// take and cash points worked out from the match equity table level by
// level rather than from the money formula: a player's match winning
// chance, as a function of the win probability w (the shares of gammons
// and backgammons among wins and losses held fixed), is piecewise linear
// between the points where play at a cube level stops. A player who owns
// the cube at v runs from losing everything at w = 0, through cashing v
// at the cash point (where the opponent should drop a redouble to 2v: one
// minus the opponent's own take point at 2v), to winning everything,
// gammons included, at w = 1 (the "too good" stretch, where the owner
// plays on). The take point at a level is where the taker's line, owning
// the cube one level up, meets the chance of dropping; so each level's
// points rest on the next level's, down to a cube that can no longer win
// its owner anything more (doubling it would only double a result that
// already wins the match), where the line is the dead-cube one. Taking
// gammons and the recube into account this way is the idea of gnubg's
// match-play cube evaluation; the code is ours.
type liveMatch struct {
	m  *MET
	pc bool // the match equity table's post-Crawford figures
}

// results are the match winning chances, for the player needing me
// against opp points with the cube at v, after a win and after a loss
// played out, gammons weighted by p's shares.
func (l liveMatch) results(me, opp, v int, p Probs) (won, lost float64) {
	f := func(x float32) float64 { return float64(x) }
	w := f(p[Win])
	won, lost = l.m.Win(me-v, opp, l.pc), l.m.Win(me, opp-v, l.pc)
	if w > 1e-6 {
		won = (f(p[Win]-p[WinGammon])*won + f(p[WinGammon]-p[WinBackgammon])*l.m.Win(me-2*v, opp, l.pc) +
			f(p[WinBackgammon])*l.m.Win(me-3*v, opp, l.pc)) / w
	}
	if w < 1-1e-6 {
		lost = (f(1-p[Win]-p[LoseGammon])*lost + f(p[LoseGammon]-p[LoseBackgammon])*l.m.Win(me, opp-2*v, l.pc) +
			f(p[LoseBackgammon])*l.m.Win(me, opp-3*v, l.pc)) / (1 - w)
	}
	return won, lost
}

// owned is the live chance at w of the player needing me, against opp,
// who owns the cube at v.
func (l liveMatch) owned(me, opp, v int, p Probs, w float64) float64 {
	return polyline(w, l.ownedPoints(me, opp, v, p))
}

func (l liveMatch) ownedPoints(me, opp, v int, p Probs) []point {
	won, lost := l.results(me, opp, v, p)
	if v >= me { // winning a game at v already wins the match: a redouble gains nothing
		return []point{{0, lost}, {1, won}}
	}
	cp := 1 - l.takePoint(opp, me, 2*v, p.Invert())
	return []point{{0, lost}, {cp, l.m.Win(me-v, opp, l.pc)}, {1, won}}
}

// opponentOwns is the live chance at w of the player needing me when the
// opponent, needing opp, owns the cube at v.
func (l liveMatch) opponentOwns(me, opp, v int, p Probs, w float64) float64 {
	won, lost := l.results(me, opp, v, p)
	if v >= opp { // the opponent's redouble would gain it nothing
		return polyline(w, []point{{0, lost}, {1, won}})
	}
	tp := l.takePoint(me, opp, 2*v, p)
	return polyline(w, []point{{0, lost}, {tp, l.m.Win(me, opp-v, l.pc)}, {1, won}})
}

// centred is the live chance at w of the player needing me, against opp,
// with the cube centred at v: either side may double.
func (l liveMatch) centred(me, opp, v int, p Probs, w float64) float64 {
	mine, theirs := v < me, v < opp
	switch {
	case !mine && !theirs:
		won, lost := l.results(me, opp, v, p)
		return polyline(w, []point{{0, lost}, {1, won}})
	case !theirs:
		return l.owned(me, opp, v, p, w)
	case !mine:
		return l.opponentOwns(me, opp, v, p, w)
	}
	won, lost := l.results(me, opp, v, p)
	tp := l.takePoint(me, opp, 2*v, p)
	cp := 1 - l.takePoint(opp, me, 2*v, p.Invert())
	if tp > cp { // each side would drop the other's double: play stops at once either way
		tp = (tp + cp) / 2
		cp = tp
	}
	return polyline(w, []point{{0, lost}, {tp, l.m.Win(me, opp-v, l.pc)}, {cp, l.m.Win(me-v, opp, l.pc)}, {1, won}})
}

// takePoint is the least win probability with which the player needing
// me, against opp, takes a double to v (and then owns the cube at v): where
// its owned line reaches the chance of dropping, losing v/2.
func (l liveMatch) takePoint(me, opp, v int, p Probs) float64 {
	return solve(l.ownedPoints(me, opp, v, p), l.m.Win(me, opp-v/2, l.pc))
}

// point is a corner (win probability, match winning chance) of a live
// line.
type point struct{ w, mwc float64 }

// polyline is the piecewise-linear function through pts (w ascending,
// from 0 to 1) at w.
func polyline(w float64, pts []point) float64 {
	for i := 1; i < len(pts); i++ {
		if w <= pts[i].w || i == len(pts)-1 {
			a, b := pts[i-1], pts[i]
			if b.w-a.w < 1e-12 {
				return b.mwc
			}
			return a.mwc + (b.mwc-a.mwc)*(w-a.w)/(b.w-a.w)
		}
	}
	return pts[len(pts)-1].mwc
}

// solve is the least w at which the rising piecewise-linear function
// through pts reaches y (0 if it starts above y, 1 if it never reaches it).
func solve(pts []point, y float64) float64 {
	if y <= pts[0].mwc {
		return 0
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if y <= b.mwc {
			if b.mwc-a.mwc < 1e-12 {
				return b.w
			}
			return a.w + (b.w-a.w)*(y-a.mwc)/(b.mwc-a.mwc)
		}
	}
	return 1
}

// Cube returns the cube equities for the player on roll of s (money:
// equity in cube units; match: match winning chances), judged at the bot's
// depth or at Config.CubePlies if that is deeper (at 0 ply with
// Config.CubeWeights' networks too).
func (bt *Bot) Cube(s *backgammon.State) (CubeEquities, error) {
	if s.GameState != backgammon.GamePlaying {
		return CubeEquities{}, fmt.Errorf("cube: no game in progress: %w", backgammon.ErrNotNow)
	}
	bt.SetVariant(s.Variant)
	return bt.CubeWith(s, bt.cubeProbs(s.Board, max(bt.cfg.Plies, bt.cfg.CubePlies)))
}

// CubeWith is Cube with the cubeless probabilities p of the position for
// the player on roll given, not judged: the cube model alone, so that its
// errors can be told from the evaluation's.
func (bt *Bot) CubeWith(s *backgammon.State, p Probs) (CubeEquities, error) {
	if s.GameState != backgammon.GamePlaying {
		return CubeEquities{}, fmt.Errorf("cube: no game in progress: %w", backgammon.ErrNotNow)
	}
	x := bt.cubeEfficiency(s, &s.Board)
	var ce CubeEquities
	if s.Money() {
		ce = bt.moneyCube(s, &s.Board, p, x)
	} else {
		var err error
		if ce, err = bt.matchCube(s, s.Move, p, x); err != nil {
			return CubeEquities{}, fmt.Errorf("cube: %w", err)
		}
	}
	return ce, nil
}

// moneyCube computes the money cube equities of the player on roll of b,
// who owns the cube of s or faces it centred, with probabilities p and
// cube efficiency x: exact where the two-sided bearoff database holds b,
// Janowski's model elsewhere.
func (bt *Bot) moneyCube(s *backgammon.State, b *backgammon.Board, p Probs, x float64) CubeEquities {
	centred := s.CubeOwner == -1
	if bt.bearoff2 != nil && bt.checkers == 15 {
		if ce, ok := bt.bearoff2.MoneyCube(b, centred); ok {
			return ce
		}
	}
	ce := MoneyCube(p, x, centred, s.Jacoby)
	if 2*s.CubeValue >= s.CubeCap() {
		// A double to the session's cube limit leaves the taker a dead
		// cube: no recube vig to price.
		ce.DoubleTake = 2 * janowskiDead(p)
	}
	return ce
}

// noiseScale converts noise in equity into the units of s's cube
// equities: 1 in money play, half the swing in match winning chances
// between winning and losing a single game at the current cube in matches.
func (bt *Bot) noiseScale(s *backgammon.State) float64 {
	if bt.cfg.Noise == 0 {
		return 1
	}
	return bt.equityScale(s)
}

// equityScale is noiseScale for any amount of equity.
func (bt *Bot) equityScale(s *backgammon.State) float64 {
	if s.Money() {
		return 1
	}
	mi, err := bt.matchInfo(s, s.Move)
	if err != nil {
		return 1
	}
	return (bt.met.mwc(Probs{Win: 1}, mi, mi.cube) - bt.met.mwc(Probs{}, mi, mi.cube)) / 2
}

// cubeAware reports whether the bot's probabilities are calibrated enough
// to base cube decisions on: the net's (or a caller's evaluator's) are; the
// random level has none and the heuristic's are only a ranking of moves,
// which made heuristic bots double and redouble each other to absurd cubes.
func (bt *Bot) cubeAware() bool {
	return bt.cfg.Evaluator != nil || bt.cfg.Level == LevelNet
}

// Double decides whether the player on roll of s doubles. It answers false
// whenever the rules do not allow a double, and always for the random and
// heuristic levels (see cubeAware).
func (bt *Bot) Double(s *backgammon.State) (bool, error) {
	if !s.CanDouble() || !bt.cubeAware() {
		return false, nil
	}
	ce, err := bt.Cube(s)
	if err != nil {
		return false, fmt.Errorf("double: %w", err)
	}
	ce.NoDouble += float64(bt.noise()) * bt.noiseScale(s)
	margin := bt.cfg.DoubleMargin
	if s.Money() {
		margin = bt.cfg.MoneyDoubleMargin
	}
	if margin != 0 {
		ce.NoDouble += margin * bt.equityScale(s)
	}
	return ce.ShouldDouble(), nil
}

// Take answers the double pending in s for the player facing it. The
// random and heuristic levels always take (see cubeAware).
func (bt *Bot) Take(s *backgammon.State) (backgammon.Answer, error) {
	if s.Decision() != backgammon.DecideTake {
		return 0, fmt.Errorf("take: no double pending: %w", backgammon.ErrNotNow)
	}
	if !bt.cubeAware() {
		return backgammon.Take, nil
	}
	ce, err := bt.Cube(s)
	if err != nil {
		return 0, fmt.Errorf("take: %w", err)
	}
	// ce is the doubler's view; the taker compares the opposite.
	ce.DoubleTake += float64(bt.noise()) * bt.noiseScale(s)
	if bt.cfg.PassMargin != 0 {
		ce.DoubleTake += bt.cfg.PassMargin * bt.equityScale(s)
	}
	if ce.DoubleTake > ce.DoublePass {
		return backgammon.Drop, nil
	}
	if s.CanBeaver() && -ce.DoubleTake > BeaverMargin {
		return backgammon.Beaver, nil
	}
	return backgammon.Take, nil
}

// Move picks the move for the player on roll of s with its rolled dice:
// by cubeless equity in money play and dead-cube match winning chances in
// matches (so gammons are valued by the score), or, with
// Config.CubefulMoves and a live cube, as gnubg does, by the cubeful
// equity the opponent faces on roll after the move (money: in units of the
// cube; matches: match winning chances), the opponent doubling where that
// is right; so a gammon that the Jacoby rule would not count is not played
// for. Config.CubelessClasses keep the cubeless choice in positions of
// their classes. ok is false when no checker can move.
func (bt *Bot) Move(s *backgammon.State) (m backgammon.Move, ok bool, err error) {
	if s.Decision() != backgammon.DecideMove {
		return m, false, fmt.Errorf("move: %w", backgammon.ErrNotNow)
	}
	bt.SetVariant(s.Variant)
	obj, scale, err := bt.moveObjective(s)
	if err != nil {
		return m, false, fmt.Errorf("move: %w", err)
	}
	m, _, ok = bt.choose(s.Board, s.Dice[0], s.Dice[1], obj, scale)
	return m, ok, nil
}

// moveObjective is Move's root objective for the player on roll of s, and
// the size of one unit of equity in its units (for the noise).
func (bt *Bot) moveObjective(s *backgammon.State) (func(*backgammon.Board, Probs) float32, float32, error) {
	cubeful := bt.cfg.CubefulMoves && s.Cube && !s.CrawfordGame && bt.cubeAware() && !slices.Contains(bt.cfg.CubelessClasses, Class(&s.Board))
	opp := 1 - s.Move
	if s.Money() {
		if !cubeful {
			return cubelessEquity, 1, nil
		}
		return func(b *backgammon.Board, p Probs) float32 {
			if _, over := Outcome(b, bt.checkers); over {
				if s.CubeOwner == -1 && s.Jacoby { // the gammon does not count
					p = singles(p)
				}
				return p.Equity()
			}
			return float32(-bt.moneyCubeful(s, opp, b.Swap(), p.Invert()))
		}, 1, nil
	}
	mi, err := bt.matchInfo(s, s.Move)
	if err != nil {
		return nil, 0, err
	}
	met := bt.met
	// One unit of equity is half the swing between winning and losing a
	// single game at this cube, in match winning chances.
	win, lose := met.singleGame(mi)
	scale := float32(win-lose) / 2
	if !cubeful {
		return func(_ *backgammon.Board, p Probs) float32 { return float32(met.mwc(p, mi, mi.cube)) }, scale, nil
	}
	oi, err := bt.matchInfo(s, opp)
	if err != nil {
		return nil, 0, err
	}
	return func(b *backgammon.Board, p Probs) float32 {
		if _, over := Outcome(b, bt.checkers); over {
			return float32(met.mwc(p, mi, mi.cube))
		}
		return float32(1 - bt.matchCubeful(s, opp, oi, b.Swap(), p.Invert()))
	}, scale, nil
}

// canDouble reports whether player could double in s when next on roll.
func canDouble(s *backgammon.State, player int) bool {
	return s.Cube && !s.CrawfordGame && (s.CubeOwner == -1 || s.CubeOwner == player) && s.CubeValue < s.CubeCap()
}

// moneyCubeful is the cubeful equity, in units of the cube, of player on
// roll in the money game s with board b (player's view, the game not over)
// and probabilities p: no double, or the better for it of double/take and
// double/pass where doubling is right.
func (bt *Bot) moneyCubeful(s *backgammon.State, player int, b backgammon.Board, p Probs) float64 {
	x := bt.cubeEfficiency(s, &b)
	if s.CubeOwner == 1-player {
		return Janowski(p, CubeUnavailable, x)
	}
	ce := bt.moneyCube(s, &b, p, x)
	if canDouble(s, player) && ce.ShouldDouble() {
		return min(ce.DoubleTake, ce.DoublePass)
	}
	return ce.NoDouble
}

// matchCubeful is moneyCubeful for a match: the match winning chance of
// player (match context mi) on roll in s with board b and probabilities p.
func (bt *Bot) matchCubeful(s *backgammon.State, player int, mi matchInfo, b backgammon.Board, p Probs) float64 {
	ce, err := bt.matchCube(s, player, p, CubeEfficiencyOf(&b))
	if err != nil { // matchInfo succeeded for mi already, so the table is loaded
		return bt.met.mwc(p, mi, mi.cube)
	}
	if canDouble(s, player) && ce.ShouldDouble() {
		return min(ce.DoubleTake, ce.DoublePass)
	}
	return ce.NoDouble
}
