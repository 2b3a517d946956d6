package ringmaster_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// These tests each cover a finding of the third hostile review (engines
// that flood or cheat, damaged databases); each failed on the code before
// its fix.

// peakHeap samples the heap in use until stop is called, and returns the
// highest figure seen.
func peakHeap() (stop func() uint64) {
	var (
		wg   sync.WaitGroup
		peak uint64
	)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}

// An engine that answered "= 24/23" and then streamed short lines without
// the blank line that ends a response grew the ringmaster by about 330 MB
// a second until its timeout. A response is now capped in lines and
// bytes, and the engine past the cap forfeits.
func TestFloodingEngineForfeits(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "flood.toml", strings.Replace(fakeControl(2, "", ""), "command = [\""+fakeEngine+"\"]\n\n[players.b]",
		"command = [\""+fakeEngine+"\", \"--mode\", \"flood\"]\ntimeout = \"3s\"\n\n[players.b]", 1))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := peakHeap()
	_, err = quietRun(t, rm, 1)
	peak := stop()
	if err != nil {
		t.Fatal(err)
	}
	growth := int64(peak) - int64(before.HeapAlloc)
	t.Logf("heap before the run %.1f MiB, peak during it %.1f MiB (growth %.1f MiB)",
		float64(before.HeapAlloc)/(1<<20), float64(peak)/(1<<20), float64(growth)/(1<<20))
	if growth > 64<<20 {
		t.Errorf("the heap grew by %d MiB during a flood (a response is capped at %d MiB)", growth>>20, 4)
	}
	results := readResults(t, rm.DBPath())
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		if r.winner != "b" || r.result != "forfeit" || !strings.Contains(r.detail, "forfeit by a") || !strings.Contains(r.detail, "response longer than") {
			t.Errorf("game %s: winner %q, result %q, detail %q; want a forfeit by a for a response too long", r.gameID, r.winner, r.result, r.detail)
		}
	}
}

// An engine that exited whenever it was losing made each such game void;
// the replay (same dice) was voided again and the game left unplayed, so
// the engine erased its losses. A game voided again by the same player is
// now that player's forfeit, in the same run or a later one.
func TestQuittingWhenLosingForfeits(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "quit.toml", strings.Replace(fakeControl(6, "", ""), "command = [\""+fakeEngine+"\"]\n\n[players.b]",
		"command = [\""+fakeEngine+"\", \"--mode\", \"quit-losing\"]\n\n[players.b]", 1))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	// The first run gives each game one attempt: the quitter's games are
	// voided once and left for the next run.
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, MaxVoids: 1,
		Display: io.Discard, Errors: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	first := readResults(t, rm.DBPath())
	quit := 6 - len(first)
	if quit == 0 || status != ringmaster.Incomplete {
		t.Fatalf("status %v with %d of 6 games played: the quitter never quit", status, len(first))
	}
	t.Logf("a quit %d of 6 games in the first run", quit)
	// The next run replays them: the quitter quits again and forfeits.
	if status, err = quietRun(t, rm, 1); err != nil || status != ringmaster.Finished {
		t.Fatalf("second run: %v, %v; want every game played", status, err)
	}
	results := readResults(t, rm.DBPath())
	if len(results) != 6 {
		t.Fatalf("%d results, want 6", len(results))
	}
	forfeits := 0
	for _, r := range results {
		if r.result == "forfeit" {
			forfeits++
			if r.winner != "b" || !strings.Contains(r.detail, "forfeit by a") || !strings.Contains(r.detail, "second void of this game by a") {
				t.Errorf("game %s: winner %q, detail %q; want a's forfeit for voiding the game again", r.gameID, r.winner, r.detail)
			}
		}
	}
	if forfeits != quit {
		t.Errorf("%d forfeits, want one for each of the %d games a voided", forfeits, quit)
	}
	// Within one run, the second attempt settles it too.
	dir2 := t.TempDir()
	rm2, err := ringmaster.New(writeControl(t, dir2, "quit.toml", strings.Replace(fakeControl(6, "", ""), "command = [\""+fakeEngine+"\"]\n\n[players.b]",
		"command = [\""+fakeEngine+"\", \"--mode\", \"quit-losing\"]\n\n[players.b]", 1)), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if status, err := quietRun(t, rm2, 2); err != nil || status != ringmaster.Finished {
		t.Fatalf("one run: %v, %v; want every game played", status, err)
	}
	var out strings.Builder
	if err := rm2.Show(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "void: player a"); n != quit {
		t.Errorf("%d void attempts blamed on a in the report, want %d (one a game):\n%s", n, quit, out.String())
	}
}

// In Go, an engine that claimed the win in final_score turned each of its
// losses into "?" (players disagreed), which no rating counts. The
// dispute is now charged to the player whose claim the referee's area
// count does not back, reported per player (text and JSON), and a player
// with disputes is not rated.
func TestDisputedScoresNotRated(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "dispute.toml", fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 5
komi = 0.5
number_of_games = 4

[players.liar]
command = [%q, "--claim-score"]

[players.honest]
command = [%q]

# Black wins these engines' games: the liar wins as Black and disputes
# its losses as White.
[[matchups]]
id = "m"
players = ["honest", "liar"]
alternating = true
`, fakeGo, fakeGo))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	disputed := 0
	for _, r := range readResults(t, rm.DBPath()) {
		if r.result == "?" {
			disputed++
			if r.winner != "" || !strings.Contains(r.detail, "players disagreed") || !strings.Contains(r.detail, "area count") {
				t.Errorf("game %s: winner %q, detail %q", r.gameID, r.winner, r.detail)
			}
		}
	}
	if disputed != 2 {
		t.Fatalf("%d disputed games, want the 2 the liar lost as White", disputed)
	}
	var text strings.Builder
	if err := rm.Show(context.Background(), &text); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("honest 0, liar %d; a player with disputes is not rated", disputed); !strings.Contains(text.String(), want) {
		t.Errorf("the report does not charge the disputes to the liar (want %q):\n%s", want, text.String())
	}
	// The liar's 2 wins and no losses would give it an Elo edge.
	if !strings.Contains(text.String(), "Elo honest - liar: not given: 2 disputed results") {
		t.Errorf("the matchup's Elo is not withheld:\n%s", text.String())
	}
	var js strings.Builder
	if err := rm.ShowJSON(context.Background(), &js); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"scoring_disputes":[0,%d]`, disputed); !strings.Contains(strings.Join(strings.Fields(js.String()), ""), want) {
		t.Errorf("show --json lacks %s:\n%s", want, js.String())
	}
	if strings.Contains(js.String(), `"elo":`) || !strings.Contains(js.String(), `"elo_withheld": "2 disputed results`) {
		t.Errorf("show --json gives an Elo, or not why it is withheld:\n%s", js.String())
	}
	_, err = ringmaster.Ratings(context.Background(), []*ringmaster.Ringmaster{rm}, ringmaster.RatingsOptions{})
	if want := fmt.Sprintf("not rated: liar (%d disputed result", disputed); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ratings with a disputing player: %v\nwant a refusal naming it: %q", err, want)
	}
}
