package ringmaster_test

import (
	"context"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

func cpuTimes() (self, children time.Duration) {
	var s, c syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(s.Utime) + tv(s.Stime), tv(c.Utime) + tv(c.Stime)
}

// BenchmarkRingmasterPerGame measures the ringmaster's own cost per game
// with two trivial subprocess engines (deterministic random movers) at
// --parallel 2: games per second, and the ratio of the ringmaster's CPU
// (this process, which includes the test's own setup) to the engines' CPU
// (the reaped children).
func BenchmarkRingmasterPerGame(b *testing.B) {
	ctl := fmt.Sprintf(`competition_type = "playoff"
game = "backgammon"
seed = 1
cube = false

[players.r1]
command = [%[1]q]

[players.r2]
command = [%[1]q]

[[matchups]]
id = "bench"
players = ["r1", "r2"]
number_of_games = %[2]d
`, fakeEngine, b.N)
	path := writeControl(b, b.TempDir(), "bench.toml", ctl)
	rm, err := ringmaster.New(path, games.All()...)
	if err != nil {
		b.Fatal(err)
	}
	self0, child0 := cpuTimes()
	start := time.Now()
	b.ResetTimer()
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: io.Discard})
	b.StopTimer()
	if err != nil || status != ringmaster.Finished {
		b.Fatalf("run: %v %v", status, err)
	}
	elapsed := time.Since(start)
	self1, child1 := cpuTimes()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "games/s")
	if engines := child1 - child0; engines > 0 {
		b.ReportMetric(float64(self1-self0)/float64(engines), "ringmaster-cpu/engine-cpu")
	}
}
