package gnubg

import (
	"context"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/internal/peertest"
)

// Judge answers for the player on roll: a race three rolls against six is
// nearly won for the side on roll and nearly lost seen from the other
// side, whichever of two gnubg processes judges it; a missing program is
// an error.
func TestJudge(t *testing.T) {
	bin := peertest.Gnubg(t)
	boards := []bg.Board{raceAhead, raceBehind, raceAhead, raceBehind, bg.Standard.StartBoard()}
	var calls int
	probs, err := Judge(context.Background(), bin, 0, 2, boards, func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range probs[:4] {
		win := p[0]
		if ahead := i%2 == 0; ahead && win < 0.9 || !ahead && win > 0.1 {
			t.Errorf("position %d: %v", i, p)
		}
	}
	if start := probs[4][0]; start < 0.45 || start > 0.6 || calls != len(boards) {
		t.Errorf("start position %v, %d progress calls", probs[4], calls)
	}
	if _, err := Judge(context.Background(), "/nonexistent/gnubg", 0, 2, boards, nil); err == nil {
		t.Error("a missing gnubg judged")
	}
}
