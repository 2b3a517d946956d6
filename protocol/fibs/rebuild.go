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
			if err := b.Apply(a); err != nil {
				return nil, fmt.Errorf("rebuild game %d action %d (%v): %w", gi+1, ai+1, a, err)
			}
		}
	}
	return b, nil
}
