package backgammon

import (
	"errors"
	"fmt"
)

// Rules are the settings of a match or money session.
type Rules struct {
	Variant     Variant
	MatchLength int  // 0 plays money games
	Crawford    bool // match play: no doubling in the game after a player first reaches match point
	Jacoby      bool // money play: gammons count single until the cube is turned
	Beavers     bool // money play: a taker may redouble at once, keeping the cube
	Cube        bool // false plays cubeless: no doubling at all
	// CubeLimit caps the cube in money play: no double or beaver may
	// take it above this value (a power of two from 2 to MaxCube). 0 is
	// no cap beyond MaxCube. It keeps one runaway game of redoubles from
	// dominating a long money measurement.
	CubeLimit int
}

// ValidCubeLimit reports whether n may be a money session's cube limit:
// 0 (none) or a power of two from 2 to MaxCube.
func ValidCubeLimit(n int) bool {
	return n == 0 || n >= 2 && n <= MaxCube && n&(n-1) == 0
}

// IsCubeLimit reports whether n, as a money session's cube limit, caps
// anything: a power of two from 2 to MaxCube/2 (MaxCube is the cap anyway,
// and 0 means none). Readers of control files, protocol words and records
// accept exactly these.
func IsCubeLimit(n int) bool { return n != 0 && n < MaxCube && ValidCubeLimit(n) }

// CubeCap is the largest value the cube may reach under r: CubeLimit in
// money play where set, else MaxCube.
func (r Rules) CubeCap() int {
	if IsCubeLimit(r.CubeLimit) && r.Money() {
		return r.CubeLimit
	}
	return MaxCube
}

// Money reports whether these rules play money games.
func (r Rules) Money() bool { return r.MatchLength == 0 }

// InForce returns r with the options that mean nothing under it cleared:
// Jacoby and beavers apply only to money play with the cube, Crawford only
// to match play with the cube. Records and engines are told these rules.
func (r Rules) InForce() Rules {
	if !r.Cube || !r.Money() {
		r.Jacoby, r.Beavers = false, false
		r.CubeLimit = 0
	}
	if !IsCubeLimit(r.CubeLimit) {
		r.CubeLimit = 0
	}
	if !r.Cube || r.Money() {
		r.Crawford = false
	}
	return r
}

// GameState follows gnubg's game states, which the match ID records.
type GameState int

const (
	GameNone     GameState = iota // no game started
	GamePlaying                   // a game is in progress
	GameOver                      // the game was played out
	GameResigned                  // ended by an accepted resignation
	GameDropped                   // ended by a dropped double
)

// Result is how much a game is won by; resignations offer the same levels.
type Result int

const (
	NoResult Result = iota
	Single
	Gammon
	Backgammon
)

func (r Result) String() string {
	switch r {
	case Single:
		return "single"
	case Gammon:
		return "gammon"
	case Backgammon:
		return "backgammon"
	}
	return "none"
}

// Decision names what a game waits for next.
type Decision int

const (
	DecideNothing Decision = iota // no game in progress
	DecideCube                    // the player on roll may double before rolling
	NeedRoll                      // the dice must be rolled
	DecideTake                    // the opponent answers a double: take, drop or beaver
	DecideResign                  // the opponent answers a resignation
	DecideMove                    // the player on roll moves with the rolled dice
)

func (d Decision) String() string {
	return [...]string{"nothing", "cube", "roll", "take", "resign", "move"}[d]
}

// ErrNotNow is returned for an action that the game's state does not allow.
var ErrNotNow = errors.New("not allowed now")

// MaxCube is the largest cube value a match ID can record.
const MaxCube = 1 << 15

// State is a match (or a money session) in progress: the rules, the score,
// and the current game. It is the one turn machine the referee, the
// trainer and the bots share; its fields mirror what a gnubg match ID and
// position ID record, so the formats package can read and write it.
type State struct {
	Rules
	Board        Board  // seen from the player on roll (Move)
	Move         int    // the player on roll: 0 or 1
	Turn         int    // the player to decide next; differs from Move while a double or resignation awaits an answer
	Dice         [2]int // 0, 0 until rolled
	CubeValue    int
	CubeOwner    int // -1 centred, else the owning player
	Doubled      bool
	Resigned     Result // resignation on offer, by player Move
	Score        [2]int
	CrawfordGame bool // the current game is the Crawford game
	PostCrawford bool
	GameState    GameState
	Winner       int    // of the last finished game
	ResultLevel  Result // of the last finished game
	Points       int    // won in the last finished game
	Forfeited    bool   // the last game ended by forfeit
	Plies        int    // moves played in the current game

	gen *MoveGen
}

// NewMatch starts a match (or money session) with no game yet.
func NewMatch(r Rules) *State {
	return &State{Rules: r, CubeValue: 1, CubeOwner: -1}
}

