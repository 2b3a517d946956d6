package fibs

import (
	"fmt"

	"github.com/gamemill/gamemill/formats/record"
)

// Rebuild plays a (possibly unfinished) match record into a fresh
// Builder, checking every action, so that recording can go on where it
// stopped: how a server and a bridge resume a saved match.
func Rebuild(m *record.Match) (*record.Builder, error) {
	b := record.NewBuilder(m.Players, m.Rules)
	for gi, g := range m.Games {
		for ai, a := range g.Actions {
			var err error
			switch a.Kind {
			case record.Move:
				if err = b.Roll(a.Player, a.Dice[0], a.Dice[1]); err == nil {
					err = b.Move(a.Player, a.Move)
				}
			case record.Roll:
				err = b.Roll(a.Player, a.Dice[0], a.Dice[1])
			case record.Double:
				err = b.Double(a.Player)
			case record.Take:
				err = b.Take(a.Player)
			case record.Drop:
				err = b.Drop(a.Player)
			case record.Beaver:
				err = b.Beaver(a.Player)
			case record.Resign:
				err = b.Resign(a.Player, a.Level)
			case record.AcceptResignation:
				err = b.AcceptResignation(a.Player)
			case record.DeclineResignation:
				err = b.DeclineResignation(a.Player)
			case record.Forfeit:
				err = b.Forfeit(a.Player, a.Comment)
			default:
				err = fmt.Errorf("unknown action kind %v", a.Kind)
			}
			if err != nil {
				return nil, fmt.Errorf("rebuild game %d action %d (%v): %w", gi+1, ai+1, a, err)
			}
		}
	}
	return b, nil
}
