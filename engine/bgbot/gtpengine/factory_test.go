package gtpengine

import (
	"context"
	"sync"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// TestFactory builds engines concurrently from one Factory, as the
// ringmaster's workers do, and checks each answers through the protocol;
// bad arguments are refused.
func TestFactory(t *testing.T) {
	var f Factory
	if _, err := f.Server([]string{"--level", "grandmaster"}); err == nil {
		t.Error("a bad level was accepted")
	}
	if _, err := f.Server([]string{"--weights", "/nonexistent.bgnet"}); err == nil {
		t.Error("a missing weights file was accepted")
	}
	st := backgammon.NewMatch(backgammon.Rules{Cube: true})
	if err := st.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	pos, match := gnubgid.Encode(st)
	var wg sync.WaitGroup
	for i, args := range [][]string{{"--level", "net"}, {"--level", "net", "--seed", "7"}, {"--level", "heuristic"}, {}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv, err := f.Server(args)
			if err != nil {
				t.Errorf("engine %d: %v", i, err)
				return
			}
			p := player.NewInProcess(srv)
			defer p.Close()
			c := &bgcmd.Client{R: p}
			ctx := context.Background()
			if err := c.SetPosition(ctx, pos, match); err != nil {
				t.Errorf("engine %d: %v", i, err)
				return
			}
			if m, err := c.GenMove(ctx); err != nil || m == "" {
				t.Errorf("engine %d: genmove %q, %v", i, m, err)
			}
		}()
	}
	wg.Wait()
	if len(f.weights) != 1 || len(f.bearoff) != 1 {
		t.Errorf("the net engines did not share one set of weights and one bearoff database: %d weights", len(f.weights))
	}
}
