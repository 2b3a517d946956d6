// Package competitions decides which game a tournament plays next: game
// ids, seat assignment, dice seeds and the scheduler that hands out games to
// parallel workers and replays the games a crash interrupted.
//
// It is pure logic with no I/O, and knows nothing of control files: the
// ringmaster describes each matchup with a MatchupPlan.
package competitions

import (
	"strconv"
)

// MatchupPlan is what the scheduler needs to know about a matchup.
type MatchupPlan struct {
	ID      string // unique among the plans; game ids are ID_n
	PlayerA string // the first player as the control file lists it
	PlayerB string
	// NumberOfGames is how many games to play: games 0 .. NumberOfGames-1.
	// 0 disables the matchup. It must be even when Paired is set.
	NumberOfGames int
	// Alternating swaps the seats in odd-numbered games.
	Alternating bool
	// Paired plays games 2k and 2k+1 with the same dice and the seats
	// swapped, and issues the two together.
	Paired bool
}

// Job is one game to play.
type Job struct {
	GameID    string // e.g. "0_007" or "AvB_3"
	MatchupID string
	Number    int // the game's number within its matchup, from 0
	// PlayerA takes the first seat and PlayerB the second. The seats are
	// what the referee keys the dice to: in a pair of games with paired
	// dice, the player in the first seat sees the same rolls in both
	// games. (In backgammon the opening roll, not the seat, decides who
	// moves first.)
	PlayerA string
	PlayerB string
	// Swapped is set when PlayerA is the matchup's second player.
	Swapped bool
	// DiceSeed seeds the game's dice; see DiceSeed.
	DiceSeed uint64
	// PairNumber is Number/2 for paired dice: the two games of a pair share
	// it and their dice seed. It is -1 for independent dice.
	PairNumber int
	// DefA and DefB are the full definitions of the players in the two
	// seats, as text the ringmaster rebuilds a player from (its control
	// package's canonical JSON): what a worker launches, and what the
	// store records as having played the game. The scheduler leaves them
	// empty; the ringmaster fills them when it issues the job, so that a
	// job is a value that plays the same game wherever it goes.
	DefA, DefB string
	// Settings is the canonical text of the settings the game is played
	// under: its matchup's seed, move limit and game settings.
	Settings string
}

// GameID returns the id of game n of a matchup that plays numberOfGames
// games: "<matchupID>_<n>", with n zero-padded to the width of
// numberOfGames-1 (as gomill: 1000 games give 0_000 to 0_999).
func GameID(matchupID string, numberOfGames, n int) string {
	width := 1
	if numberOfGames > 1 {
		width = len(strconv.Itoa(numberOfGames - 1))
	}
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return matchupID + "_" + s
}

// ParseGameID splits a game id into its matchup id and game number: the
// number is the digits after the last underscore, so matchup ids may hold
// underscores themselves. Any zero-padding is accepted.
func ParseGameID(id string) (matchupID string, n int, ok bool) {
	i := len(id) - 1
	for i >= 0 && id[i] != '_' {
		i--
	}
	if i <= 0 || i == len(id)-1 {
		return "", 0, false
	}
	for j := i + 1; j < len(id); j++ {
		if id[j] < '0' || id[j] > '9' {
			return "", 0, false
		}
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return "", 0, false
	}
	return id[:i], n, true
}

// NewJob returns game n of the matchup described by plan, in a competition
// with the given seed.
//
// The seats swap in odd-numbered games when the plan is Paired or
// Alternating. The dice seed is DiceSeed(seed, plan.ID, k) where k is the
// pair number n/2 for paired dice and the game number n otherwise, so both
// games of a pair get the same dice and a replayed game gets the dice it had
// before.
func NewJob(seed int64, plan MatchupPlan, n int) Job {
	return newJob(seed, plan, n, GameID(plan.ID, plan.NumberOfGames, n))
}

func newJob(seed int64, plan MatchupPlan, n int, id string) Job {
	j := Job{
		GameID:     id,
		MatchupID:  plan.ID,
		Number:     n,
		PlayerA:    plan.PlayerA,
		PlayerB:    plan.PlayerB,
		PairNumber: -1,
	}
	if (plan.Paired || plan.Alternating) && n%2 == 1 {
		j.PlayerA, j.PlayerB = j.PlayerB, j.PlayerA
		j.Swapped = true
	}
	if plan.Paired {
		j.PairNumber = n / 2
	}
	j.DiceSeed = DiceSeed(seed, plan.ID, PairOrNumber(n, j.PairNumber))
	return j
}

// PairOrNumber is what is drawn or chosen per pair of games where the
// games are paired (pair >= 0: both games of a pair take the same), else
// per game: the index of a game's start position in a suite, or of its
// seat draw.
func PairOrNumber(number, pair int) int {
	if pair >= 0 {
		return pair
	}
	return number
}

// DiceSeed derives the dice seed of game (or pair) k of a matchup from the
// competition seed. It is a fixed function, so that results can be
// reproduced from a control file alone; do not change it:
//
//	DiceSeed(seed, id, k) = mix(mix(mix(uint64(seed)) ^ fnv1a64(id)) ^ uint64(k))
//
// where fnv1a64 is the 64-bit FNV-1a hash of the id's bytes (offset basis
// 0xcbf29ce484222325, prime 0x100000001b3) and mix is one SplitMix64 step:
//
//	z := x + 0x9e3779b97f4a7c15
//	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
//	z = (z ^ z>>27) * 0x94d049bb133111eb
//	return z ^ z>>31
func DiceSeed(seed int64, matchupID string, k int) uint64 {
	return splitMix64(splitMix64(splitMix64(uint64(seed))^fnv1a64(matchupID)) ^ uint64(k))
}

func splitMix64(x uint64) uint64 {
	z := x + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func fnv1a64(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}
