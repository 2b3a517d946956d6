// Package contest is the seam between the ringmaster and the shapes a
// competition takes: playoff, all-play-all, gauntlet and whatever comes
// next. A competition type reads its own top-level keys of the control
// file and says which matchups the competition plays; it may also print a
// section of its own at the head of the report (the all-play-all's grid,
// the gauntlet's table) and add one to the JSON report.
//
// Each type is one package under ringmaster/contests, listed once in
// contests.All. The control-file loader implements Builder, so a type
// never sees the decoded TOML or the loader's internals, and every
// message it reports names the file, the line and the key.
package contest

import (
	"fmt"
	"io"
)

// Type is one competition type, named by the control file's
// competition_type key.
type Type interface {
	// Name is the value of competition_type that selects the type.
	Name() string
	// Keys lists the top-level keys the type reads, besides the keys
	// every competition has (players, seed, the matchup settings and the
	// game's settings). Another type's keys in this type's file are
	// reported as not allowed.
	Keys() []string
	// Load reads the type's keys through b and adds the competition's
	// matchups with b.Add. It reports problems through b.
	Load(b Builder)
}

// Value is a control-file value being read. Its methods check the type
// and range, report a problem against the value's file, line and key, and
// return false when the value is unusable.
type Value interface {
	Int(min, max int64) (int, bool)
	Float(min, max float64) (float64, bool)
	Bool() (bool, bool)
	Str() (string, bool)
	// Strings reads an array of strings.
	Strings() ([]string, bool)
	// Tables reads an array of tables ([[key]] or an inline array).
	Tables() ([]Table, bool)
	// At is element i of an array value, for messages about one element.
	At(i int) Value
	// Raw is the value as decoded: a string, int64, float64, bool, []any
	// or map[string]any (a list of values of mixed types).
	Raw() any
	Errorf(format string, args ...any)
}

// Table is a control-file table: the top level or one of an array of
// tables.
type Table interface {
	// Get returns the value of key, if the table sets it.
	Get(key string) (Value, bool)
	// Errorf reports a problem with key of the table (at the key's line,
	// or the table's when the key is not set).
	Errorf(key, format string, args ...any)
	// CheckKeys reports every key of the table that is neither in
	// allowed nor a matchup setting (the generic ones and the game's).
	CheckKeys(allowed ...string)
	// CheckOnlyKeys reports every key of the table not in allowed: for
	// a table that is not a matchup (a tuner's [[parameters]]), where a
	// game setting would otherwise be taken and ignored.
	CheckOnlyKeys(allowed ...string)
}

// Matchup is a matchup a type adds: two player codes and how many games
// they play.
type Matchup struct {
	ID   string // unique among the competition's matchups
	Name string // empty: "A v B"
	A, B string // player codes; A == B plays a player against a copy of itself
	// Games is the number of games to play (0 disables the matchup but
	// keeps its results).
	Games int
	// Alternating swaps the seats in odd-numbered games.
	Alternating bool
	// Table, when set, is the matchup's own table in the control file:
	// its matchup settings (move_limit, sprt, the game's settings) apply
	// over the top-level ones, and its problems are reported against it.
	// Without it the matchup takes the top-level settings.
	Table Table
}

// Builder is what a type reads and builds with while the control file
// loads. The top level of the file is its Table.
type Builder interface {
	Table
	// Defined reports whether the control file defines player code.
	Defined(code string) bool
	// PairedGames reports whether the top-level settings play games in
	// pairs (the same dice, seats swapped): numbers of games must then be
	// even.
	PairedGames() bool
	// CheckSettings makes the game's checks of the top-level settings,
	// for types whose matchups all take them.
	CheckSettings()
	// Errors is the number of problems reported so far.
	Errors() int
	// Add adds a matchup with its settings; it reports false, adding
	// nothing, when m's table has a problem.
	Add(m Matchup) bool
	// SetCompetitors records the competition's field in order, for the
	// all-play-all's letters and the reports.
	SetCompetitors(codes []string)
	// SetPlanner makes the competition's matchups depend on its results:
	// the matchups added with Add are then ignored, and the planner says
	// which matchups there are (a knockout's later rounds).
	SetPlanner(p Planner)
	// Candidate reads the top-level table key as the template of the
	// players a proposer makes for its games: a player definition like
	// any [players.X], whose strings may hold {code} placeholders, each
	// code one of params. It reports an unknown or unclosed placeholder
	// at its key, and returns false when the table has a problem.
	Candidate(key string, params []string) bool
	// SetProposer makes the competition's games come one at a time from
	// p, between candidates made from the template and control-file
	// players: the matchups added with Add are then ignored.
	SetProposer(p Proposer)
}

// Result is one finished game as a planner sees it.
type Result struct {
	MatchupID string
	Number    int // the game's number within its matchup, from 0
	// Score is the matchup's first player's share: 1 a win, 0 a loss,
	// 0.5 a game with no winner.
	Score float64
}

