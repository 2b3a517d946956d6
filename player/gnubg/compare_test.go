package gnubg

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// BenchmarkCompare0Ply sets bgbot's net and gnubg side by side on the same
// 200 positions (each a roll to play): bgbot called directly, bgbot through
// the protocol over in-memory pipes (set_position + genmove), gnubg
// through its external interface via the adapter (the same two commands),
// and gnubg's bare socket (one board line, one answer). Both engines cache
// evaluations, so run it with -benchtime 200x (one pass over the positions):
// further passes measure the caches more than the engines.
func BenchmarkCompare0Ply(b *testing.B) {
	positions := benchPositions(200)

	b.Run("bgbot-direct", func(b *testing.B) {
		bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet})
		if err != nil {
			b.Fatal(err)
		}
		rules := bg.Rules{Variant: bg.Standard, Cube: true}
		cpu := startCPU(b)
		for i := 0; b.Loop(); i++ {
			ps := positions[i%len(positions)]
			s, err := gnubgid.DecodeState(ps[0], ps[1], rules)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := bot.Move(s); err != nil {
				b.Fatal(err)
			}
		}
		cpu.report()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
	})
	run := func(b *testing.B, p player.Player, pids ...int) { benchDecisions(b, p, positions, pids...) }
	b.Run("bgbot-protocol", func(b *testing.B) {
		e, err := gtpengine.New(gtpengine.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		p := player.NewInProcess(gtpengine.NewServer(e))
		defer p.Close()
		run(b, p)
	})
	b.Run("gnubg-protocol", func(b *testing.B) {
		p := launch(b, Options{})
		run(b, p, p.pid)
	})
	// The bare socket: one board line and gnubg's answer, with the lines
	// made beforehand, to show what the adapter's own work costs.
	b.Run("gnubg-socket", func(b *testing.B) {
		benchSocket(b, launch(b, Options{}), positions)
	})
}

// benchSocket times gnubg's answers to the board lines of positions sent
// through p's bare socket, the lines made beforehand.
func benchSocket(b *testing.B, p *Player, positions [][2]string) {
	ctx := context.Background()
	rules := bg.Rules{Variant: bg.Standard, Cube: true}
	lines := make([]string, len(positions))
	for i, ps := range positions {
		s, err := gnubgid.DecodeState(ps[0], ps[1], rules)
		if err != nil {
			b.Fatal(err)
		}
		lines[i] = p.eng.boardLine(s, s.Move)
	}
	cpu := startCPU(b, p.pid)
	for i := 0; b.Loop(); i++ {
		if _, err := p.eng.request(ctx, lines[i%len(lines)]); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkCompareDeep is BenchmarkCompare0Ply at 1 and 2 plies: bgbot
// served in process and gnubg through its external interface, the same
// 200 positions, decisions (set_position + genmove) per second, and
// gnubg's bare socket; -benchtime 200x, as for BenchmarkCompare0Ply.
func BenchmarkCompareDeep(b *testing.B) {
	positions := benchPositions(200)
	run := func(b *testing.B, p player.Player, pids ...int) { benchDecisions(b, p, positions, pids...) }
	for _, plies := range []int{1, 2} {
		b.Run(fmt.Sprintf("%dply/bgbot-protocol", plies), func(b *testing.B) {
			o := gtpengine.DefaultOptions()
			o.Plies = plies
			e, err := gtpengine.New(o)
			if err != nil {
				b.Fatal(err)
			}
			p := player.NewInProcess(gtpengine.NewServer(e))
			defer p.Close()
			run(b, p)
		})
		b.Run(fmt.Sprintf("%dply/gnubg-protocol", plies), func(b *testing.B) {
			p := launch(b, Options{Plies: plies})
			run(b, p, p.pid)
		})
		b.Run(fmt.Sprintf("%dply/gnubg-socket", plies), func(b *testing.B) {
			benchSocket(b, launch(b, Options{Plies: plies}), positions)
		})
	}
}

// benchDecisions times set_position + genmove through p over positions;
// pids are the engine's processes, if it has any.
func benchDecisions(b *testing.B, p player.Player, positions [][2]string, pids ...int) {
	ctx := context.Background()
	c := &bgcmd.Client{R: p}
	if err := c.SetGame(ctx, bgcmd.GameRules{Variant: "standard"}); err != nil {
		b.Fatal(err)
	}
	cpu := startCPU(b, pids...)
	for i := 0; b.Loop(); i++ {
		ps := positions[i%len(positions)]
		if err := c.SetPosition(ctx, ps[0], ps[1]); err != nil {
			b.Fatal(err)
		}
		if _, err := c.GenMove(ctx); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}

// cpuClock reads the CPU time that the threads of this process and of the
// engine's processes have run, so that a benchmark on a busy machine can
// report what each decision costs in CPU beside what it takes in wall
// time (which there counts the time spent waiting for a core).
type cpuClock struct {
	b     *testing.B
	pids  []int
	start time.Duration
}

// startCPU reads the clock of this process and pids.
func startCPU(b *testing.B, pids ...int) *cpuClock {
	c := &cpuClock{b: b, pids: append([]int{os.Getpid()}, pids...)}
	c.start = c.read()
	return c
}

// read sums the run time of every thread of the clock's processes, in
// nanoseconds, from /proc/PID/task/TID/schedstat (0 where there is none).
func (c *cpuClock) read() time.Duration {
	var total time.Duration
	for _, pid := range c.pids {
		stats, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
		for _, path := range stats {
			data, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			var ns int64
			if _, err := fmt.Sscan(string(data), &ns); err == nil {
				total += time.Duration(ns)
			}
		}
	}
	return total
}

// report adds the CPU microseconds a decision took since startCPU.
func (c *cpuClock) report() {
	if used := c.read() - c.start; used > 0 {
		c.b.ReportMetric(float64(used.Microseconds())/float64(c.b.N), "cpu-us/decision")
	}
}
