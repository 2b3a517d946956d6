package bgbot

import (
	"fmt"

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
// (TP, -1) to (1, W) when the opponent owns it.
func Janowski(p Probs, own int, x float64) float64 {
	w := float64(p[Win])
	W, L := 1.0, 1.0
	if w > 1e-6 {
		W += float64(p[WinGammon]+p[WinBackgammon]) / w
	}
	if w < 1-1e-6 {
		L += float64(p[LoseGammon]+p[LoseBackgammon]) / (1 - w)
	}
	dead := w*(W+L) - L
	tp := (L - 0.5) / (W + L + 0.5)
	cp := (L + 1) / (W + L + 0.5)
	var live float64
	switch own {
	case CubeOwned:
		if w >= cp {
			live = 1
		} else {
			live = -L + (1+L)*w/cp
		}
	case CubeUnavailable:
		if w <= tp {
			live = -1
		} else {
			live = -1 + (W+1)*(w-tp)/(1-tp)
		}
	default:
		switch {
		case w <= tp:
			live = -1
		case w >= cp:
			live = 1
		default:
			live = -1 + 2*(w-tp)/(cp-tp)
		}
	}
	return x*live + (1-x)*dead
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
		nd = Janowski(singles(p), CubeCentred, x)
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
	return matchInfo{
		me:           s.MatchLength - s.Score[player],
		opp:          s.MatchLength - s.Score[1-player],
		cube:         s.CubeValue,
		postCrawford: s.CrawfordGame || s.PostCrawford || !s.Rules.Crawford,
	}, nil
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

// matchCube computes the cube equities of a match game for the player on
// roll of s, as match winning chances. Each equity mixes, as Janowski's
// money formula does, a live-cube part (matchLive) with weight
// CubeEfficiency and the dead-cube match winning chance. Whether the cube
// is alive is judged for each player apart: a player's cube access is worth
// something only while winning a single game at the cube would not already
// win that player the match. So when the leader's double to 2 reaches the
// leader's own need, the taker's redouble is still alive and priced in;
// only when neither side can use the cube (and after the Crawford game,
// where the MET already has the trailer doubling at once) is it dead.
func (bt *Bot) matchCube(s *backgammon.State, p Probs, x float64) (CubeEquities, error) {
	mi, err := bt.matchInfo(s, s.Move)
	if err != nil {
		return CubeEquities{}, err
	}
	c := s.CubeValue
	ce := CubeEquities{
		NoDouble:   bt.met.mwc(p, mi, c),
		DoubleTake: bt.met.mwc(p, mi, 2*c),
		DoublePass: bt.met.Win(mi.me-c, mi.opp, mi.postCrawford),
	}
	if mi.postCrawford {
		return ce, nil
	}
	own := CubeCentred
	if s.CubeOwner == s.Move {
		own = CubeOwned
	}
	ce.NoDouble = x*bt.met.matchLive(p, mi, c, own) + (1-x)*ce.NoDouble
	ce.DoubleTake = x*bt.met.matchLive(p, mi, 2*c, CubeUnavailable) + (1-x)*ce.DoubleTake
	return ce, nil
}

// matchLive is the live-cube match winning chance of a player with
// probabilities p and the cube at value cube, owned as own: Janowski's
// piecewise-linear live equity carried over to match winning chances.
// Play at this cube stops at the cash point (the opponent should drop this
// player's double) and the take point (this player should drop the
// opponent's), both from the match equity table with Janowski's allowance
// for the recube; between them the chance is linear in the win probability,
// and beyond the point the player cannot reach (no cube access) the game
// is played out, gammons included.
func (m *MET) matchLive(p Probs, mi matchInfo, cube, own int) float64 {
	pc := mi.postCrawford
	// A player for whom a single game at this cube already wins the match
	// has no use for the cube: a centred cube is then the other side's
	// alone, and a cube only such a player could turn is dead.
	mine, theirs := cube < mi.me, cube < mi.opp
	if own == CubeOwned {
		theirs = false
	}
	if own == CubeUnavailable {
		mine = false
	}
	switch {
	case !mine && !theirs:
		return m.mwc(p, mi, cube)
	case !theirs:
		own = CubeOwned
	case !mine:
		own = CubeUnavailable
	}
	w := float64(p[Win])
	cash := m.Win(mi.me-cube, mi.opp, pc)    // winning a single game at this cube
	dropped := m.Win(mi.me, mi.opp-cube, pc) // losing one
	up, down := m.Win(mi.me-2*cube, mi.opp, pc), m.Win(mi.me, mi.opp-2*cube, pc)
	if up-down < 1e-9 {
		return m.mwc(p, mi, cube)
	}
	// The dead-cube take points of both players, lowered by the value of
	// the recube the taker gets, with Janowski's money factor
	// (W+L)/(W+L+1/2): W and L are the average win and loss in games.
	W, L := 1.0, 1.0
	if w > 1e-6 {
		W += float64(p[WinGammon]+p[WinBackgammon]) / w
	}
	if w < 1-1e-6 {
		L += float64(p[LoseGammon]+p[LoseBackgammon]) / (1 - w)
	}
	vig := (W + L) / (W + L + 0.5)
	tp := vig * min(max((dropped-down)/(up-down), 0), 1)
	cp := 1 - vig*(1-min(max((cash-down)/(up-down), 0), 1))
	// Played to the end: the average chance after a win and after a loss.
	f := func(x float32) float64 { return float64(x) }
	ws, wg, wb := f(p[Win]-p[WinGammon]), f(p[WinGammon]-p[WinBackgammon]), f(p[WinBackgammon])
	ls, lg, lb := f(1-p[Win]-p[LoseGammon]), f(p[LoseGammon]-p[LoseBackgammon]), f(p[LoseBackgammon])
	wonAll, lostAll := cash, dropped
	if w > 1e-6 {
		wonAll = (ws*cash + wg*m.Win(mi.me-2*cube, mi.opp, pc) + wb*m.Win(mi.me-3*cube, mi.opp, pc)) / w
	}
	if w < 1-1e-6 {
		lostAll = (ls*dropped + lg*m.Win(mi.me, mi.opp-2*cube, pc) + lb*m.Win(mi.me, mi.opp-3*cube, pc)) / (1 - w)
	}
	lerp := func(x0, y0, x1, y1 float64) float64 {
		if x1-x0 < 1e-9 {
			return y1
		}
		return y0 + (y1-y0)*(w-x0)/(x1-x0)
	}
	switch own {
	case CubeOwned:
		if w >= cp {
			return cash
		}
		return lerp(0, lostAll, cp, cash)
	case CubeUnavailable:
		if w <= tp {
			return dropped
		}
		return lerp(tp, dropped, 1, wonAll)
	}
	switch {
	case w <= tp:
		return dropped
	case w >= cp:
		return cash
	}
	return lerp(tp, dropped, cp, cash)
}

// Cube returns the cube equities for the player on roll of s (money:
// equity in cube units; match: match winning chances), judged at the bot's
// depth or at Config.CubePlies if that is deeper.
func (bt *Bot) Cube(s *backgammon.State) (CubeEquities, error) {
	if s.GameState != backgammon.GamePlaying {
		return CubeEquities{}, fmt.Errorf("cube: no game in progress: %w", backgammon.ErrNotNow)
	}
	bt.SetVariant(s.Variant)
	p := bt.probsAt(s.Board, max(bt.cfg.Plies, bt.cfg.CubePlies))
	x := CubeEfficiencyOf(&s.Board)
	var ce CubeEquities
	if s.Money() {
		var exact bool
		if bt.bearoff2 != nil && bt.checkers == 15 {
			ce, exact = bt.bearoff2.MoneyCube(&s.Board, s.CubeOwner == -1)
		}
		if !exact {
			ce = MoneyCube(p, x, s.CubeOwner == -1, s.Jacoby)
		}
	} else {
		var err error
		if ce, err = bt.matchCube(s, p, x); err != nil {
			return CubeEquities{}, fmt.Errorf("cube: %w", err)
		}
	}
	return ce, nil
}

// noiseScale converts noise in equity into the units of s's cube
// equities: 1 in money play, half the swing in match winning chances
// between winning and losing a single game at the current cube in matches.
func (bt *Bot) noiseScale(s *backgammon.State) float64 {
	if s.Money() || bt.cfg.Noise == 0 {
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
	if ce.DoubleTake > ce.DoublePass {
		return backgammon.Drop, nil
	}
	if s.CanBeaver() && -ce.DoubleTake > BeaverMargin {
		return backgammon.Beaver, nil
	}
	return backgammon.Take, nil
}

// Move picks the move for the player on roll of s with its rolled dice:
// cubeless equity in money play, dead-cube match winning chances in match
// play (so gammons are valued by the score). ok is false when no checker
// can move.
func (bt *Bot) Move(s *backgammon.State) (m backgammon.Move, ok bool, err error) {
	if s.Decision() != backgammon.DecideMove {
		return m, false, fmt.Errorf("move: %w", backgammon.ErrNotNow)
	}
	bt.SetVariant(s.Variant)
	obj, scale := Probs.Equity, float32(1)
	if !s.Money() {
		mi, err := bt.matchInfo(s, s.Move)
		if err != nil {
			return m, false, fmt.Errorf("move: %w", err)
		}
		met := bt.met
		obj = func(p Probs) float32 { return float32(met.mwc(p, mi, mi.cube)) }
		// One unit of equity is half the swing between winning and
		// losing a single game at this cube, in match winning chances.
		scale = float32(met.mwc(Probs{Win: 1}, mi, mi.cube)-met.mwc(Probs{}, mi, mi.cube)) / 2
	}
	m, _, ok = bt.choose(s.Board, s.Dice[0], s.Dice[1], obj, scale)
	return m, ok, nil
}
