package ratings

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Game is one result between two players, for FitBradleyTerry.
type Game struct {
	A, B string
	// First says who had the first move (or the colour with the
	// advantage, such as Black in Go): 0 for A, 1 for B, -1 for neither
	// (the advantage term does not apply).
	First int
	// Score is A's score: 1 a win, 0 a loss, 1/2 a draw. Without the draw
	// model (no game has 1/2) any score in [0, 1] counts as that fraction
	// of a win and the rest of a loss.
	Score float64
	// MatchLength > 0 makes the game a backgammon match of that many
	// points, to which the FIBS relation applies: a player D rating points
	// stronger wins with probability 1/(1+10^(-D*sqrt(N)/2000)). 0 is a
	// single game on the Elo scale: 1/(1+10^(-D/400)).
	MatchLength int
}

// scale is the game's factor on a rating difference before the logistic
// Elo formula: sqrt(N)/5 turns the FIBS relation into 1/(1+10^(-k*D/400)).
func (g *Game) scale() float64 {
	if g.MatchLength > 0 {
		return math.Sqrt(float64(g.MatchLength)) / 5
	}
	return 1
}

// FitOptions tune FitBradleyTerry.
type FitOptions struct {
	// Advantage fits the first-move (colour) advantage, in rating points
	// added to the first mover's rating.
	Advantage bool
	// Anchor, when set, names a player whose rating is fixed at
	// AnchorRating (its interval is then a point); otherwise the ratings
	// average AnchorRating.
	Anchor       string
	AnchorRating float64
	// Prior adds this many virtual drawn games for each player against a
	// virtual opponent rated AnchorRating (on the Elo scale, BayesElo's
	// "prior"): it keeps ratings finite when a player won or lost every
	// game, at the cost of a pull towards the middle. 0 is the pure
	// maximum-likelihood estimate; DefaultPrior is what Gamemill's
	// reports use.
	Prior float64
	// Level is the two-sided confidence level of the intervals; 0 means
	// 0.95.
	Level float64
	// DrawsAsHalf counts a drawn game as half a win and half a loss, with
	// no draw parameter: Ordo's convention (its ratings make each
	// player's expected score equal its score). By default drawn games
	// fit BayesElo's draw model above, which reads a draw as evidence of
	// closeness as well.
	DrawsAsHalf bool
}

// DefaultPrior is the prior of Gamemill's rating tables (`ringmaster
// ratings` and an all-play-all's report): one virtual draw per player
// against a virtual opponent rated AnchorRating, the field's mean unless
// a player is anchored. It is BayesElo's idea (its default prior is two
// virtual draws) at half the weight: enough that a player who lost every
// game gets a finite rating whose wide interval says how little the games
// tell, and worth one game beside a tournament's many, so it moves
// well-measured ratings little.
const DefaultPrior = 1.0

// PlayerRating is one player's row of a Table.
type PlayerRating struct {
	Player    string
	Rating    float64
	StdErr    float64 // from the full covariance matrix
	Low, High float64 // Rating -+ z*StdErr at the table's level
	Games     float64
	Score     float64 // wins plus half the draws
}

// Table is the result of FitBradleyTerry.
type Table struct {
	Players []PlayerRating // best first
	// Advantage is the first mover's advantage in rating points, and its
	// standard error; NaN when not fitted.
	Advantage, AdvantageStdErr float64
	// DrawElo is the draw parameter of the Rao-Kupper model BayesElo uses
	// (a game between equals is drawn with probability
	// 1-2/(1+10^(DrawElo/400))) and its standard error; NaN when no game
	// was drawn or with DrawsAsHalf.
	DrawElo, DrawEloStdErr float64
	// Cov is the covariance matrix of the ratings, in the order of Players.
	Cov [][]float64
	// LOS[i][j] is the likelihood that Players[i] is stronger than
	// Players[j]: Phi of their difference over its standard error.
	LOS           [][]float64
	LogLikelihood float64
	Iterations    int
}

// Rating returns the named player's row.
func (t *Table) Rating(player string) (PlayerRating, bool) {
	for _, p := range t.Players {
		if p.Player == player {
			return p, true
		}
	}
	return PlayerRating{}, false
}

const (
	fitMaxIterations = 200
	fitTolerance     = 1e-9 // rating points
	natPerElo        = math.Ln10 / 400
)