// Planner is the part of a competition whose matchups depend on results.
// Its state is rebuilt from the stored results every time (never kept in
// a side file), so Plan must be a pure function of its argument.
type Planner interface {
	// Plan returns every matchup there is given the results so far (in
	// the order they finished): those played and those to play, in the
	// order reports list them. A matchup keeps its id, players and
	// settings once planned; its number of games may grow (a tie-break).
	// done reports that no matchup will be added and none will grow.
	Plan(results []Result) (matchups []Matchup, done bool)
}

// Proposer is a competition whose games are proposed one at a time from
// the results so far (a tuner), each between candidates made for it from
// the template Builder.Candidate read, or a candidate and a control-file
// player. Its state is never saved: the ringmaster stores each game as it
// is issued (Proposal.Stored) and rebuilds the state from a fresh Start
// by replaying the finished games through Issued and Record in the order
// they finished, then re-issuing the games that were in flight.
type Proposer interface {
	// Start returns the state at the start of the competition.
	Start() (Proposals, error)
	// LuckAdjusted reports whether a game's score is its luck-adjusted
	// result (where the game judges luck) rather than its win or loss.
	LuckAdjusted() bool
}

// ProposalStatus says whether a proposer has a game to offer.
type ProposalStatus int

const (
	// Propose: Next returned a game to play.
	Propose ProposalStatus = iota
	// Wait: results of issued games are needed first.
	Wait
	// Finish: no more games.
	Finish
)

// Proposals is a proposer's state. It is not safe for concurrent use.
type Proposals interface {
	// Next proposes game n, where n games have been issued so far. It
	// changes nothing: the same calls before it give the same game.
	Next(n int) (Proposal, ProposalStatus)
	// Issued says that p is being played: a game from Next, or a stored
	// one decoded on resume. It fails for a game the state cannot have
	// proposed (a control file changed between runs).
	Issued(p Proposal) error
	// Record gives an issued game's result: A's share in [0,1].
	Record(p Proposal, score float64) error
	// Decode turns a stored game (Proposal.Stored) back into a proposal.
	Decode(stored string) (Proposal, error)
	// WriteSection writes the short or the full report section, ending
	// with a blank line.
	WriteSection(w io.Writer, full bool) error
	// JSONSection is the section show --json gives under "tuner".
	JSONSection() any
}

// Proposal is one game a proposer asks for.
type Proposal struct {
	Number int // in issue order, from 0
	// A is the player whose score Record takes, B its opponent.
	A, B Entrant
	// ASecond seats A second (white in Go; the second seat in
	// backgammon, whose dice a pair shares).
	ASecond bool
	// Pair is shared by games played with the same dice; -1 for a game
	// with dice of its own.
	Pair int
	// Stored is what the store keeps of the game, for Decode.
	Stored string
}

// Entrant is a player in a proposed game.
type Entrant struct {
	// Code is a control-file player's code, or a candidate's name (which
	// no control-file code can equal).
	Code string
	// Params fill a candidate's {code} placeholders, parameter code to
	// text; nil for a control-file player.
	Params map[string]string
}

// Standing is one matchup's results as a type's report section sees them.
type Standing struct {
	ID     string
	A, B   string // player codes in the matchup's order
	Played int    // finished games
	// Wins is each player's wins, a game with no winner counting half to
	// each where the game allows draws (Go's jigo).
	Wins [2]float64
}

// Rated is one player's rating in Ratings.
type Rated struct {
	Player            string
	Rating, Low, High float64 // the rating and its 95% interval
	Games             int
}

// Ratings are the Bradley-Terry ratings of every player over every game
// of the competition, fitted as 'ringmaster ratings' fits them.
type Ratings struct {
	// Heading names the fit and its scale, one or more lines.
	Heading string
	Players []Rated
	// Err is why there are no ratings when the fit failed.
	Err error
}

// Field is a competition's results as a type's report section sees them.
type Field struct {
	// Competitors are the players the type named with SetCompetitors.
	Competitors []string
	// Standings are the matchups' results, in the competition's order.
	Standings []Standing
	// Results are the finished games, in the order they finished.
	Results []Result
	// Ratings fits the ratings on demand (the fit costs time, and most
	// sections do not need it).
	Ratings func() Ratings
}

// Reporter is implemented by a type (or its planner) that prints a
// section of its own at the head of the full and short reports, before
// the matchups.
type Reporter interface {
	// WriteSection writes the section, ending with a blank line.
	WriteSection(w io.Writer, f Field)
}

// JSONReporter is implemented by a type that adds a section of its own to
// the JSON report, under the key "contest".
type JSONReporter interface {
	JSONSection(f Field) any
}

// Plural is "1 game", "2 games".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// WriteRatings prints a ratings table after a blank line, or why there is
// none.
func WriteRatings(w io.Writer, rt Ratings) {
	if rt.Err != nil {
		fmt.Fprintf(w, "(ratings: %v)\n", rt.Err)
		return
	}
	fmt.Fprintf(w, "\n%s\n", rt.Heading)
	for _, p := range rt.Players {
		fmt.Fprintf(w, "  %-12s %+6.0f  (%+.0f to %+.0f)  %s\n", p.Player, p.Rating, p.Low, p.High, Plural(p.Games, "game"))
	}
}