// MatchOver reports whether the match is decided. A money session is over
// after each game; the caller decides how many to play.
func (s *State) MatchOver() bool {
	if s.Money() {
		return s.GameState != GameNone && s.GameState != GamePlaying
	}
	return s.Score[0] >= s.MatchLength || s.Score[1] >= s.MatchLength
}

// MatchWinner is the player who won the match, or -1.
func (s *State) MatchWinner() int {
	if s.Money() || !s.MatchOver() {
		return -1
	}
	if s.Score[0] >= s.MatchLength {
		return 0
	}
	return 1
}

// StartGame begins the next game after an opening roll: first is the player
// who won the opening roll and d0, d1 are the dice it moves with.
func (s *State) StartGame(first, d0, d1 int) error {
	if s.GameState == GamePlaying {
		return fmt.Errorf("start game: a game is in progress: %w", ErrNotNow)
	}
	if !s.Money() && s.MatchOver() {
		return fmt.Errorf("start game: the match is over: %w", ErrNotNow)
	}
	if first != 0 && first != 1 || !validDie(d0) || !validDie(d1) {
		return fmt.Errorf("start game: bad opening roll player %d dice %d%d", first, d0, d1)
	}
	// The Crawford game is the one right after a player first reaches match point.
	if s.CrawfordGame {
		s.CrawfordGame, s.PostCrawford = false, true
	}
	if !s.Money() && s.Rules.Crawford && !s.PostCrawford &&
		(s.Score[0] == s.MatchLength-1 || s.Score[1] == s.MatchLength-1) {
		s.CrawfordGame = true
	}
	if !s.Money() && !s.Rules.Crawford && (s.Score[0] == s.MatchLength-1 || s.Score[1] == s.MatchLength-1) {
		s.PostCrawford = true
	}
	s.Board = s.Variant.StartBoard()
	s.Move, s.Turn = first, first
	s.Dice = [2]int{d0, d1}
	s.CubeValue, s.CubeOwner = 1, -1
	s.Doubled, s.Resigned = false, NoResult
	s.GameState = GamePlaying
	s.Winner, s.ResultLevel, s.Points, s.Forfeited, s.Plies = -1, NoResult, 0, false, 0
	return nil
}

func validDie(d int) bool { return d >= 1 && d <= 6 }

// Decision says what the game waits for.
func (s *State) Decision() Decision {
	switch {
	case s.GameState != GamePlaying:
		return DecideNothing
	case s.Doubled:
		return DecideTake
	case s.Resigned != NoResult:
		return DecideResign
	case s.Dice[0] == 0:
		if s.CanDouble() {
			return DecideCube
		}
		return NeedRoll
	}
	return DecideMove
}

// CanDouble reports whether the player on roll may double now.
func (s *State) CanDouble() bool {
	return s.GameState == GamePlaying && s.Cube && !s.CrawfordGame && !s.Doubled &&
		s.Resigned == NoResult && s.Dice[0] == 0 &&
		(s.CubeOwner == -1 || s.CubeOwner == s.Move) && s.CubeValue < s.CubeCap()
}

// Double offers the cube; the opponent must answer.
func (s *State) Double() error {
	if !s.CanDouble() {
		return fmt.Errorf("double: %w", ErrNotNow)
	}
	s.Doubled, s.Turn = true, 1-s.Move
	return nil
}

// Take accepts a pending double: the cube doubles and the taker owns it.
func (s *State) Take() error {
	if s.Decision() != DecideTake {
		return fmt.Errorf("take: no double pending: %w", ErrNotNow)
	}
	s.CubeValue *= 2
	s.CubeOwner = 1 - s.Move
	s.Doubled, s.Turn = false, s.Move
	return nil
}

// CanBeaver reports whether the player facing a double may beaver.
func (s *State) CanBeaver() bool {
	return s.Decision() == DecideTake && s.Money() && s.Beavers && s.CubeValue*4 <= s.CubeCap()
}

// Beaver takes and redoubles at once: the cube goes to four times its value,
// owned by the beavering player, and the doubler rolls.
func (s *State) Beaver() error {
	if !s.CanBeaver() {
		return fmt.Errorf("beaver: %w", ErrNotNow)
	}
	s.CubeValue *= 4
	s.CubeOwner = 1 - s.Move
	s.Doubled, s.Turn = false, s.Move
	return nil
}

// Drop refuses a pending double: the doubler wins the cube's value.
func (s *State) Drop() error {
	if s.Decision() != DecideTake {
		return fmt.Errorf("drop: no double pending: %w", ErrNotNow)
	}
	s.Doubled = false
	s.finish(s.Move, Single, s.CubeValue, GameDropped)
	return nil
}

// Resign offers to lose at a level: the opponent of the player on roll answers.
func (s *State) Resign(level Result) error {
	if s.GameState != GamePlaying || s.Doubled || s.Resigned != NoResult || level < Single || level > Backgammon {
		return fmt.Errorf("resign %v: %w", level, ErrNotNow)
	}
	s.Resigned, s.Turn = level, 1-s.Move
	return nil
}

