package record

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// Position is what Walk shows its visitor before each action is applied.
type Position struct {
	GameIndex   int // into Match.Games
	ActionIndex int // into Game.Actions
	Game        *Game
	Action      *Action
	// State is the match before the action, except that for Move and Roll
	// actions the roll is already set (a game's opening roll has started
	// the game): the board is still the one before the move. The visitor
	// must not change it.
	State *backgammon.State
	// For Move actions: the board before the move seen from the mover, and
	// the legal move the notation resolved to.
	Board backgammon.Board
	Move  backgammon.Move
}

// Replay plays every game of m through engine/backgammon, checking that each
// action is legal when it is taken and by the player whose decision it is.
// It fills what formats leave out and checks what they record: each move's
// notation becomes gnubg's canonical form, game numbers, scores before each
// game, the Crawford flag and the results (winner, points, level, how the
// game ended) are filled where missing and compared where present. A game
// that stops while still in play but carries a result is taken to have ended
// by resignation (neither .mat nor gnubg's SGF writes resignations): the
// loser, who must be on roll, resigns at the level the points imply and the
// winner accepts; both actions are appended. Errors name the game number
// and the 1-based index of the action.
func Replay(m *Match) error {
	return walk(m, true, nil)
}

// Walk replays m like Replay but changes nothing; it calls visit (when not
// nil) before each action, and stops at the first error visit returns.
func Walk(m *Match, visit func(p *Position) error) error {
	return walk(m, false, visit)
}

func walk(m *Match, fill bool, visit func(p *Position) error) error {
	if m.MatchLength < 0 {
		return fmt.Errorf("bad match length %d", m.MatchLength)
	}
	s := backgammon.NewMatch(m.Rules)
	for gi := range m.Games {
		g := &m.Games[gi]
		if err := walkGame(m, s, gi, g, fill, visit); err != nil {
			n := g.Number
			if n == 0 {
				n = gi + 1
			}
			return fmt.Errorf("game %d: %w", n, err)
		}
	}
	return nil
}

func walkGame(m *Match, s *backgammon.State, gi int, g *Game, fill bool, visit func(p *Position) error) error {
	switch {
	case g.Number == 0 && fill:
		g.Number = gi + 1
	case g.Number != gi+1:
		return fmt.Errorf("numbered %d but is game %d of the record", g.Number, gi+1)
	}
	if g.ScoreBefore != s.Score {
		if !fill || g.ScoreBefore != [2]int{} {
			return fmt.Errorf("recorded score before the game %d-%d, but the games before it make %d-%d",
				g.ScoreBefore[0], g.ScoreBefore[1], s.Score[0], s.Score[1])
		}
		g.ScoreBefore = s.Score
	}
	if len(g.Actions) == 0 && g.Start == "" {
		return errors.New("no actions") // a game set up at a position may have none yet
	}
	if g.Start != "" {
		if err := startAt(s, g.Start); err != nil {
			return err
		}
	}
	if g.Points < 0 || g.Points > 0 && g.Winner != 0 && g.Winner != 1 {
		return fmt.Errorf("bad result: winner %d, %d points", g.Winner, g.Points)
	}
	for ai := range g.Actions {
		a := &g.Actions[ai]
		if err := step(s, gi, ai, g, a, fill, visit); err != nil {
			return fmt.Errorf("action %d (%v): %w", ai+1, *a, err)
		}
		if ai == 0 && fill {
			g.Crawford = s.CrawfordGame
		}
	}
	if s.GameState == backgammon.GamePlaying && g.Points > 0 {
		if err := inferResignation(s, g, fill); err != nil {
			return err
		}
	}
	if s.GameState == backgammon.GamePlaying {
		if g.Points > 0 {
			return fmt.Errorf("recorded as won by player %d but still in play", g.Winner)
		}
		return nil
	}
	if g.Points > 0 && (g.Winner != s.Winner || g.Points != s.Points) {
		return fmt.Errorf("recorded as won by player %d for %d points, but the play makes it player %d for %d",
			g.Winner, g.Points, s.Winner, s.Points)
	}
	if fill {
		g.Winner, g.Points, g.Result, g.End = s.Winner, s.Points, s.ResultLevel, s.GameState
	}
	return nil
}

