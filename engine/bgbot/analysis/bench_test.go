package analysis

import (
	"context"
	"path/filepath"
	"testing"
)

// benchAnalyse analyses a 5-point match of 5 games (224 moves, bgbot
// against gnubg, both noisy) at the given depth; the analyser is built
// once, outside the timing.
func benchAnalyse(b *testing.B, plies int) {
	m := loadMat(b, filepath.Join("testdata", "xcheck", "b8g3_02.mat"))
	a, err := New(Config{Plies: plies})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := a.AnalyseMatch(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyse5PointMatch0Ply(b *testing.B) { benchAnalyse(b, 0) }
func BenchmarkAnalyse5PointMatch1Ply(b *testing.B) { benchAnalyse(b, 1) }
func BenchmarkAnalyse5PointMatch2Ply(b *testing.B) { benchAnalyse(b, 2) }

// BenchmarkNewAnalyser is the one-off cost of an analyser: the network's
// weights and the bearoff database.
func BenchmarkNewAnalyser(b *testing.B) {
	for b.Loop() {
		if _, err := New(Config{}); err != nil {
			b.Fatal(err)
		}
	}
}
