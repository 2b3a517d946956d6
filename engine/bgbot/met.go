package bgbot

import "fmt"

// MET is a match equity table: the chance that a player wins the match
// from a score, before a game starts with the cube centred at 1.
//
// It is computed, not copied, by a gammon-rate recursion: each game is won
// by either side with chance 1/2, a fraction GammonRate of the wins being
// gammons (backgammons ignored), and, before the Crawford game, a fraction
// DoubledShare of the games is played out for a 2-cube (doubled and taken)
// while the rest ends with the cube at 1 (never doubled, or doubled and
// dropped):
//
//   - post-Crawford (the leader needs 1, the trailer n): the trailer
//     doubles at once and the leader takes, so each game is worth 2 (4
//     with a gammon): Post[n] = 1/2 * ((1-g) Post[n-2] + g Post[n-4]), with
//     Post[<=0] = 1 and Post[1] = 1/2;
//   - the Crawford game (no cube): Crawford[n] = 1/2 * ((1-g) Post[n-1] +
//     g Post[n-2]) for the trailer;
//   - otherwise, with V(c) = 1/2 * ((1-g) M(a-c, b) + g M(a-2c, b)) + 1/2 *
//     ((1-g) M(a, b-c) + g M(a, b-2c)) the value of a game for c points,
//     M(a, b) = (1-d) V(1) + d V(2), a score reaching 1-away leading to the
//     Crawford game (or to post-Crawford play without the Crawford rule).
//
// The result is a little flatter than the published tables built from
// rollouts with a live cube, but it has the right shape: it is symmetric,
// monotone, and knows the Crawford and free-drop-free post-Crawford
// structure.
type MET struct {
	Len        int
	GammonRate float64
	pre        [][]float64 // pre[a][b], a, b >= 2
	post       []float64   // trailer needing n, leader 1, post-Crawford
	craw       []float64   // trailer needing n, leader 1, Crawford game
}

// DefaultGammonRate is the share of games won with a gammon used by
// NewMET's callers in this package.
const DefaultGammonRate = 0.26

// DoubledShare is the share of games played out for a 2-cube in the
// pre-Crawford part of the MET recursion.
const DoubledShare = 0.6

// NewMET computes the table for matches up to length n.
func NewMET(n int, gammonRate float64) (*MET, error) {
	if n < 1 || n > 64 {
		return nil, fmt.Errorf("match equity table: length %d out of range 1..64", n)
	}
	if !(gammonRate >= 0 && gammonRate < 1) {
		return nil, fmt.Errorf("match equity table: gammon rate %v out of range [0,1)", gammonRate)
	}
	g := gammonRate
	m := &MET{Len: n, GammonRate: g, post: make([]float64, n+1), craw: make([]float64, n+1)}
	postAt := func(k int) float64 {
		if k <= 0 {
			return 1
		}
		return m.post[k]
	}
	m.post[1] = 0.5
	for k := 2; k <= n; k++ {
		m.post[k] = 0.5 * ((1-g)*postAt(k-2) + g*postAt(k-4))
	}
	m.craw[1] = 0.5
	for k := 2; k <= n; k++ {
		m.craw[k] = 0.5 * ((1-g)*postAt(k-1) + g*postAt(k-2))
	}
	m.pre = make([][]float64, n+1)
	for a := range m.pre {
		m.pre[a] = make([]float64, n+1)
	}
	for a := 2; a <= n; a++ {
		for b := 2; b <= n; b++ {
			v := func(c int) float64 {
				win := (1-g)*m.Win(a-c, b, false) + g*m.Win(a-2*c, b, false)
				lose := (1-g)*m.Win(a, b-c, false) + g*m.Win(a, b-2*c, false)
				return 0.5 * (win + lose)
			}
			m.pre[a][b] = (1-DoubledShare)*v(1) + DoubledShare*v(2)
		}
	}
	return m, nil
}

// Win is the chance that a player needing me points beats one needing opp
// points, at the start of a game. postCrawford says whether the Crawford
// game has been played already (or the match has no Crawford rule); it
// matters only when one side needs 1. Needs of 0 or less mean the match is
// won. Scores beyond the table's length are clamped to it.
func (m *MET) Win(me, opp int, postCrawford bool) float64 {
	switch {
	case me <= 0:
		return 1
	case opp <= 0:
		return 0
	}
	me, opp = min(me, m.Len), min(opp, m.Len)
	switch {
	case me == 1 && opp == 1:
		return 0.5
	case me == 1:
		if postCrawford {
			return 1 - m.post[opp]
		}
		return 1 - m.craw[opp]
	case opp == 1:
		if postCrawford {
			return m.post[me]
		}
		return m.craw[me]
	}
	return m.pre[me][opp]
}