func step(s *backgammon.State, gi, ai int, g *Game, a *Action, fill bool, visit func(p *Position) error) error {
	if a.Player != 0 && a.Player != 1 {
		return fmt.Errorf("bad player %d", a.Player)
	}
	p := &Position{GameIndex: gi, ActionIndex: ai, Game: g, Action: a, State: s}
	opening := ai == 0 && g.Start == ""
	if opening {
		if a.Kind != Move && a.Kind != Roll {
			return errors.New("a game must open with a roll")
		}
	} else if s.GameState != backgammon.GamePlaying {
		return errors.New("the game is already over")
	}
	if (a.Kind == Move || a.Kind == Roll) && visit != nil && opening {
		// The visitor sees the state before the game; the board is the start.
		p.Board = s.Variant.StartBoard()
	}
	var err error
	switch a.Kind {
	case Move, Roll:
		if opening {
			if err = s.StartGame(a.Player, a.Dice[0], a.Dice[1]); err != nil {
				return err
			}
		} else {
			if err = expect(s.Move, a.Player, "roll"); err != nil {
				return err
			}
			if err = s.SetDice(a.Dice[0], a.Dice[1]); err != nil {
				return err
			}
		}
		if a.Kind == Roll {
			if visit != nil {
				return visit(p)
			}
			return nil
		}
		mv, err := s.ParseMove(a.Move)
		if err != nil {
			if a.Move == "" && ai == len(g.Actions)-1 {
				// A roll written like a move that was never made (the last
				// entry of a game in a .mat file, unfinished or resigned
				// after the roll).
				if fill {
					a.Kind = Roll
				}
				if visit != nil {
					return visit(p)
				}
				return nil
			}
			return err
		}
		p.Board, p.Move = s.Board, mv
		if visit != nil {
			if err := visit(p); err != nil {
				return err
			}
		}
		text := backgammon.Format(s.Board, mv)
		if err := s.Play(mv); err != nil {
			return err
		}
		if fill {
			a.Move = text
		}
		return nil
	case Double:
		if err = expect(s.Move, a.Player, "double"); err != nil {
			return err
		}
		if a.Cube != 0 && a.Cube != 2*s.CubeValue {
			return fmt.Errorf("doubles to %d but the cube is at %d", a.Cube, s.CubeValue)
		}
		if visit != nil {
			if err = visit(p); err != nil {
				return err
			}
		}
		if err = s.Double(); err == nil && fill {
			a.Cube = 2 * s.CubeValue
		}
		return err
	case Take, Drop, Beaver:
		if err = expect(1-s.Move, a.Player, "answer the double"); err != nil {
			return err
		}
		if a.Kind == Beaver && a.Cube != 0 && a.Cube != 4*s.CubeValue {
			return fmt.Errorf("beavers to %d but the cube is at %d", a.Cube, s.CubeValue)
		}
		if visit != nil {
			if err = visit(p); err != nil {
				return err
			}
		}
		switch a.Kind {
		case Take:
			return s.Take()
		case Drop:
			return s.Drop()
		}
		if err = s.Beaver(); err == nil && fill {
			a.Cube = s.CubeValue
		}
		return err
	case Resign:
		if err = expect(s.Move, a.Player, "resign"); err != nil {
			return err
		}
		if visit != nil {
			if err = visit(p); err != nil {
				return err
			}
		}
		return s.Resign(a.Level)
	case AcceptResignation, DeclineResignation:
		if err = expect(1-s.Move, a.Player, "answer the resignation"); err != nil {
			return err
		}
		if visit != nil {
			if err = visit(p); err != nil {
				return err
			}
		}
		if a.Kind == AcceptResignation {
			return s.AcceptResignation()
		}
		return s.DeclineResignation()
	case Forfeit:
		if visit != nil {
			if err = visit(p); err != nil {
				return err
			}
		}
		return s.Forfeit(a.Player)
	}
	return fmt.Errorf("unknown action kind %d", int(a.Kind))
}

