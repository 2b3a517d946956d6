package ringmaster_test

import (
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