// FitBradleyTerry fits ratings to games by maximum likelihood.
//
// Model: the first mover's advantage adv (when fitted) is added to its
// rating; with d = k*(r_A - r_B +- adv), k the game's scale (1 for a
// single game, sqrt(N)/5 for an N-point backgammon match, so that matches
// of different lengths combine on the FIBS scale), and f(x) =
// 1/(1+10^(-x/400)):
//
//	P(A wins) = f(d - k*draw), P(B wins) = f(-d - k*draw), P(draw) = the rest
//
// which is the model BayesElo fits (Rao and Kupper's ties; draw = 0 and no
// draw term when no game is drawn). The log-likelihood is concave in the
// ratings, advantage and draw parameter; it is maximised by Newton's
// method with step halving from all-zero ratings, which reaches the same
// maximum BayesElo's minorization-maximization iterations converge to, in
// a handful of steps and with match-length scales that MM's update does
// not admit. The covariance is the inverse of the observed information
// (minus the Hessian) at the maximum, with the anchor (or the mean) held
// fixed: each rating's interval is Rating -+ z*StdErr, and LOS comes from
// the variance of each difference, covariances included.
//
// Errors: no games, a player against itself, an empty name, a bad score,
// First or MatchLength, an unknown anchor, players the results do not
// connect (without a prior), and a player who won or lost every game
// (without a prior; the maximum-likelihood rating is then infinite).
func FitBradleyTerry(games []Game, opts FitOptions) (*Table, error) {
	if len(games) == 0 {
		return nil, errors.New("ratings: no games to fit")
	}
	level := opts.Level
	if level == 0 {
		level = 0.95
	}
	if !(level > 0 && level < 1) {
		return nil, fmt.Errorf("ratings: confidence level %v outside (0, 1)", level)
	}
	if !(opts.Prior >= 0) || math.IsInf(opts.Prior, 0) {
		return nil, fmt.Errorf("ratings: prior %v must be a finite number >= 0", opts.Prior)
	}
	index := map[string]int{}
	var names []string
	player := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(names)
			index[name] = i
			names = append(names, name)
		}
		return i
	}
	draws, decisive := false, 0
	for k, g := range games {
		switch {
		case g.A == "" || g.B == "":
			return nil, fmt.Errorf("ratings: game %d has an empty player name", k)
		case g.A == g.B:
			return nil, fmt.Errorf("ratings: game %d has %q playing itself", k, g.A)
		case !(g.Score >= 0 && g.Score <= 1):
			return nil, fmt.Errorf("ratings: game %d (%s v %s) has score %v outside [0, 1]", k, g.A, g.B, g.Score)
		case g.First < -1 || g.First > 1:
			return nil, fmt.Errorf("ratings: game %d (%s v %s) has first mover %d (want 0, 1 or -1)", k, g.A, g.B, g.First)
		case g.MatchLength < 0:
			return nil, fmt.Errorf("ratings: game %d (%s v %s) has match length %d", k, g.A, g.B, g.MatchLength)
		}
		player(g.A)
		player(g.B)
		if g.Score == 0.5 {
			draws = !opts.DrawsAsHalf
		} else {
			decisive++
		}
	}
	if decisive == 0 {
		// Every game drawn: the draw rate runs off to certainty and no
		// rating difference can be told.
		return nil, fmt.Errorf("ratings: all %d games are draws: nothing to rate", len(games))
	}
	if draws {
		for k, g := range games {
			if g.Score != 0 && g.Score != 0.5 && g.Score != 1 {
				return nil, fmt.Errorf("ratings: game %d (%s v %s) has score %v: with draws, scores must be 0, 1/2 or 1", k, g.A, g.B, g.Score)
			}
		}
	}
	n := len(names)
	ref := -1
	if opts.Anchor != "" {
		i, ok := index[opts.Anchor]
		if !ok {
			return nil, fmt.Errorf("ratings: anchor %q played no game", opts.Anchor)
		}
		ref = i
	}
	if opts.Prior == 0 {
		if err := checkFinite(games, index, names); err != nil {
			return nil, err
		}
	}

	// Parameters: n ratings, then the advantage, then the draw parameter.
	m := &btModel{games: games, index: index, n: n, prior: opts.Prior, priorAt: opts.AnchorRating}
	dim := n
	if opts.Advantage {
		m.adv = dim
		dim++
	} else {
		m.adv = -1
	}
	if draws {
		m.draw = dim
		dim++
	} else {
		m.draw = -1
	}
	// Free parameters: all but the reference player: the anchor, or
	// without one player 0, the mean being restored afterwards (with a
	// prior the likelihood has a maximum without fixing anyone).
	fixed := ref
	if fixed < 0 && opts.Prior == 0 {
		fixed = 0
	}
	free := make([]int, 0, dim-1)
	for i := range dim {
		if i != fixed {
			free = append(free, i)
		}
	}
	x := make([]float64, dim)
	if ref >= 0 {
		x[ref] = opts.AnchorRating
	}
	if draws {
		x[m.draw] = 100 // a start inside the region where draws are possible
	}
	ll, grad, hess := m.eval(x)
	iter := 0
	for iter = 1; iter <= fitMaxIterations; iter++ {
		step, err := newtonStep(grad, hess, free)
		if err != nil {
			return nil, err
		}
		var maxStep float64
		for _, s := range step {
			maxStep = max(maxStep, math.Abs(s))
		}
		// Step halving keeps every step uphill.
		t := 1.0
		var nx []float64
		var nll float64
		var ng []float64
		var nh [][]float64
		for range 60 {
			nx = slices.Clone(x)
			for k, i := range free {
				nx[i] += t * step[k]
			}
			if m.draw >= 0 && nx[m.draw] <= 0 {
				t /= 2
				continue
			}
			nll, ng, nh = m.eval(nx)
			if nll >= ll-1e-12*math.Abs(ll) {
				break
			}
			t /= 2
		}
		x, ll, grad, hess = nx, nll, ng, nh
		if t*maxStep < fitTolerance {
			break
		}
	}
	if iter > fitMaxIterations {
		return nil, fmt.Errorf("ratings: no convergence in %d Newton steps", fitMaxIterations)
	}

	// Covariance of the free parameters: the inverse observed information.
	info := make([][]float64, len(free))
	for a, i := range free {
		info[a] = make([]float64, len(free))
		for b, j := range free {
			info[a][b] = -hess[i][j]
		}
	}
	cov, err := invert(info)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w (do the results connect every player?)", err)
	}
	// full[i][j]: the covariance of parameters i and j, the fixed one 0.
	full := make([][]float64, dim)
	pos := make([]int, dim)
	for i := range pos {
		pos[i] = -1
	}
	for a, i := range free {
		pos[i] = a
	}
	for i := range full {
		full[i] = make([]float64, dim)
		for j := range full[i] {
			if pos[i] >= 0 && pos[j] >= 0 {
				full[i][j] = cov[pos[i]][pos[j]]
			}
		}
	}
	if ref < 0 {
		// Ratings relative to their mean: r_i - mean(r) + AnchorRating.
		var mean float64
		for i := range n {
			mean += x[i]
		}
		mean /= float64(n)
		for i := range n {
			x[i] += opts.AnchorRating - mean
		}
		centre(full, n)
	}

	z := normalQuantile(twoSidedQuantile(level))
	t := &Table{Advantage: math.NaN(), AdvantageStdErr: math.NaN(), DrawElo: math.NaN(), DrawEloStdErr: math.NaN(),
		LogLikelihood: ll, Iterations: iter}
	if m.adv >= 0 {
		t.Advantage, t.AdvantageStdErr = x[m.adv], math.Sqrt(max(full[m.adv][m.adv], 0))
	}
	if m.draw >= 0 {
		t.DrawElo, t.DrawEloStdErr = x[m.draw], math.Sqrt(max(full[m.draw][m.draw], 0))
	}
	gamesOf, scoreOf := make([]float64, n), make([]float64, n)
	for _, g := range games {
		a, b := index[g.A], index[g.B]
		gamesOf[a]++
		gamesOf[b]++
		scoreOf[a] += g.Score
		scoreOf[b] += 1 - g.Score
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case x[i] > x[j]:
			return -1
		case x[i] < x[j]:
			return 1
		}
		return 0
	})
	for _, i := range order {
		se := math.Sqrt(max(full[i][i], 0))
		t.Players = append(t.Players, PlayerRating{Player: names[i], Rating: x[i], StdErr: se,
			Low: x[i] - z*se, High: x[i] + z*se, Games: gamesOf[i], Score: scoreOf[i]})
	}
	t.Cov = make([][]float64, n)
	t.LOS = make([][]float64, n)
	for a, i := range order {
		t.Cov[a] = make([]float64, n)
		t.LOS[a] = make([]float64, n)
		for b, j := range order {
			t.Cov[a][b] = full[i][j]
			if i == j {
				t.LOS[a][b] = 0.5
				continue
			}
			v := full[i][i] + full[j][j] - 2*full[i][j]
			switch {
			case v > 0:
				t.LOS[a][b] = normalCDF((x[i] - x[j]) / math.Sqrt(v))
			case x[i] > x[j]:
				t.LOS[a][b] = 1
			case x[i] < x[j]:
				t.LOS[a][b] = 0
			default:
				t.LOS[a][b] = 0.5
			}
		}
	}
	return t, nil
}

