package ringmaster_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// The ringmaster's own cost per game, on the two workloads of
// docs/results/2026-11-28-ringmaster-overhead.md: a 9x9 Go game between
// two fakego engines, and a backgammon money game between two bgbot 0-ply
// subprocesses, each with a fresh engine process per game (restart
// per_game) and with engines kept between games (never). Each plays b.N
// games in this process at --parallel 1 and reports this process's CPU per game (the ringmaster's
// own: the engines are separate processes) beside the engines' CPU per
// game (the reaped children).

const goOverheadControl = `competition_type = "playoff"
game = "go"
seed = 1
board_size = 9
komi = 7.5

[players.b]
command = [%[1]q]
restart = %[3]q

[players.w]
command = [%[1]q]
restart = %[3]q

[[matchups]]
id = "go"
players = ["b", "w"]
number_of_games = %[2]d
`

const bgOverheadControl = `competition_type = "playoff"
game = "backgammon"
seed = 1

[players.net1]
command = [%[1]q, "--level", "net", "--plies", "0"]
restart = %[3]q

[players.net2]
command = [%[1]q, "--level", "net", "--plies", "0"]
restart = %[3]q

[[matchups]]
id = "money"
players = ["net1", "net2"]
number_of_games = %[2]d
`

func BenchmarkOverheadGo(b *testing.B) {
	for _, restart := range []string{"per_game", "never"} {
		b.Run(restart, func(b *testing.B) {
			benchOverhead(b, fmt.Sprintf(goOverheadControl, fakeGo, b.N, restart))
		})
	}
}

func BenchmarkOverheadBackgammon(b *testing.B) {
	bgbot := buildOnce(b, "../cmd/bgbot")
	for _, restart := range []string{"per_game", "never"} {
		b.Run(restart, func(b *testing.B) {
			benchOverhead(b, fmt.Sprintf(bgOverheadControl, bgbot, b.N, restart))
		})
	}
}

// benchOverhead runs the competition ctl (of b.N games) and reports the
// ringmaster's CPU and the engines' CPU per game in milliseconds.
func benchOverhead(b *testing.B, ctl string) {
	path := writeControl(b, b.TempDir(), "overhead.toml", ctl)
	rm, err := ringmaster.New(path, games.All()...)
	if err != nil {
		b.Fatal(err)
	}
	self0, child0 := cpuTimes()
	b.ResetTimer()
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: io.Discard})
	b.StopTimer()
	if err != nil || status != ringmaster.Finished {
		b.Fatalf("run: %v %v", status, err)
	}
	self1, child1 := cpuTimes()
	perGame := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(perGame(self1-self0), "ringmaster-ms/game")
	b.ReportMetric(perGame(child1-child0), "engines-ms/game")
}

// BenchmarkOverheadRoundTrip is the floor under the Go workload: one
// command round trip (genmove) with nothing else around it, the
// ringmaster's CPU per round trip, to one fakego engine kept for all of
// them (one) and to two in turn (alternating), as in a game. A 9x9 game
// of BenchmarkOverheadGo is about 134 of them in batches (a move told with
// the next genmove), 268 one command at a time.
func BenchmarkOverheadRoundTrip(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run(map[int]string{1: "one", 2: "alternating"}[n], func(b *testing.B) {
			ctx := context.Background()
			var engs []*player.Process
			for range n {
				eng, err := player.Launch(ctx, player.Spec{Argv: []string{fakeGo}, Timeout: time.Minute})
				if err != nil {
					b.Fatal(err)
				}
				defer eng.Close()
				engs = append(engs, eng)
			}
			do := func(eng *player.Process, cmd string, args ...string) {
				if _, err := eng.Do(ctx, cmd, args...); err != nil {
					b.Fatal(err)
				}
			}
			for _, eng := range engs {
				do(eng, "boardsize", "9")
			}
			self0, _ := cpuTimes()
			b.ResetTimer()
			for i := range b.N {
				eng := engs[i%n]
				if i%100 < n {
					do(eng, "clear_board")
				}
				do(eng, "genmove", [2]string{"b", "w"}[(i/n)%2]) // each engine plays both colours in turn
			}
			b.StopTimer()
			self1, _ := cpuTimes()
			b.ReportMetric(float64(self1-self0)/float64(time.Microsecond)/float64(b.N), "ringmaster-µs/roundtrip")
		})
	}
}

var (
	builtMu sync.Mutex
	built   = map[string]string{}
)

// buildOnce builds the command in package dir (relative to this package)
// once per test binary and returns its path.
func buildOnce(tb testing.TB, pkg string) string {
	tb.Helper()
	builtMu.Lock()
	defer builtMu.Unlock()
	if bin, ok := built[pkg]; ok {
		return bin
	}
	dir, err := os.MkdirTemp("", "gamemill-bench-bin")
	if err != nil {
		tb.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(pkg))
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	built[pkg] = bin
	return bin
}

