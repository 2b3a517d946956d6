// Command fakebg is a scripted backgammon engine for the ringmaster's
// tests. It speaks the backgammon command set and, by default, plays a
// legal move chosen deterministically from the position (so a replayed game
// is played the same way), never doubles and always takes. Flags make it
// misbehave after a number of genmove requests.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/bgstate"
)

type engine struct {
	bgstate.Keeper
	spew    int // bytes of stderr written at each genmove
	moves   int
	after   int
	mode    string
	doubles bool
	// cubes counts gencube requests; after cubeFailsAfter of them (when
	// not negative) gencube fails.
	cubes, cubeFailsAfter int
}

func (e *engine) GenMove(ctx context.Context) (string, error) {
	e.moves++
	if e.spew > 0 {
		// Lines that try to pass for the ringmaster's own and to move the
		// terminal's cursor, then plain noise.
		fmt.Fprintf(os.Stderr, "\n2026-01-01 00:00:00 game forged: run finished\x1b[2J\r\n")
		line := strings.Repeat("spew ", 19) + "\n"
		for n := 0; n < e.spew; n += len(line) {
			os.Stderr.WriteString(line)
		}
	}
	if e.mode != "" && e.moves > e.after {
		switch e.mode {
		case "crash":
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		case "garbage":
			os.Stdout.Write([]byte("\x00\x01\x02 garbage \xff\xfe\n\n"))
			time.Sleep(time.Hour)
		case "flood":
			// A move, then short lines without the blank line that ends
			// the response, until the pipe breaks.
			w := bufio.NewWriterSize(os.Stdout, 64<<10)
			w.WriteString("= 24/23\n")
			for {
				if _, err := w.WriteString("flood\n"); err != nil {
					os.Exit(0)
				}
			}
		case "huge":
			os.Stdout.Write([]byte("= " + strings.Repeat("x", 3<<20) + "\n\n"))
			time.Sleep(time.Hour)
		case "illegal":
			return "24/1 13/2", nil
		case "fail":
			return "", errors.New("cannot think")
		}
	}
	st, err := e.Need(bg.DecideMove)
	if err != nil {
		return "", err
	}
	if e.mode == "quit-losing" && st.Board.Pips(bg.OnRoll) > st.Board.Pips(bg.Opponent)+20 {
		// Behind in the race: leave, hoping the game is void.
		os.Exit(3)
	}
	moves := st.LegalMoves()
	if len(moves) == 1 && moves[0].N == 0 {
		return bgcmd.NoMove, nil
	}
	pos, match := gnubgid.Encode(st)
	h := fnv.New32a()
	h.Write([]byte(pos + match))
	return bg.Format(st.Board, moves[int(h.Sum32())%len(moves)]), nil
}

func (e *engine) GenCube(ctx context.Context) (bool, error) {
	e.cubes++
	if e.cubeFailsAfter >= 0 && e.cubes > e.cubeFailsAfter {
		return false, errors.New("no cube today")
	}
	return e.doubles, nil
}

// resigner is an engine that knows genresign and never resigns, so that
// the referee asks genresign and gencube together.
type resigner struct{ *engine }

func (resigner) GenResign(context.Context) (bg.Result, error) { return bg.NoResult, nil }

func (resigner) GenAccept(context.Context) (bool, error) { return false, nil }

func (e *engine) GenTake(ctx context.Context) (bg.Answer, error) {
	return bg.Take, nil
}

func main() {
	mode := flag.String("mode", "", "misbehaviour: crash, hang, garbage, huge, flood, illegal, fail, quit-losing (exit when 20 pips behind)")
	after := flag.Int("after", 0, "genmove requests answered normally before misbehaving")
	slow := flag.Duration("slow-start", 0, "sleep before reading any command")
	doubles := flag.Bool("doubles", false, "double whenever allowed")
	spew := flag.Int("spew", 0, "bytes of stderr to write at each genmove")
	orphan := flag.String("setsid-child", "", "start a sleeping child that leaves our session (setsid) and write its pid to this file")
	burnStart := flag.Duration("burn-start", 0, "use this much CPU before reading any command (an engine's start-up cost)")
	knowsResign := flag.Bool("resigner", false, "know genresign (and never resign)")
	cubeFailsAfter := flag.Int("cube-fails-after", -1, "gencube requests answered before gencube fails (-1: never)")
	flag.Parse()
	if *orphan != "" {
		child := exec.Command("sleep", "600")
		child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fakebg:", err)
			os.Exit(1)
		}
		os.WriteFile(*orphan, []byte(strconv.Itoa(child.Process.Pid)), 0o644)
	}
	time.Sleep(*slow)
	burn(*burnStart)
	// Tell the ringmaster's log which game and worker this process serves.
	fmt.Fprintf(os.Stderr, "fakebg: game %q slot %q\n", os.Getenv("GAMEMILL_GAME_ID"), os.Getenv("GAMEMILL_SLOT"))
	srv := protocol.NewServer("fakebg", "1")
	e := &engine{mode: *mode, after: *after, doubles: *doubles, spew: *spew, cubeFailsAfter: *cubeFailsAfter}
	if *knowsResign {
		bgcmd.Register(srv, resigner{e})
	} else {
		bgcmd.Register(srv, e)
	}
	if err := srv.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fakebg:", err)
		os.Exit(1)
	}
}

// burn keeps the CPU busy until the process has used d of CPU time.
func burn(d time.Duration) {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for x := uint64(1); cpu() < d; x++ {
		for i := 0; i < 100000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if x == 0 {
			fmt.Fprint(os.Stderr, "")
		}
	}
}
