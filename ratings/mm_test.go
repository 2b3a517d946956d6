package ratings

// The minorization-maximization fit below is a test oracle: an
// independent algorithm for the Bradley-Terry model with a prior, against
// which FitBradleyTerry (Newton's method) is checked. The product has one
// fit, FitBradleyTerry.

import (
	"errors"
	"fmt"
	"math"
)

// pairResult is the record of all games between two players: A won WinsA,
// B won WinsB, and Draws were drawn (counts may be fractional, for example
// to weight games).
type pairResult struct {
	A, B         string
	WinsA, WinsB float64
	Draws        float64
}

// mmRating is one player's Bradley-Terry strength on the Elo scale.
type mmRating struct {
	Player string
	// Elo is the player's strength in logistic Elo, anchored so that the
	// ratings of all players given to BradleyTerry average 0. The
	// difference of two players' Elo predicts the expected score between
	// them (see ScoreFromElo).
	Elo float64
	// StdErr is the standard error of Elo, measured relative to the
	// field's mean (so it includes the uncertainty of that mean), from the
	// inverse Fisher information at the estimate. It is a large-sample
	// approximation; the standard error of a difference between two
	// players is not the root sum of their squares, since the estimates
	// are correlated. Draws make it slightly conservative, since the model
	// treats a draw as varying like a half-win, half-loss game.
	StdErr float64
	// Games is the number of real games the player played.
	Games float64
	// Score is the player's points from real games: wins plus half the
	// draws.
	Score float64
}

// Interval returns the two-sided normal-approximation confidence interval
// Elo ± z*StdErr at the given level, or NaN bounds for a level outside
// (0, 1).
func (r mmRating) Interval(level float64) (low, high float64) {
	p := twoSidedQuantile(level)
	if math.IsNaN(p) {
		return math.NaN(), math.NaN()
	}
	z := normalQuantile(p)
	return r.Elo - z*r.StdErr, r.Elo + z*r.StdErr
}

// eloPerNat converts a natural-log strength to Elo: 400/ln(10).
var eloPerNat = 400 / math.Ln10

// btTolerance is the convergence threshold on the largest change of any
// player's log-strength in one MM iteration.
const btTolerance = 1e-10

// defaultBTIterations is the iteration cap used when iterations <= 0.
const defaultBTIterations = 10000