// AcceptResignation ends the game at the offered level.
func (s *State) AcceptResignation() error {
	if s.Decision() != DecideResign {
		return fmt.Errorf("accept resignation: %w", ErrNotNow)
	}
	level := s.Resigned
	s.Resigned = NoResult
	s.finish(1-s.Move, level, s.score(level), GameResigned)
	return nil
}

// DeclineResignation lets play go on.
func (s *State) DeclineResignation() error {
	if s.Decision() != DecideResign {
		return fmt.Errorf("decline resignation: %w", ErrNotNow)
	}
	s.Resigned, s.Turn = NoResult, s.Move
	return nil
}

// SetDice records the roll of the player on roll.
func (s *State) SetDice(d0, d1 int) error {
	if d := s.Decision(); d != DecideCube && d != NeedRoll {
		return fmt.Errorf("roll: waiting for %v: %w", d, ErrNotNow)
	}
	if !validDie(d0) || !validDie(d1) {
		return fmt.Errorf("roll: bad dice %d%d", d0, d1)
	}
	s.Dice = [2]int{d0, d1}
	return nil
}

func (s *State) moveGen() *MoveGen {
	if s.gen == nil {
		s.gen = NewMoveGen()
	}
	return s.gen
}

// LegalMoves lists the legal moves for the rolled dice. The slice is reused
// by the next call.
func (s *State) LegalMoves() []Move {
	if s.Decision() != DecideMove {
		return nil
	}
	ms, _ := s.moveGen().Generate(s.Board, s.Dice[0], s.Dice[1])
	return ms
}

// ParseMove resolves gnubg notation against the legal moves of the roll.
func (s *State) ParseMove(text string) (Move, error) {
	if s.Decision() != DecideMove {
		return Move{}, fmt.Errorf("move %q: %w", text, ErrNotNow)
	}
	return s.moveGen().ResolveMove(s.Board, s.Dice[0], s.Dice[1], text)
}

// Play plays a move for the player on roll after checking it is legal, then
// ends the game or passes the turn.
func (s *State) Play(m Move) error {
	if s.Decision() != DecideMove {
		return fmt.Errorf("play: %w", ErrNotNow)
	}
	legal, ok := s.moveGen().FindLegal(s.Board, s.Dice[0], s.Dice[1], m)
	if !ok {
		return fmt.Errorf("play %s: not a legal move with %d%d", Format(s.Board, m), s.Dice[0], s.Dice[1])
	}
	s.Board = s.Board.Apply(legal)
	s.Plies++
	if s.Board.OnBoard(OnRoll) == 0 {
		level := s.winLevel()
		s.finish(s.Move, level, s.score(level), GameOver)
		return nil
	}
	s.Board = s.Board.Swap()
	s.Move = 1 - s.Move
	s.Turn = s.Move
	s.Dice = [2]int{}
	return nil
}

// winLevel judges the player on roll's win once all its checkers are off.
func (s *State) winLevel() Result {
	opp := &s.Board[Opponent]
	if s.Board.Borne(Opponent, s.Variant) > 0 {
		return Single
	}
	// A loser with a checker on the bar or in the winner's home board is backgammoned.
	for i := 18; i < 25; i++ {
		if opp[i] > 0 {
			return Backgammon
		}
	}
	return Gammon
}

// score turns a result level into points: times the cube, except that under
// the Jacoby rule a gammon or backgammon counts single in a money game whose
// cube was never turned.
func (s *State) score(level Result) int {
	if s.Money() && s.Cube && s.Jacoby && s.CubeValue == 1 {
		level = Single
	}
	return int(level) * s.CubeValue
}

func (s *State) finish(winner int, level Result, points int, how GameState) {
	s.GameState = how
	s.Winner, s.ResultLevel, s.Points = winner, level, points
	s.Turn = winner
	s.Score[winner] += points
}

// Forfeit ends the game against player loser, who broke the rules. In a
// money game the opponent wins a backgammon at the current cube value (the
// most the game could have cost, so forfeiting never pays); in match play
// the opponent is awarded the match.
func (s *State) Forfeit(loser int) error {
	if s.GameState != GamePlaying || (loser != 0 && loser != 1) {
		return fmt.Errorf("forfeit: %w", ErrNotNow)
	}
	winner := 1 - loser
	points := int(Backgammon) * s.CubeValue
	if !s.Money() && s.Score[winner]+points < s.MatchLength {
		points = s.MatchLength - s.Score[winner]
	}
	s.Doubled, s.Resigned = false, NoResult
	s.finish(winner, Backgammon, points, GameOver)
	s.Forfeited = true
	return nil
}

// BoardFor returns the board seen from player p.
func (s *State) BoardFor(p int) Board {
	if p == s.Move {
		return s.Board
	}
	return s.Board.Swap()
}
