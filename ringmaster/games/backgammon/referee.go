// Package backgammon is backgammon's side of the ringmaster's game seam:
// its settings table, its referee, its startup check, its player kinds
// (bgbot built in, gnubg) and its report rows. The generic ringmaster
// reaches it only through the ringmaster.Game interface.
package backgammon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// Result texts of backgammon games, beside referee.ResultForfeit and
// referee.ResultUnknown.
const (
	ResultSingle     = "single"
	ResultGammon     = "gammon"
	ResultBackgammon = "backgammon"
	ResultMatch      = "match" // a match played out (or resigned/dropped)
	// ResultSettled is a money game stopped in a race and scored by the
	// bearoff database's equity (ending referee.EndAdjudicated).
	ResultSettled = "settled"
)

// Referee referees backgammon matches and money games.
type Referee struct {
	Rules bg.Rules
	// MoveLimit ends a game with no winner after this many moves (0: no
	// limit).
	MoveLimit int
	// SkipForced plays forced moves (a single legal move, or none) without
	// asking the player.
	SkipForced bool
	// Positions, when set, starts each game's first game at a position of
	// the suite (Positions.For the game's number) instead of the opening.
	Positions *Positions
	// Races, when set, settles a money game that reaches a no-contact
	// race the bearoff databases can value (SettleRace) at the turn of
	// the player on roll, before the roll: the game ends there and each
	// seat scores its expected points.
	Races *RaceDatabases
	// Log receives one line per problem (illegal answers, late errors).
	Log func(format string, args ...any)
}

// CubeStats counts one player's cube actions.
type CubeStats struct {
	Doubles, Takes, Drops, Beavers int
}

// Outcome is what a refereed backgammon match (or money game) came to,
// with everything the referee counted; Play turns it into the generic
// referee.Outcome.
type Outcome struct {
	// Winner is the seat that won (0 or 1), or -1 for an unknown result.
	Winner int
	// Result is one of the Result* names.
	Result string
	// Level is the last game's result level (single, gammon, backgammon).
	Level bg.Result
	// Points is each seat's net points: in a money game the points won or
	// lost (the expected points of a settled race: Settlement); in a match
	// +1 for the match winner and -1 for the loser.
	Points [2]float64
	// Score is the final match score (or the money game's points won).
	Score [2]int
	// Detail is a one-line human description.
	Detail string
	// ForfeitBy is the seat that forfeited, or -1.
	ForfeitBy int
	// FirstMover is the seat that moved first in the first game.
	FirstMover  int
	Games       int
	Moves       int
	Cube        [2]CubeStats
	Gammons     [2]int // games won with a gammon (backgammons not included)
	Backgammons [2]int
	Decisions   [2]int
	// Resigned is set when the (last) game ended by a resignation.
	Resigned bool
	// Settled is the settlement that ended the game, or nil when the game
	// was not settled.
	Settled *Settlement
	Record  *record.Match
}

// game holds one refereed match in progress.
type game struct {
	ref     *Referee
	seats   [2]referee.Seat
	rec     *record.Builder
	dice    *bg.Dice
	out     Outcome
	clients [2]*bgcmd.Client
	// start is the position the first game starts at ("" for the
	// opening).
	start string
	// cubeAnswer is the cube decision asked with genresign at the start
	// of the turn, for cube to act on.
	cubeAnswer *cubeAnswer
}

// cubeAnswer is a cube decision asked ahead, at a game and ply.
type cubeAnswer struct {
	game, ply int
	double    bool
	err       error
}