// mmBradleyTerry fits the Bradley-Terry model to the results of an
// all-play-all (or any) tournament and returns one mmRating per player, in
// the order of players.
//
// Model: player i has strength g_i > 0 and beats j with probability
// g_i/(g_i+g_j), which is the logistic Elo model with
// Elo_i = 400*log10(g_i). A draw counts as half a win and half a loss for
// each side (the usual scoring convention; it is not a separate draw
// model). Games are assumed independent and strengths constant.
//
// Prior: every player is given one extra virtual game, drawn, against a
// virtual player of fixed strength 1 (Elo 0). Without it a player who won
// (or lost) every game would have an infinite maximum-likelihood rating
// and a disconnected field would have no unique solution; with it every
// rating is finite and the fit is the posterior mode. Its pull is that of
// one game, small beside a tournament's worth of real games. The virtual
// games do not count in Games or Score.
//
// Fitting uses the minorization-maximization (MM) algorithm of Hunter,
// "MM algorithms for generalized Bradley-Terry models", Annals of
// Statistics 32 (2004), eq. (3):
//
//	g_i <- W_i / sum_j n_ij/(g_i+g_j)
//
// where W_i counts points (including the virtual half point) and n_ij
// games (including the virtual game), iterated up to iterations times
// (10000 if iterations <= 0) or until no log-strength moves by more than
// 1e-10. The ratings are then shifted so that they average 0.
//
// Standard errors come from the Fisher information in log-strength,
// I_ii = sum_j n_ij p_ij p_ji (virtual game included), I_ij = -n_ij p_ij
// p_ji, whose inverse (by Gauss-Jordan elimination; the prior makes I
// positive definite, so no player needs to be fixed) is the approximate
// covariance. The variance of a centred rating e_i - mean(e) is the
// quadratic form of that covariance with the contrast vector.
//
// It returns an error for duplicate or empty player names, results naming
// an unknown player or a player against itself, and negative or NaN
// counts.
func mmBradleyTerry(players []string, results []pairResult, iterations int) ([]mmRating, error) {
	n := len(players)
	if n == 0 {
		return nil, errors.New("ratings: BradleyTerry needs at least one player")
	}
	index := make(map[string]int, n)
	for i, p := range players {
		if p == "" {
			return nil, errors.New("ratings: empty player name")
		}
		if _, dup := index[p]; dup {
			return nil, fmt.Errorf("ratings: duplicate player %q", p)
		}
		index[p] = i
	}
	// games[i][j] = games between i and j; points[i] = i's score.
	games := make([][]float64, n)
	for i := range games {
		games[i] = make([]float64, n)
	}
	points := make([]float64, n)
	for k, r := range results {
		a, okA := index[r.A]
		b, okB := index[r.B]
		switch {
		case !okA:
			return nil, fmt.Errorf("ratings: result %d names unknown player %q", k, r.A)
		case !okB:
			return nil, fmt.Errorf("ratings: result %d names unknown player %q", k, r.B)
		case a == b:
			return nil, fmt.Errorf("ratings: result %d has %q playing itself", k, r.A)
		case !(r.WinsA >= 0 && r.WinsB >= 0 && r.Draws >= 0) || math.IsInf(r.WinsA+r.WinsB+r.Draws, 0):
			return nil, fmt.Errorf("ratings: result %d (%s v %s) has an invalid count", k, r.A, r.B)
		}
		g := r.WinsA + r.WinsB + r.Draws
		games[a][b] += g
		games[b][a] += g
		points[a] += r.WinsA + r.Draws/2
		points[b] += r.WinsB + r.Draws/2
	}

	const (
		priorGames  = 1.0 // one virtual game per player ...
		priorPoints = 0.5 // ... which is drawn ...
		priorG      = 1.0 // ... against a player of strength 1 (Elo 0).
	)
	if iterations <= 0 {
		iterations = defaultBTIterations
	}
	g := make([]float64, n)
	for i := range g {
		g[i] = 1
	}
	next := make([]float64, n)
	for range iterations {
		var maxStep float64
		for i := range n {
			denom := priorGames / (g[i] + priorG)
			for j := range n {
				if games[i][j] > 0 {
					denom += games[i][j] / (g[i] + g[j])
				}
			}
			next[i] = (points[i] + priorPoints) / denom
			maxStep = math.Max(maxStep, math.Abs(math.Log(next[i]/g[i])))
		}
		g, next = next, g
		if maxStep < btTolerance {
			break
		}
	}

	// Fisher information in natural-log strength.
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
		p := g[i] / (g[i] + priorG)
		info[i][i] = priorGames * p * (1 - p)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if games[i][j] == 0 {
				continue
			}
			p := g[i] / (g[i] + g[j])
			w := games[i][j] * p * (1 - p)
			info[i][i] += w
			info[j][j] += w
			info[i][j] -= w
			info[j][i] -= w
		}
	}
	cov, err := invert(info)
	if err != nil {
		return nil, err
	}
	// Centred variance: a = e_i - 1/n; a'Σa = Σ_ii - 2 rowmean_i + grandmean.
	rowMean := make([]float64, n)
	var grand float64
	for i := range n {
		var s float64
		for j := range n {
			s += cov[i][j]
		}
		rowMean[i] = s / float64(n)
		grand += rowMean[i]
	}
	grand /= float64(n)

	var meanLog float64
	for i := range n {
		meanLog += math.Log(g[i])
	}
	meanLog /= float64(n)
	out := make([]mmRating, n)
	for i, p := range players {
		v := cov[i][i] - 2*rowMean[i] + grand
		if v < 0 { // rounding
			v = 0
		}
		var played float64
		for j := range n {
			played += games[i][j]
		}
		out[i] = mmRating{
			Player: p,
			Elo:    eloPerNat * (math.Log(g[i]) - meanLog),
			StdErr: eloPerNat * math.Sqrt(v),
			Games:  played,
			Score:  points[i],
		}
	}
	return out, nil
}