func expect(want, got int, what string) error {
	if want != got {
		return fmt.Errorf("player %d cannot %s now: it is player %d's turn", got, what, want)
	}
	return nil
}

// inferResignation ends a game that stops in play but carries a result.
func inferResignation(s *backgammon.State, g *Game, fill bool) error {
	loser := 1 - g.Winner
	if s.Doubled || s.Resigned != backgammon.NoResult || s.Move != loser {
		return fmt.Errorf("recorded as won by player %d for %d points, but stops in play with player %d to decide (%v)",
			g.Winner, g.Points, s.Turn, s.Decision())
	}
	level := backgammon.NoResult
	for l := backgammon.Single; l <= backgammon.Backgammon; l++ {
		pts := int(l) * s.CubeValue
		if s.Money() && s.Cube && s.Jacoby && s.CubeValue == 1 {
			pts = s.CubeValue
		}
		if pts == g.Points {
			level = l
			break
		}
	}
	if level == backgammon.NoResult {
		return fmt.Errorf("recorded as won by player %d for %d points: no resignation with the cube at %d gives that",
			g.Winner, g.Points, s.CubeValue)
	}
	if err := s.Resign(level); err != nil {
		return fmt.Errorf("inferred resignation: %w", err)
	}
	if err := s.AcceptResignation(); err != nil {
		return fmt.Errorf("inferred resignation: %w", err)
	}
	if fill {
		g.Actions = append(g.Actions,
			Action{Player: loser, Kind: Resign, Level: level},
			Action{Player: g.Winner, Kind: AcceptResignation})
	}
	return nil
}

// Hits reports, for each step of m played on b (seen from the mover),
// whether that step hits a blot.
func Hits(b backgammon.Board, m backgammon.Move) []bool {
	steps := m.StepList()
	hits := make([]bool, len(steps))
	for i, st := range steps {
		if st.To > 0 && st.To <= 24 && b[backgammon.Opponent][24-st.To] == 1 {
			hits[i] = true
		}
		var one backgammon.Move
		one.Steps[0], one.N = st, 1
		b = b.Apply(one)
	}
	return hits
}

// startAt begins the next game of s at start ("position ID:match ID"):
// the board, the player on roll and the cube come from start, the score
// and the Crawford state from the match so far; no dice are rolled.
func startAt(s *backgammon.State, start string) error {
	at, err := DecodeStart(start, s.Rules)
	if err != nil {
		return fmt.Errorf("start %q: %w", start, err)
	}
	// StartGame keeps the match's bookkeeping (Crawford, post-Crawford);
	// the opening roll it needs is replaced at once.
	if err := s.StartGame(at.Move, 1, 2); err != nil {
		return fmt.Errorf("start %q: %w", start, err)
	}
	s.Board, s.Dice = at.Board, [2]int{}
	s.CubeValue, s.CubeOwner = at.CubeValue, at.CubeOwner
	if !s.Cube {
		s.CubeValue, s.CubeOwner = 1, -1
	}
	return nil
}

// DecodeStart reads a game's start position, gnubg's "position ID:match
// ID" (see Game.Start), under rules: it must be a game in play with the
// player on roll to decide, no double or resignation on offer.
func DecodeStart(start string, rules backgammon.Rules) (*backgammon.State, error) {
	pos, match, ok := strings.Cut(start, ":")
	if !ok {
		return nil, errors.New("want POSITIONID:MATCHID")
	}
	at, err := gnubgid.DecodeState(pos, match, rules)
	if err != nil {
		return nil, err
	}
	if at.GameState != backgammon.GamePlaying || at.Doubled || at.Resigned != backgammon.NoResult {
		return nil, errors.New("not a game in play with the player on roll to decide")
	}
	return at, nil
}
