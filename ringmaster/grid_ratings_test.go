package ringmaster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// storedAllPlayAll writes the golden all-play-all's control file and its
// synthetic results, with c losing every game, into a real database.
func storedAllPlayAll(t *testing.T) *Ringmaster {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "grid.toml")
	if err := os.WriteFile(path, []byte(goldenAllPlayAll), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := New(path, backgammon.New())
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.openStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run, err := st.StartRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range r.Comp.Matchups {
		for _, res := range synthetic(m, 6, uint64(10+i), 0, 0) {
			if res.PlayerA == "c" || res.PlayerB == "c" {
				winner, loser := &res.A, &res.B
				res.Winner = res.PlayerA
				if res.PlayerA == "c" {
					winner, loser = loser, winner
					res.Winner = res.PlayerB
				}
				winner.Points, loser.Points = 1, -1
			}
			if err := st.MarkRunning(ctx, store.GameStart{GameID: res.GameID, MatchupID: res.MatchupID, Number: res.Number,
				PlayerA: res.PlayerA, PlayerB: res.PlayerB, Swapped: res.Swapped, RunID: run}); err != nil {
				t.Fatal(err)
			}
			if err := st.Finish(ctx, res); err != nil {
				t.Fatal(err)
			}
		}
	}
	return r
}

// TestGridAndRatingsAgree: on an all-play-all where c lost every game,
// the report's grid and `ringmaster ratings` print the same ratings from
// one fit with the default prior, c's finite with a wide interval; with
// no prior the fit refuses c's infinite rating.
func TestGridAndRatingsAgree(t *testing.T) {
	ctx := context.Background()
	r := storedAllPlayAll(t)
	var shown bytes.Buffer
	if err := r.Show(ctx, &shown); err != nil {
		t.Fatal(err)
	}
	table, err := Ratings(ctx, []*Ringmaster{r}, RatingsOptions{Prior: DefaultPrior})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range table.Table.Players {
		row := fmt.Sprintf("  %-12s %+6.0f  (%+.0f to %+.0f)  %s\n", p.Player, p.Rating, p.Low, p.High, plural(int(p.Games), "game"))
		if !strings.Contains(shown.String(), row) {
			t.Errorf("the grid lacks ratings' row %q:\n%s", row, shown.String())
		}
	}
	c, ok := table.Table.Rating("c")
	if !ok || c.Score != 0 || c.Games != 12 {
		t.Fatalf("c: %+v, want 12 games and no point", c)
	}
	if !(c.Rating < -200) || !(c.High-c.Low > 600) || c.High-c.Low > 1e4 {
		t.Errorf("c who lost every game: %.0f (%.0f to %.0f), want finite, low and wide", c.Rating, c.Low, c.High)
	}
	a, _ := table.Table.Rating("a")
	if !(a.High-a.Low < c.High-c.Low) {
		t.Errorf("a's interval %.0f wide is not narrower than c's %.0f", a.High-a.Low, c.High-c.Low)
	}

	_, err = Ratings(ctx, []*Ringmaster{r}, RatingsOptions{Prior: 0})
	if err == nil || !strings.Contains(err.Error(), `"c" won or lost every game`) || !strings.Contains(err.Error(), "--prior") {
		t.Errorf("prior 0: %v, want the maximum-likelihood refusal naming c", err)
	}
}