// Play referees one match (or one money game) between two seats with the
// dice of bg.NewDice(game.Seed, 0) (see PlayDice), and writes its records.
func (r *Referee) Play(ctx context.Context, info referee.GameInfo, seats [2]referee.Seat) (referee.Outcome, error) {
	start := ""
	if r.Positions != nil {
		start = r.Positions.For(info.Number, info.Pair)
	}
	out, err := r.playFrom(ctx, seats, bg.NewDice(info.Seed, 0), start)
	if err != nil && out.Record != nil {
		// A void game keeps what was played as SGF, with the reason.
		out.Record = out.Record.Clone()
		out.Record.Comment = "void: " + oneLine(err.Error())
		g := out.generic(info.Event, r.Log)
		delete(g.Records, "mat")
		return g, err
	}
	return out.generic(info.Event, r.Log), err
}

// PlayDice referees one match (or one money game) between two seats with
// the given dice. An error is returned only for a void game (*VoidError)
// or a cancelled context; every other problem ends in a forfeit or an
// unknown result recorded in the Outcome.
func (r *Referee) PlayDice(ctx context.Context, seats [2]referee.Seat, dice *bg.Dice) (Outcome, error) {
	return r.playFrom(ctx, seats, dice, "")
}

// playFrom is PlayDice with the first game started at start (see
// record.Game.Start) when it is not "".
func (r *Referee) playFrom(ctx context.Context, seats [2]referee.Seat, dice *bg.Dice, start string) (Outcome, error) {
	g := &game{ref: r, seats: seats, dice: dice, start: start,
		rec: record.NewBuilder([2]string{seats[0].Code, seats[1].Code}, r.Rules)}
	g.out.Winner, g.out.ForfeitBy, g.out.FirstMover = -1, -1, -1
	for i := range seats {
		g.clients[i] = &bgcmd.Client{R: seats[i].Player}
		if err := g.clients[i].SetGame(ctx, bgcmd.FromRules(r.Rules)); err != nil {
			return g.out, g.void(ctx, i, fmt.Errorf("set_game: %w", err))
		}
	}
	for !g.st().MatchOver() {
		if err := g.playGame(ctx); err != nil {
			// The moves so far, for the record of a void game.
			g.out.Record = g.rec.Match()
			return g.out, err
		}
		if g.out.Result == referee.ResultUnknown || g.out.ForfeitBy >= 0 || g.out.Settled != nil {
			break
		}
	}
	g.finish()
	return g.out, nil
}

func (g *game) logf(format string, args ...any) {
	if g.ref.Log != nil {
		g.ref.Log(format, args...)
	}
}

// void voids the game because of the engine in seat (see referee.Void).
func (g *game) void(ctx context.Context, seat int, err error) error {
	return referee.Void(ctx, g.seats, seat, err)
}

// engineError is a forfeit by the seat (nil returned: the game is over) or
// a void game (the error returned), as referee.EngineFailure decides.
func (g *game) engineError(ctx context.Context, seat int, what string, err error) error {
	forfeit, voidErr := referee.EngineFailure(ctx, g.seats, seat, what, err)
	if forfeit {
		g.forfeit(seat, referee.ForfeitReason(g.seats, seat, what, err))
	}
	return voidErr
}

