package gnubgjudge

import (
	"context"
	"os"
	"testing"

	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
)

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// With the real gnubg, judging a record gives what gnubg's own analysis
// of the same file prints, at 0 ply and at 1 ply (a deeper judge sees
// other errors).
func TestAnalyseMatWithGnubg(t *testing.T) {
	bin := peertest.Gnubg(t)
	mat := readFile(t, "../../../engine/bgbot/analysis/testdata/gnubg-3pt-match.mat")
	j, err := New(bin, 0)
	if err != nil {
		t.Fatal(err)
	}
	names, st, err := j.AnalyseMat(context.Background(), mat)
	if err != nil {
		t.Fatal(err)
	}
	want, err := verdict.ReadStatistics(readFile(t, "../../../player/gnubg/verdict/testdata/statistics-3pt-match.txt"), true)
	if err != nil {
		t.Fatal(err)
	}
	if names != want.Names || st != want.Stats {
		t.Errorf("got %v %+v\nwant %+v", names, st, want)
	}
	if _, err := New(bin, MaxPlies+1); err == nil {
		t.Error("depth beyond gnubg's: no error")
	}
	if _, _, err := j.AnalyseMat(context.Background(), "not a match\n"); err == nil {
		t.Error("a record gnubg cannot import: no error")
	}
	var zero [2]analysis.Stats
	if st == zero {
		t.Error("no figures")
	}
}

// A judge whose context is cancelled returns the context's error, which
// the analysis loop tells apart from a record gnubg could not judge.
func TestAnalyseMatCancelled(t *testing.T) {
	bin := peertest.Gnubg(t)
	j, err := New(bin, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := j.AnalyseMat(ctx, readFile(t, "../../../engine/bgbot/analysis/testdata/gnubg-3pt-match.mat")); err != context.Canceled {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}
