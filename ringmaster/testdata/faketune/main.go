// Command faketune is a backgammon engine whose strength is a known smooth
// function of its parameters, for the tuning competitions' tests.
//
// As a candidate (--x, and --y for two parameters) it decides at the first
// resignation question of a game whether to resign, with probability
// 1-p(x) or 1-p(x, y), and never resigns after that; as the opponent
// (--opponent) it resigns at the first question after it has moved. So a
// candidate beats the opponent with probability exactly
//
//	p(x)    = 0.5 + 0.4·exp(−((x−0.3)/0.25)²)
//	p(x, y) = 0.5 + 0.4·exp(−((x−0.3)/0.25)² − ((y−0.6)/0.3)²)
//
// whose optimum is x = 0.3 (and y = 0.6). Its chance comes from the game's
// seed (GAMEMILL_GAME_SEED) and its arguments, so a game replayed is
// played the same way. It plays a legal move chosen from the position,
// never doubles, always takes and accepts every resignation.
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"strings"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/bgstate"
)

type engine struct {
	bgstate.Keeper
	opponent bool
	p        float64 // the chance of playing on at the first question
	u        float64 // this game's draw in [0,1)
	asked    int
	moves    int
}

// winChance is p(x) or, with y, p(x, y).
func winChance(x float64, y *float64) float64 {
	e := -math.Pow((x-0.3)/0.25, 2)
	if y != nil {
		e -= math.Pow((*y-0.6)/0.3, 2)
	}
	return 0.5 + 0.4*math.Exp(e)
}

func (e *engine) GenResign(ctx context.Context) (bg.Result, error) {
	e.asked++
	switch {
	case e.opponent && e.moves > 0:
		return bg.Single, nil
	case !e.opponent && e.asked == 1 && e.u >= e.p:
		return bg.Single, nil
	}
	return bg.NoResult, nil
}

func (e *engine) GenAccept(ctx context.Context) (bool, error) { return true, nil }

func (e *engine) GenMove(ctx context.Context) (string, error) {
	e.moves++
	st, err := e.Need(bg.DecideMove)
	if err != nil {
		return "", err
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

func (e *engine) GenCube(ctx context.Context) (bool, error) { return false, nil }

func (e *engine) GenTake(ctx context.Context) (bg.Answer, error) { return bg.Take, nil }

func main() {
	x := flag.Float64("x", 0.3, "the first parameter")
	y := flag.String("y", "", "the second parameter (absent: p depends on x alone)")
	opponent := flag.Bool("opponent", false, "play the opponent: resign at the first question after moving")
	flag.Parse()
	e := &engine{opponent: *opponent}
	var yv *float64
	if *y != "" {
		var v float64
		if _, err := fmt.Sscan(*y, &v); err != nil {
			fmt.Fprintln(os.Stderr, "faketune: --y:", err)
			os.Exit(2)
		}
		yv = &v
	}
	e.p = winChance(*x, yv)
	h := fnv.New64a()
	h.Write([]byte(os.Getenv("GAMEMILL_GAME_SEED") + " " + strings.Join(os.Args[1:], " ")))
	z := h.Sum64() + 0x9e3779b97f4a7c15 // one SplitMix64 step, so that similar arguments draw unrelated numbers
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	e.u = float64(z>>11) / (1 << 53)
	srv := protocol.NewServer("faketune", "1")
	bgcmd.Register(srv, e)
	if err := srv.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "faketune:", err)
		os.Exit(1)
	}
}
