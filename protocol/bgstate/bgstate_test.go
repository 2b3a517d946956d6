package bgstate

import (
	"errors"
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

func TestKeeper(t *testing.T) {
	var k Keeper
	if _, err := k.Need(bg.DecideMove); !errors.Is(err, ErrNoPosition) {
		t.Errorf("decision before set_position: %v", err)
	}
	if err := k.SetGame(bgcmd.GameRules{Variant: "nope"}); err == nil {
		t.Error("an unknown variant was accepted")
	}
	if err := k.SetGame(bgcmd.GameRules{Variant: "standard", MatchLength: 5, Crawford: true}); err != nil {
		t.Fatal(err)
	}
	if r := k.GameRules(); r.MatchLength != 5 || !r.Crawford || !r.Cube {
		t.Errorf("rules %+v", r)
	}
	s := bg.NewMatch(k.GameRules())
	if err := s.StartGame(1, 5, 2); err != nil {
		t.Fatal(err)
	}
	pos, match := gnubgid.Encode(s)
	if err := k.SetPosition(pos, match); err != nil {
		t.Fatal(err)
	}
	got, err := k.Need(bg.DecideMove)
	if err != nil || got.Move != 1 || got.Dice != [2]int{5, 2} {
		t.Fatalf("state %+v, %v", got, err)
	}
	if _, err := k.Need(bg.DecideTake); err == nil || !strings.Contains(err.Error(), "move decision") {
		t.Errorf("wrong decision: %v", err)
	}
	money := bg.NewMatch(bg.Rules{Cube: true})
	money.StartGame(0, 3, 1)
	pos, match = gnubgid.Encode(money)
	if err := k.SetPosition(pos, match); err == nil || !strings.Contains(err.Error(), "set_game said 5") {
		t.Errorf("a money match ID after set_game 5: %v", err)
	}
	if _, err := k.State(); !errors.Is(err, ErrNoPosition) {
		t.Errorf("a failed set_position must forget the old position: %v", err)
	}
	if err := k.SetPosition("garbage", match); err == nil {
		t.Error("a bad position ID was accepted")
	}
}
