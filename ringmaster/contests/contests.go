// Package contests lists the competition types the ringmaster offers, in
// one place: a new type is a package beside these and one line in All.
package contests

import (
	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/contests/allplayall"
	"github.com/gamemill/gamemill/ringmaster/contests/gauntlet"
	"github.com/gamemill/gamemill/ringmaster/contests/knockout"
	"github.com/gamemill/gamemill/ringmaster/contests/playoff"
	"github.com/gamemill/gamemill/ringmaster/contests/tune"
)

// All returns the competition types, in the order messages list them.
func All() []contest.Type {
	return []contest.Type{
		playoff.Type{},
		allplayall.Type{},
		gauntlet.Type{},
		knockout.Type{},
		tune.MC{}, tune.CE{}, tune.SPSA{},
	}
}