func (g *game) forfeit(seat int, reason string) {
	g.logf("forfeit by %s: %s", g.seats[seat].Code, reason)
	if err := g.rec.Forfeit(seat, reason); err != nil {
		g.logf("record forfeit: %v", err)
	}
	g.out.ForfeitBy = seat
	g.out.Detail = fmt.Sprintf("forfeit by %s: %s", g.seats[seat].Code, oneLine(reason))
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// st is the match as it stands: the record builder's state, the one state
// machine the referee drives (every action goes through the builder, which
// applies it to the rules and records it).
func (g *game) st() *bg.State { return g.rec.State() }

func (g *game) playGame(ctx context.Context) error {
	if g.start != "" && g.out.Games == 0 {
		// No opening roll: the player on roll at the position rolls
		// (or doubles) first, with the game's dice.
		if err := g.rec.StartAt(g.start); err != nil {
			return fmt.Errorf("start game: %w", err)
		}
	} else {
		first, d0, d1 := g.dice.Opening()
		if err := g.rec.Roll(first, d0, d1); err != nil {
			return fmt.Errorf("start game: %w", err)
		}
	}
	first := g.st().Move
	if g.out.FirstMover < 0 {
		g.out.FirstMover = first
	}
	g.out.Games++
	asked := -1 // the ply at whose turn the player on roll was asked to resign
	for g.st().GameState == bg.GamePlaying {
		if err := ctx.Err(); err != nil {
			return err
		}
		if g.settle() {
			return nil
		}
		if g.ref.MoveLimit > 0 && g.st().Plies >= g.ref.MoveLimit {
			g.out.Result = referee.ResultUnknown
			g.out.Detail = fmt.Sprintf("no result after %d moves (move_limit)", g.st().Plies)
			return nil
		}
		var err error
		d := g.st().Decision()
		switch {
		case (d == bg.DecideCube || d == bg.NeedRoll) && asked != g.st().Plies:
			// Each turn starts with the chance to resign (engines that
			// know genresign), once.
			asked = g.st().Plies
			err = g.resign(ctx)
		case d == bg.DecideResign:
			err = g.answerResignation(ctx)
		case d == bg.DecideCube:
			err = g.cube(ctx)
		case d == bg.NeedRoll:
			d0, d1 := g.dice.Roll()
			err = g.rec.Roll(g.st().Move, d0, d1)
		case d == bg.DecideTake:
			err = g.take(ctx)
		case d == bg.DecideMove:
			err = g.move(ctx)
		default:
			return fmt.Errorf("referee: unexpected decision %v", g.st().Decision())
		}
		if err != nil {
			return err
		}
	}
	g.out.Moves += g.st().Plies
	if g.st().Forfeited {
		return nil
	}
	w := g.st().Winner
	switch g.st().ResultLevel {
	case bg.Gammon:
		if g.st().GameState == bg.GameOver {
			g.out.Gammons[w]++
		}
	case bg.Backgammon:
		if g.st().GameState == bg.GameOver {
			g.out.Backgammons[w]++
		}
	}
	return nil
}

// The decisions go through bgcmd's decision path (Tell, DecideDouble,
// DecideAnswer, DecideMove), which the FIBS bridge shares: one way to hand
// a position to an engine and check its answer against the rules.

func (g *game) cube(ctx context.Context) error {
	seat := g.st().Move
	var double bool
	var err error
	if a := g.cubeAnswer; a != nil && a.game == g.out.Games && a.ply == g.st().Plies {
		// Asked with genresign at the start of the turn.
		double, err = a.double, a.err
	} else {
		double, err = g.clients[seat].DecideDouble(ctx, g.st())
	}
	g.cubeAnswer = nil
	g.out.Decisions[seat]++
	if err != nil {
		return g.engineError(ctx, seat, "gencube", err)
	}
	if !double {
		d0, d1 := g.dice.Roll()
		return g.rec.Roll(seat, d0, d1)
	}
	g.out.Cube[seat].Doubles++
	return g.rec.Double(seat)
}

// resign gives the player on roll its chance to resign; an engine that
// does not know genresign is not asked. The cube question goes in the same
// batch where the rules allow a double, its answer kept for cube.
func (g *game) resign(ctx context.Context) error {
	seat := g.st().Move
	ts, err := g.clients[seat].DecideTurnStart(ctx, g.st())
	if err != nil {
		return g.engineError(ctx, seat, "genresign", err)
	}
	level := ts.Resign
	if level == bg.NoResult {
		if ts.CubeAsked {
			g.cubeAnswer = &cubeAnswer{game: g.out.Games, ply: g.st().Plies, double: ts.Double, err: ts.CubeErr}
		}
		return nil
	}
	g.out.Decisions[seat]++
	g.logf("%s resigns %v", g.seats[seat].Code, level)
	return g.rec.Resign(seat, level)
}

// answerResignation asks the other player to accept or decline the
// resignation on offer (genaccept, else its evaluation, else it declines).
func (g *game) answerResignation(ctx context.Context) error {
	seat := g.st().Turn
	accept, err := g.clients[seat].DecideResignation(ctx, g.st())
	g.out.Decisions[seat]++
	if err != nil {
		return g.engineError(ctx, seat, "genaccept", err)
	}
	if accept {
		return g.rec.AcceptResignation(seat)
	}
	return g.rec.DeclineResignation(seat)
}

func (g *game) take(ctx context.Context) error {
	seat := g.st().Turn
	answer, err := g.clients[seat].DecideAnswer(ctx, g.st())
	g.out.Decisions[seat]++
	switch {
	case answer == bg.Beaver && err != nil:
		g.forfeit(seat, "beaver when beavers are not allowed")
		return nil
	case err != nil:
		return g.engineError(ctx, seat, "gentake", err)
	}
	switch answer {
	case bg.Take:
		g.out.Cube[seat].Takes++
		return g.rec.Take(seat)
	case bg.Drop:
		g.out.Cube[seat].Drops++
		return g.rec.Drop(seat)
	case bg.Beaver:
		g.out.Cube[seat].Beavers++
		return g.rec.Beaver(seat)
	}
	return fmt.Errorf("gentake: unexpected answer %v", answer)
}

func (g *game) move(ctx context.Context) error {
	seat := g.st().Move
	if legal := g.st().LegalMoves(); g.ref.SkipForced && len(legal) == 1 {
		return g.rec.Play(seat, legal[0])
	}
	m, err := g.clients[seat].DecideMove(ctx, g.st())
	g.out.Decisions[seat]++
	var illegal *bgcmd.IllegalMoveError
	switch {
	case errors.As(err, &illegal):
		g.forfeit(seat, illegal.Error())
		return nil
	case err != nil:
		return g.engineError(ctx, seat, "genmove", err)
	}
	return g.rec.Play(seat, m)
}

// finish fills the outcome from the final state.
func (g *game) finish() {
	st := g.st()
	o := &g.out
	o.Record = g.rec.Match()
	o.Level = st.ResultLevel
	o.Resigned = st.GameState == bg.GameResigned
	if o.Result == referee.ResultUnknown {
		o.Winner = -1
		o.Score = st.Score
		return
	}
	if o.Settled != nil {
		// settle filled in the rest.
		o.Score = st.Score
		return
	}
	if st.Money() {
		w := st.Winner
		o.Winner = w
		o.Points[w], o.Points[1-w] = float64(st.Points), -float64(st.Points)
		o.Score = st.Score
		switch {
		case o.ForfeitBy >= 0:
			o.Result = referee.ResultForfeit
		case st.ResultLevel == bg.Gammon:
			o.Result = ResultGammon
		case st.ResultLevel == bg.Backgammon:
			o.Result = ResultBackgammon
		default:
			o.Result = ResultSingle
		}
		if o.Detail == "" {
			o.Detail = fmt.Sprintf("%s won %d point%s (%s%s)", g.seats[w].Code, st.Points, plural(st.Points), how(st), cubeText(st))
		}
		return
	}
	w := st.MatchWinner()
	o.Winner = w
	o.Points[w], o.Points[1-w] = 1, -1
	o.Score = st.Score
	if o.ForfeitBy >= 0 {
		o.Result = referee.ResultForfeit
		return
	}
	o.Result = ResultMatch
	o.Detail = fmt.Sprintf("%s won the %d-point match %d-%d in %d game%s", g.seats[w].Code, st.MatchLength, st.Score[w], st.Score[1-w], o.Games, plural(o.Games))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func how(st *bg.State) string {
	switch st.GameState {
	case bg.GameDropped:
		return "double dropped"
	case bg.GameResigned:
		return "resigned " + st.ResultLevel.String()
	}
	return st.ResultLevel.String()
}

func cubeText(st *bg.State) string {
	if st.CubeValue > 1 {
		return fmt.Sprintf(", cube %d", st.CubeValue)
	}
	return ""
}
