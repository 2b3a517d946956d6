package backgammon

import (
	"context"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/judge/gnubgjudge"
)

// A game from a start position with no SGF record to set it up is refused
// by the gnubg judge, whose .mat import would replay its moves from the
// opening position, before gnubg is run.
func TestGnubgJudgeRefusesStartPositions(t *testing.T) {
	const rec = `; [Event "suite p_00"]

; game 1 starts at NrsRQwALD3IAPA:UQlgAAAAAAAE
 0 point match

 Game 1
 net : 0                        noisy : 0
  1)                             35: 11/8* 8/3
  2) 26: 25/23* 10/4
`
	gj, err := gnubgjudge.New("/bin/true", 2) // never run
	if err != nil {
		t.Fatal(err)
	}
	j := &gnubgJudge{j: gj}
	_, err = j.Analyse(context.Background(), map[string]string{"mat": rec})
	if err == nil || !strings.Contains(err.Error(), "NrsRQwALD3IAPA:UQlgAAAAAAAE") || !strings.Contains(err.Error(), "--judge bgbot:2") {
		t.Errorf("gnubg judge of a game from a start position: %v; want a refusal naming the position and the bgbot judge", err)
	}
}
