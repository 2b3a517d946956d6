// Package games is the one place that lists the games the ringmaster
// offers; programs pass All() to ringmaster.New.
package games

import (
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
	"github.com/gamemill/gamemill/ringmaster/games/gogame"
)

// All returns a fresh value of every game (fresh, so that programs and
// tests never share a game's state, such as its engine factory).
func All() []ringmaster.Game {
	return []ringmaster.Game{backgammon.New(), gogame.New()}
}