// centre turns the covariance of ratings measured from player 0 into that
// of ratings measured from their mean: C*S*C' with C = I - 11'/n on the
// first n parameters (the others are unchanged by the shift, but their
// covariances with the ratings are centred too).
func centre(s [][]float64, n int) {
	dim := len(s)
	colMean := make([]float64, dim) // mean over ratings i<n of s[i][j]
	for j := range dim {
		for i := range n {
			colMean[j] += s[i][j]
		}
		colMean[j] /= float64(n)
	}
	var grand float64
	for j := range n {
		grand += colMean[j]
	}
	grand /= float64(n)
	out := make([][]float64, dim)
	for i := range dim {
		out[i] = make([]float64, dim)
		for j := range dim {
			v := s[i][j]
			if i < n {
				v -= colMean[j]
			}
			if j < n {
				v -= colMean[i]
			}
			if i < n && j < n {
				v += grand
			}
			out[i][j] = v
		}
	}
	for i := range dim {
		copy(s[i], out[i])
	}
}

// checkFinite refuses results whose maximum-likelihood ratings are not all
// finite or not unique: a field the games do not connect, or a player
// who won (or lost) every game.
func checkFinite(games []Game, index map[string]int, names []string) error {
	n := len(names)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	won, lost := make([]bool, n), make([]bool, n)
	for _, g := range games {
		a, b := index[g.A], index[g.B]
		parent[find(a)] = find(b)
		if g.Score > 0 {
			won[a], lost[b] = true, true
		}
		if g.Score < 1 {
			won[b], lost[a] = true, true
		}
	}
	for i := range n {
		if find(i) != find(0) {
			return fmt.Errorf("ratings: the games do not connect %q with %q: their ratings have no common scale", names[0], names[i])
		}
		if !won[i] || !lost[i] {
			return fmt.Errorf("ratings: %q won or lost every game: its maximum-likelihood rating is infinite (set a prior)", names[i])
		}
	}
	return nil
}

