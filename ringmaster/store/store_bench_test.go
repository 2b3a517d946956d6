//go:build unix

package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkGameWrites is what the store costs a run for each game it
// plays: the start (MarkRunning), the void count checked before it
// (VoidedBy) and the finish with a 9x9 Go game's statistics and a 3 kB
// record (Finish).
func BenchmarkGameWrites(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "comp.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	run, err := s.StartRun(ctx)
	if err != nil {
		b.Fatal(err)
	}
	sgf := "(;FF[4]GM[1]SZ[9]KM[7.5]" + strings.Repeat(";B[aa];W[bb]", 128) + ")"
	cpu0 := selfCPU()
	b.ResetTimer()
	for i := range b.N {
		id := fmt.Sprintf("go_%d", i)
		if _, err := s.VoidedBy(ctx, id); err != nil {
			b.Fatal(err)
		}
		if err := s.MarkRunning(ctx, GameStart{GameID: id, MatchupID: "go", Number: i, PlayerA: "b", PlayerB: "w", RunID: run,
			DefA: `{"command":["fakego"]}`, DefB: `{"command":["fakego"]}`}); err != nil {
			b.Fatal(err)
		}
		res := GameResult{GameID: id, MatchupID: "go", Number: i, PlayerA: "b", PlayerB: "w", Winner: "b", Result: "B+12.5",
			Ending: EndNormal, Moves: 129, A: Side{Points: 1, CPU: 20 * time.Millisecond, Decisions: 65}, B: Side{CPU: 20 * time.Millisecond, Decisions: 64},
			Stats: map[string][2]int{"captures": {3, 4}}, Records: map[string]string{"sgf": sgf}}
		if err := s.Finish(ctx, res); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(selfCPU()-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
}

// selfCPU is the CPU time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
