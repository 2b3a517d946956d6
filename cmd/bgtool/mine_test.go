package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// TestMinePositions: every mined position passes the filter (class, the
// mover's pip lead, the cube), is a game in play with no dice rolled, the
// sample is the size asked and the same for the same seed.
func TestMinePositions(t *testing.T) {
	// Committed match records (ringmaster runs' .games folders are not in
	// the tree).
	records, _ := filepath.Glob("../../engine/bgbot/analysis/testdata/xcheck/*.mat")
	more, _ := filepath.Glob("../../player/gnubg/verdict/testdata/*.mat")
	records = append(records, more...)
	if len(records) == 0 {
		t.Fatal("no committed match records")
	}
	mine := func(args ...string) []string {
		var out, errs bytes.Buffer
		if code := run(context.Background(), append([]string{"mine-positions"}, append(args, records...)...), nil, &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		var ids []string
		for _, l := range strings.Split(out.String(), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				ids = append(ids, l)
			}
		}
		return ids
	}
	ids := mine("--class", "contact", "--lead", "-80..-30", "--cube", "centred", "--limit", "6", "--seed", "3")
	if len(ids) != 6 {
		t.Fatalf("%d positions, want 6", len(ids))
	}
	for _, id := range ids {
		pos, match, _ := strings.Cut(id, ":")
		s, err := gnubgid.DecodeState(pos, match, backgammon.Rules{Cube: true})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		lead := s.Board.Pips(backgammon.Opponent) - s.Board.Pips(backgammon.OnRoll)
		if c := mineClass(&s.Board); c != "contact" || lead < -80 || lead > -30 || s.CubeOwner != -1 ||
			s.Dice != [2]int{} || s.GameState != backgammon.GamePlaying {
			t.Errorf("%s: class %s, lead %d, cube owner %d, dice %v", id, c, lead, s.CubeOwner, s.Dice)
		}
	}
	if again := mine("--class", "contact", "--lead", "-80..-30", "--cube", "centred", "--limit", "6", "--seed", "3"); strings.Join(again, " ") != strings.Join(ids, " ") {
		t.Errorf("the same seed sampled %v, then %v", ids, again)
	}
	bearoffs := mine("--class", "bearoff", "--limit", "0")
	if len(bearoffs) == 0 {
		t.Error("no bearoff positions in the example records")
	}
	for _, id := range bearoffs {
		pos, _, _ := strings.Cut(id, ":")
		b, err := gnubgid.DecodePosition(pos)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if !bgbot.IsBearoff(&b) {
			t.Errorf("%s is no bearoff position", id)
		}
	}
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"mine-positions", "--lead", "-20", records[0]}, nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), "MIN..MAX") {
		t.Errorf("--lead -20: exit %d, %q; want a usage error", code, errs.String())
	}
}