// btModel evaluates the log-likelihood with its gradient and Hessian.
type btModel struct {
	games     []Game
	index     map[string]int
	n         int
	adv, draw int // parameter indexes, -1 when absent
	prior     float64
	priorAt   float64
}

func sigmoid(u float64) float64 {
	if u >= 0 {
		return 1 / (1 + math.Exp(-u))
	}
	e := math.Exp(u)
	return e / (1 + e)
}

// logSigmoid is log(sigmoid(u)), accurate for large |u|.
func logSigmoid(u float64) float64 {
	if u >= 0 {
		return -math.Log1p(math.Exp(-u))
	}
	return u - math.Log1p(math.Exp(u))
}

func (m *btModel) eval(x []float64) (ll float64, grad []float64, hess [][]float64) {
	dim := len(x)
	grad = make([]float64, dim)
	hess = make([][]float64, dim)
	for i := range hess {
		hess[i] = make([]float64, dim)
	}
	// Each game's log-likelihood depends on u = eta - tau and v = -eta -
	// tau, linear in x: eta = c*(r_A - r_B + s*adv), tau = c*draw with
	// c = k*ln(10)/400.
	var du, dv [4]struct {
		i int
		w float64
	}
	add := func(d *[4]struct {
		i int
		w float64
	}, nd int, g float64) {
		for _, e := range d[:nd] {
			grad[e.i] += g * e.w
		}
	}
	outer := func(d1 *[4]struct {
		i int
		w float64
	}, n1 int, d2 *[4]struct {
		i int
		w float64
	}, n2 int, h float64) {
		for _, a := range d1[:n1] {
			for _, b := range d2[:n2] {
				hess[a.i][b.i] += h * a.w * b.w
			}
		}
	}
	for _, g := range m.games {
		a, b := m.index[g.A], m.index[g.B]
		c := g.scale() * natPerElo
		eta := c * (x[a] - x[b])
		nd := 0
		du[nd].i, du[nd].w = a, c
		dv[nd].i, dv[nd].w = a, -c
		nd++
		du[nd].i, du[nd].w = b, -c
		dv[nd].i, dv[nd].w = b, c
		nd++
		if m.adv >= 0 && g.First >= 0 {
			s := 1.0
			if g.First == 1 {
				s = -1
			}
			eta += c * s * x[m.adv]
			du[nd].i, du[nd].w = m.adv, c*s
			dv[nd].i, dv[nd].w = m.adv, -c*s
			nd++
		}
		tau := 0.0
		if m.draw >= 0 {
			tau = c * x[m.draw]
			du[nd].i, du[nd].w = m.draw, -c
			dv[nd].i, dv[nd].w = m.draw, -c
			nd++
		}
		u, v := eta-tau, -eta-tau
		su, sv := sigmoid(u), sigmoid(v)
		switch {
		case m.draw >= 0 && g.Score == 0.5:
			d := 1 - su - sv
			if d <= 0 {
				ll += math.Inf(-1)
				continue
			}
			pu, pv := su*(1-su), sv*(1-sv)     // sigma'
			qu, qv := pu*(1-2*su), pv*(1-2*sv) // sigma''
			ll += math.Log(d)
			add(&du, nd, -pu/d)
			add(&dv, nd, -pv/d)
			outer(&du, nd, &du, nd, -qu/d-pu*pu/(d*d))
			outer(&dv, nd, &dv, nd, -qv/d-pv*pv/(d*d))
			outer(&du, nd, &dv, nd, -pu*pv/(d*d))
			outer(&dv, nd, &du, nd, -pu*pv/(d*d))
		default:
			// s*log sigma(u) + (1-s)*log sigma(v).
			w, l := g.Score, 1-g.Score
			if w > 0 {
				ll += w * logSigmoid(u)
				add(&du, nd, w*(1-su))
				outer(&du, nd, &du, nd, -w*su*(1-su))
			}
			if l > 0 {
				ll += l * logSigmoid(v)
				add(&dv, nd, l*(1-sv))
				outer(&dv, nd, &dv, nd, -l*sv*(1-sv))
			}
		}
	}
	if m.prior > 0 {
		// Virtual draws (half a win, half a loss) against a player rated
		// priorAt, on the Elo scale.
		for i := range m.n {
			u := natPerElo * (x[i] - m.priorAt)
			su := sigmoid(u)
			ll += m.prior * 0.5 * (logSigmoid(u) + logSigmoid(-u))
			grad[i] += m.prior * 0.5 * natPerElo * ((1 - su) - su)
			hess[i][i] -= m.prior * natPerElo * natPerElo * su * (1 - su)
		}
	}
	return ll, grad, hess
}

