package record

import (
	"errors"
	"fmt"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Builder records a match as it is played. It keeps its own
// backgammon.State and checks each action against it, so a record it builds
// always replays; moves are stored in gnubg's canonical notation.
//
// A game starts with the first Roll after the previous game ended (or at
// the start): the player who rolls is the one who won the opening roll, and
// the dice are those it plays. A Roll is stored with the Move that follows
// it; a game that ends between the two (a forfeit, or the record cut off)
// keeps the roll.
type Builder struct {
	m       *Match
	s       *backgammon.State
	g       *Game // the game being recorded, or nil
	rolled  bool  // the player on roll has rolled but not moved
	lastIdx int   // index of the pending Roll action in g.Actions
}

// NewBuilder starts a record for two players under rules r.
func NewBuilder(players [2]string, r backgammon.Rules) *Builder {
	return &Builder{m: New(players, r), s: backgammon.NewMatch(r)}
}

// Match returns the record built so far. It shares memory with the builder:
// copy it (Clone) before the builder records more.
func (b *Builder) Match() *Match { return b.m }

// State returns the builder's view of the match. Do not change it.
func (b *Builder) State() *backgammon.State { return b.s }

// Roll records a roll by player: the opening roll of a new game when no game
// is in progress, else the roll of the player on roll.
func (b *Builder) Roll(player, d0, d1 int) error {
	if b.g == nil || b.s.GameState != backgammon.GamePlaying {
		if err := b.s.StartGame(player, d0, d1); err != nil {
			return fmt.Errorf("record roll: %w", err)
		}
		b.m.Games = append(b.m.Games, Game{Number: len(b.m.Games) + 1, ScoreBefore: b.s.Score, Crawford: b.s.CrawfordGame})
		b.g = &b.m.Games[len(b.m.Games)-1]
	} else {
		if err := b.check(player, b.s.Move, "roll"); err != nil {
			return err
		}
		if err := b.s.SetDice(d0, d1); err != nil {
			return fmt.Errorf("record roll: %w", err)
		}
	}
	b.g.Actions = append(b.g.Actions, Action{Player: player, Kind: Roll, Dice: [2]int{d0, d1}})
	b.rolled, b.lastIdx = true, len(b.g.Actions)-1
	return nil
}

// Move records the move of the player on roll, in any notation gnubg accepts.
func (b *Builder) Move(player int, text string) error {
	if err := b.check(player, b.s.Move, "move"); err != nil {
		return err
	}
	if !b.rolled {
		return fmt.Errorf("record move %q: player %d has not rolled: %w", text, player, backgammon.ErrNotNow)
	}
	mv, err := b.s.ParseMove(text)
	if err != nil {
		return fmt.Errorf("record move: %w", err)
	}
	return b.play(mv)
}

// Play records a move given as a backgammon.Move.
func (b *Builder) Play(player int, mv backgammon.Move) error {
	if err := b.check(player, b.s.Move, "move"); err != nil {
		return err
	}
	if !b.rolled {
		return fmt.Errorf("record move: player %d has not rolled: %w", player, backgammon.ErrNotNow)
	}
	return b.play(mv)
}

func (b *Builder) play(mv backgammon.Move) error {
	text := backgammon.Format(b.s.Board, mv)
	if err := b.s.Play(mv); err != nil {
		return fmt.Errorf("record move: %w", err)
	}
	a := &b.g.Actions[b.lastIdx]
	a.Kind, a.Move = Move, text
	b.rolled = false
	b.finish()
	return nil
}

// Double records player offering the cube.
func (b *Builder) Double(player int) error {
	if err := b.check(player, b.s.Move, "double"); err != nil {
		return err
	}
	if err := b.s.Double(); err != nil {
		return fmt.Errorf("record double: %w", err)
	}
	b.g.Actions = append(b.g.Actions, Action{Player: player, Kind: Double, Cube: 2 * b.s.CubeValue})
	return nil
}

// Take records player accepting a double.
func (b *Builder) Take(player int) error { return b.answer(player, Take) }

// Drop records player refusing a double; the game ends.
func (b *Builder) Drop(player int) error { return b.answer(player, Drop) }

// Beaver records player taking and redoubling at once.
func (b *Builder) Beaver(player int) error { return b.answer(player, Beaver) }

func (b *Builder) answer(player int, k Kind) error {
	if err := b.check(player, 1-b.s.Move, k.String()); err != nil {
		return err
	}
	var err error
	switch k {
	case Take:
		err = b.s.Take()
	case Drop:
		err = b.s.Drop()
	default:
		err = b.s.Beaver()
	}
	if err != nil {
		return fmt.Errorf("record %v: %w", k, err)
	}
	a := Action{Player: player, Kind: k}
	if k == Beaver {
		a.Cube = b.s.CubeValue
	}
	b.g.Actions = append(b.g.Actions, a)
	b.finish()
	return nil
}

// Resign records player, on roll, offering to lose at level.
func (b *Builder) Resign(player int, level backgammon.Result) error {
	if err := b.check(player, b.s.Move, "resign"); err != nil {
		return err
	}
	if err := b.s.Resign(level); err != nil {
		return fmt.Errorf("record resignation: %w", err)
	}
	b.g.Actions = append(b.g.Actions, Action{Player: player, Kind: Resign, Level: level})
	return nil
}

// AcceptResignation records player accepting the resignation on offer.
func (b *Builder) AcceptResignation(player int) error {
	if err := b.check(player, 1-b.s.Move, "accept the resignation"); err != nil {
		return err
	}
	if err := b.s.AcceptResignation(); err != nil {
		return fmt.Errorf("record acceptance: %w", err)
	}
	b.g.Actions = append(b.g.Actions, Action{Player: player, Kind: AcceptResignation})
	b.finish()
	return nil
}

// DeclineResignation records player declining the resignation on offer.
func (b *Builder) DeclineResignation(player int) error {
	if err := b.check(player, 1-b.s.Move, "decline the resignation"); err != nil {
		return err
	}
	if err := b.s.DeclineResignation(); err != nil {
		return fmt.Errorf("record decline: %w", err)
	}
	b.g.Actions = append(b.g.Actions, Action{Player: player, Kind: DeclineResignation})
	return nil
}

// Forfeit records player losing the game (in match play, the match) for
// breaking the rules; reason goes into the action's comment.
func (b *Builder) Forfeit(player int, reason string) error {
	if b.g == nil || b.s.GameState != backgammon.GamePlaying {
		return fmt.Errorf("record forfeit: no game in progress: %w", backgammon.ErrNotNow)
	}
	if player != 0 && player != 1 {
		return fmt.Errorf("record forfeit: bad player %d", player)
	}
	if err := b.s.Forfeit(player); err != nil {
		return fmt.Errorf("record forfeit: %w", err)
	}
	b.g.Actions = append(b.g.Actions, Action{Player: player, Kind: Forfeit, Comment: reason})
	b.rolled = false
	b.finish()
	return nil
}

// StartAt begins the next game at start, gnubg's "position ID:match ID"
// (see Game.Start), with the dice not yet rolled: the next action is the
// decision of the player on roll there.
func (b *Builder) StartAt(start string) error {
	if b.g != nil && b.s.GameState == backgammon.GamePlaying {
		return fmt.Errorf("record start: a game is in progress: %w", backgammon.ErrNotNow)
	}
	if err := startAt(b.s, start); err != nil {
		return fmt.Errorf("record start: %w", err)
	}
	b.m.Games = append(b.m.Games, Game{Number: len(b.m.Games) + 1, ScoreBefore: b.s.Score, Crawford: b.s.CrawfordGame, Start: start})
	b.g = &b.m.Games[len(b.m.Games)-1]
	b.rolled = false
	return nil
}

// Comment attaches a comment to the last action recorded.
func (b *Builder) Comment(text string) error {
	if b.g == nil || len(b.g.Actions) == 0 {
		return errors.New("record comment: nothing recorded yet")
	}
	b.g.Actions[len(b.g.Actions)-1].Comment = text
	return nil
}

func (b *Builder) check(player, want int, what string) error {
	if b.g == nil || b.s.GameState != backgammon.GamePlaying {
		return fmt.Errorf("record %s: no game in progress: %w", what, backgammon.ErrNotNow)
	}
	if player != want {
		return fmt.Errorf("record %s: player %d cannot %s now, it is player %d's turn: %w", what, player, what, want, backgammon.ErrNotNow)
	}
	return nil
}

// finish copies the result into the game record once the game has ended.
func (b *Builder) finish() {
	if b.s.GameState == backgammon.GamePlaying {
		return
	}
	b.g.Winner, b.g.Points, b.g.Result, b.g.End = b.s.Winner, b.s.Points, b.s.ResultLevel, b.s.GameState
}

// Clone returns a deep copy of m.
func (m *Match) Clone() *Match {
	c := *m
	c.Games = make([]Game, len(m.Games))
	for i, g := range m.Games {
		g.Actions = append([]Action(nil), g.Actions...)
		c.Games[i] = g
	}
	return &c
}

// Apply records a as the builder's next action, through the method for
// its kind: how a stored record is played again into a fresh builder. A
// Move action rolls its dice first; one with no move text is a roll that
// could not be played.
func (b *Builder) Apply(a Action) error {
	switch a.Kind {
	case Move:
		if err := b.Roll(a.Player, a.Dice[0], a.Dice[1]); err != nil {
			return err
		}
		if a.Move == "" {
			return b.Play(a.Player, backgammon.Move{})
		}
		return b.Move(a.Player, a.Move)
	case Roll:
		return b.Roll(a.Player, a.Dice[0], a.Dice[1])
	case Double:
		return b.Double(a.Player)
	case Take:
		return b.Take(a.Player)
	case Drop:
		return b.Drop(a.Player)
	case Beaver:
		return b.Beaver(a.Player)
	case Resign:
		return b.Resign(a.Player, a.Level)
	case AcceptResignation:
		return b.AcceptResignation(a.Player)
	case DeclineResignation:
		return b.DeclineResignation(a.Player)
	case Forfeit:
		return b.Forfeit(a.Player, a.Comment)
	}
	return fmt.Errorf("record: cannot apply action kind %v", a.Kind)
}