// gomillShim runs gomill's ringmaster and then writes the CPU time of the
// Python process itself (not of the engines it ran) to the file named by
// GOMILL_SELF_CPU.
const gomillShim = `import os, resource, sys
sys.path.insert(0, os.environ["GOMILL_SRC"])
from gomill import ringmaster_command_line
try:
    sys.argv = ["ringmaster"] + sys.argv[1:]
    ringmaster_command_line.main()
finally:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    open(os.environ["GOMILL_SELF_CPU"], "w").write("%.6f\n" % (ru.ru_utime + ru.ru_stime))
`

// BenchmarkOverheadGoVsGomill plays the same 9x9 Go games between two
// fakego engines with this ringmaster (in this process) and with gomill
// 0.8.3's ringmaster (python2), one game at a time with game records
// written, and reports each one's own CPU per game and their ratio: ours
// with a fresh engine process per game, as gomill plays, and ours again
// with engines kept between games, which gomill cannot do.
// gomill runs without --parallel: given any worker count, even 1, it
// plays its games in a multiprocessing worker whose CPU its own process
// does not count. It
// needs gomill's source in GOMILL_SRC (the directory holding the gomill
// package) and python2 (PYTHON2, default "python2"); without them it is
// skipped.
func BenchmarkOverheadGoVsGomill(b *testing.B) {
	src := os.Getenv("GOMILL_SRC")
	if src == "" {
		b.Skip("gomill not found: set GOMILL_SRC to the directory of gomill 0.8.3's source (it holds gomill/ringmaster_command_line.py)")
	}
	if _, err := os.Stat(filepath.Join(src, "gomill", "ringmaster_command_line.py")); err != nil {
		b.Skipf("gomill not found in GOMILL_SRC: %v", err)
	}
	python := os.Getenv("PYTHON2")
	if python == "" {
		python = "python2"
	}
	if _, err := exec.LookPath(python); err != nil {
		b.Skipf("gomill needs Python 2: %v", err)
	}
	ours := benchOwnCPU(b, fmt.Sprintf(goOverheadControl, fakeGo, b.N, "per_game"))
	oursKept := benchOwnCPU(b, fmt.Sprintf(goOverheadControl, fakeGo, b.N, "never"))

	dir := b.TempDir()
	ctl := filepath.Join(dir, "overhead.ctl")
	gomillCtl := fmt.Sprintf(`competition_type = 'playoff'
board_size = 9
komi = 7.5
record_games = True
players = {
    'b' : Player(%[1]q),
    'w' : Player(%[1]q),
    }
matchups = [
    Matchup('b', 'w', alternating=True, number_of_games=%[2]d),
    ]
`, fakeGo, b.N)
	if err := os.WriteFile(ctl, []byte(gomillCtl), 0o644); err != nil {
		b.Fatal(err)
	}
	shim := filepath.Join(dir, "shim.py")
	if err := os.WriteFile(shim, []byte(gomillShim), 0o644); err != nil {
		b.Fatal(err)
	}
	cpuFile := filepath.Join(dir, "gomill.cpu")
	cmd := exec.Command(python, shim, ctl, "run", "--quiet")
	cmd.Env = append(os.Environ(), "GOMILL_SRC="+src, "GOMILL_SELF_CPU="+cpuFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("gomill: %v\n%s", err, out)
	}
	data, err := os.ReadFile(cpuFile)
	if err != nil {
		b.Fatal(err)
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
	if err != nil {
		b.Fatal(err)
	}
	theirs := time.Duration(secs * float64(time.Second))
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(ms(ours), "ringmaster-ms/game")
	b.ReportMetric(ms(oursKept), "ringmaster-kept-ms/game")
	b.ReportMetric(ms(theirs), "gomill-ms/game")
	if theirs > 0 {
		b.ReportMetric(float64(ours)/float64(theirs), "ringmaster/gomill")
		b.ReportMetric(float64(oursKept)/float64(theirs), "ringmaster-kept/gomill")
	}
}

// benchOwnCPU runs the competition ctl in this process and returns this
// process's CPU for it.
func benchOwnCPU(b *testing.B, ctl string) time.Duration {
	path := writeControl(b, b.TempDir(), "overhead.toml", ctl)
	rm, err := ringmaster.New(path, games.All()...)
	if err != nil {
		b.Fatal(err)
	}
	self0, _ := cpuTimes()
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: io.Discard})
	if err != nil || status != ringmaster.Finished {
		b.Fatalf("run: %v %v", status, err)
	}
	self1, _ := cpuTimes()
	return self1 - self0
}