// newtonStep solves H*step = -grad on the free parameters.
func newtonStep(grad []float64, hess [][]float64, free []int) ([]float64, error) {
	k := len(free)
	a := make([][]float64, k)
	for r, i := range free {
		a[r] = make([]float64, k)
		for c, j := range free {
			a[r][c] = -hess[i][j]
		}
	}
	inv, err := invert(a)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w (do the results connect every player?)", err)
	}
	step := make([]float64, k)
	for r := range k {
		for c, j := range free {
			step[r] += inv[r][c] * grad[j]
		}
	}
	return step, nil
}

// invert returns the inverse of the square matrix m by Gauss-Jordan
// elimination with partial pivoting. m is not modified.
func invert(m [][]float64) ([][]float64, error) {
	n := len(m)
	// Augmented [m | I].
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, 2*n)
		copy(a[i], m[i])
		a[i][n+i] = 1
	}
	for col := range n {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		if a[pivot][col] == 0 || math.IsNaN(a[pivot][col]) {
			return nil, errors.New("ratings: singular information matrix")
		}
		a[col], a[pivot] = a[pivot], a[col]
		inv := 1 / a[col][col]
		for k := range a[col] {
			a[col][k] *= inv
		}
		for r := range n {
			if r == col || a[r][col] == 0 {
				continue
			}
			f := a[r][col]
			for k := range a[r] {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	out := make([][]float64, n)
	for i := range out {
		out[i] = a[i][n:]
	}
	return out, nil
}
