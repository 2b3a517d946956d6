package benchset

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
)

// Judged by the set's own probabilities, every cube decision is right; a
// judge that overrates the player on roll errs, and as the taker passes
// where it should take, never the other way; the embedded
// network's errors on the committed gnubg set stay near what was measured
// (docs/bgbot.md, More networks for the cube: 1.50, 3.14 and 3.44).
func TestCubeScores(t *testing.T) {
	set, err := Read(openTestdata(t, "gnubg2-set.txt"))
	if err != nil {
		t.Fatal(err)
	}
	truth := make(map[backgammon.Board]bgbot.Probs, len(set))
	for _, p := range set {
		truth[p.Board] = p.Rollout.Probs
	}
	exact := CubeScores(set, func(b backgammon.Board) bgbot.Probs { return truth[b] })
	if exact.Positions != len(set) || exact.Double != 0 || exact.Take != 0 || exact.Redouble != 0 ||
		exact.WrongDoubles+exact.MissedDoubles+exact.WrongTakes+exact.WrongPasses != 0 {
		t.Errorf("the set judged by itself: %+v", exact)
	}
	hopeful := CubeScores(set, func(b backgammon.Board) bgbot.Probs {
		p := truth[b]
		p[bgbot.Win] = min(p[bgbot.Win]+0.08, 1)
		return p.Sanitize()
	})
	// Overrating the doubler, it drops doubles it should take and never
	// takes one it should drop.
	if hopeful.Double <= 0 || hopeful.Redouble <= 0 || hopeful.Take <= 0 || hopeful.WrongPasses == 0 || hopeful.WrongTakes != 0 {
		t.Errorf("a judge 8%% too hopeful for the player on roll: %+v", hopeful)
	}
	bot := embeddedBots(t)(0)
	net := CubeScores(set, func(b backgammon.Board) bgbot.Probs { return bot.Probs(b) })
	t.Logf("embedded network: %+v", net)
	if net.Double <= 0 || net.Double > 3 || net.Take > 6 || net.Redouble > 6 {
		t.Errorf("embedded network's cube errors on the gnubg set: %+v", net)
	}
}
