// Command fakego is a scripted Go engine for the ringmaster's tests: it
// speaks GTP v2, keeps the game with engine/gogame, plays the first legal
// move that does not fill its own eye (passing when there is none), and
// misbehaves as its flags say.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/protocol"
)

type engine struct {
	size    int
	komi    float64
	game    *rules.Game
	moves   int // genmove requests answered
	mode    string
	after   int
	score   string
	noClaim bool
	// claimScore makes final_score claim the win for the colour last
	// asked to move, whatever the board says.
	claimScore bool
	colour     rules.Color
	// sleep is added to every genmove answer after the first after.
	sleep time.Duration
	// timeLeft is the last time_left: colour, seconds, stones.
	timeLeft string
}

func (e *engine) reset() error {
	g, err := rules.NewGame(rules.Settings{Size: e.size, Komi: e.komi})
	e.game = g
	return err
}

func colour(s string) (rules.Color, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return rules.Black, nil
	case "w", "white":
		return rules.White, nil
	}
	return rules.Empty, fmt.Errorf("bad colour %q", s)
}

// choose is the first legal move that does not fill an own eye, or a pass.
func (e *engine) choose(c rules.Color) rules.Move {
	for row := e.size - 1; row >= 0; row-- {
		for col := 0; col < e.size; col++ {
			m := rules.At(col, row)
			pos := e.game.Position()
			if e.game.Legal(c, m) == nil && !pos.Eye(c, m) {
				return m
			}
		}
	}
	return rules.Pass
}

func (e *engine) genmove(ctx context.Context, args []string, claim bool) (string, error) {
	if len(args) < 1 {
		return "", errors.New("missing colour")
	}
	c, err := colour(args[0])
	if err != nil {
		return "", err
	}
	e.moves++
	e.colour = c
	if e.moves > e.after {
		time.Sleep(e.sleep)
		switch e.mode {
		case "crash":
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		case "fail":
			return "", errors.New("cannot think")
		case "garbage":
			return "over there", nil
		case "resign":
			return "resign", nil
		case "claim":
			if claim {
				return "claim", nil
			}
		case "occupied":
			for _, m := range e.game.Board().Stones(rules.Black) {
				return m.String(), nil
			}
			for _, m := range e.game.Board().Stones(rules.White) {
				return m.String(), nil
			}
		}
	}
	m := e.choose(c)
	if e.mode == "never-pass" && m == rules.Pass {
		// Keep playing: fill an own eye rather than pass.
		for row := 0; row < e.size && m == rules.Pass; row++ {
			for col := 0; col < e.size; col++ {
				if e.game.Legal(c, rules.At(col, row)) == nil {
					m = rules.At(col, row)
					break
				}
			}
		}
	}
	if err := e.game.Play(c, m); err != nil {
		return "", err
	}
	return m.String(), nil
}

// firstLineOnly passes on, of each read, up to its first line feed and
// drops the rest.
type firstLineOnly struct{ r io.Reader }

func (f firstLineOnly) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if i := bytes.IndexByte(p[:n], '\n'); i >= 0 {
		n = i + 1
	}
	return n, err
}

func main() {
	mode := flag.String("mode", "", "misbehaviour: crash, hang, fail, garbage, resign, claim, occupied, reject, never-pass")
	after := flag.Int("after", 0, "genmove requests answered normally before misbehaving")
	score := flag.String("score", "", "answer to final_score (default: our own area count)")
	noClaim := flag.Bool("no-claim-command", false, "do not know gomill-genmove_ex")
	claimScore := flag.Bool("claim-score", false, "answer final_score with a win by 10 for our colour")
	sleep := flag.Duration("sleep", 0, "time to think before each genmove answer after --after")
	noTime := flag.Bool("no-time", false, "do not know time_settings and time_left")
	gomill := flag.Bool("gomill", false, "offer gomill-explain_last_move, gomill-describe_engine and gomill-cpu_time")
	oneLineReads := flag.Bool("one-line-reads", false, "take only the first command of what each read of the input brings, as an engine reading one command per read would")
	flag.Parse()
	e := &engine{size: 19, komi: 0, mode: *mode, after: *after, score: *score, noClaim: *noClaim, claimScore: *claimScore, colour: rules.Black,
		sleep: *sleep}
	e.reset()
	srv := protocol.NewServer("fakego", "1")
	srv.HandleFunc("boardsize", func(_ context.Context, args []string) (string, error) {
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return "", err
		}
		e.size = n
		return "", e.reset()
	})
	srv.HandleFunc("clear_board", func(context.Context, []string) (string, error) { return "", e.reset() })
	srv.HandleFunc("komi", func(_ context.Context, args []string) (string, error) {
		k, err := strconv.ParseFloat(args[0], 64)
		e.komi = k
		if err != nil {
			return "", err
		}
		return "", e.reset()
	})
	srv.HandleFunc("fixed_handicap", func(_ context.Context, args []string) (string, error) {
		n, _ := strconv.Atoi(args[0])
		stones, err := e.game.SetFixedHandicap(n)
		var words []string
		for _, m := range stones {
			words = append(words, m.String())
		}
		return strings.Join(words, " "), err
	})
	srv.HandleFunc("play", func(_ context.Context, args []string) (string, error) {
		if e.mode == "reject" {
			return "", errors.New("illegal move")
		}
		c, err := colour(args[0])
		if err != nil {
			return "", err
		}
		m, err := rules.ParseVertex(args[1], e.size)
		if err != nil {
			return "", err
		}
		return "", e.game.Play(c, m)
	})
	srv.HandleFunc("genmove", func(ctx context.Context, args []string) (string, error) { return e.genmove(ctx, args, false) })
	if !e.noClaim {
		srv.HandleFunc("gomill-genmove_ex", func(ctx context.Context, args []string) (string, error) {
			return e.genmove(ctx, args, len(args) > 1 && args[1] == "claim")
		})
	}
	if !*noTime {
		srv.HandleFunc("time_settings", func(_ context.Context, args []string) (string, error) {
			if len(args) != 3 {
				return "", errors.New("time_settings takes 3 arguments")
			}
			return "", nil
		})
		srv.HandleFunc("time_left", func(_ context.Context, args []string) (string, error) {
			if len(args) != 3 {
				return "", errors.New("time_left takes 3 arguments")
			}
			e.timeLeft = strings.Join(args, " ")
			return "", nil
		})
	}
	if *gomill {
		srv.HandleFunc("gomill-explain_last_move", func(context.Context, []string) (string, error) {
			// The last time_left shows in the record this way.
			return fmt.Sprintf("fakego move %d (time_left %s)", e.moves, e.timeLeft), nil
		})
		srv.HandleFunc("gomill-describe_engine", func(context.Context, []string) (string, error) {
			return fmt.Sprintf("fakego, a scripted test engine (GOMILL_GAME_ID=%s GOMILL_SLOT=%s)", os.Getenv("GOMILL_GAME_ID"), os.Getenv("GOMILL_SLOT")), nil
		})
		srv.HandleFunc("gomill-cpu_time", func(context.Context, []string) (string, error) {
			// A quarter of a second per move answered: a figure the
			// ringmaster's own measure could not give.
			return strconv.FormatFloat(float64(e.moves)*0.25, 'f', 2, 64), nil
		})
	}
	srv.HandleFunc("final_score", func(context.Context, []string) (string, error) {
		if e.score != "" {
			return e.score, nil
		}
		if e.claimScore {
			return map[rules.Color]string{rules.Black: "B+10", rules.White: "W+10"}[e.colour], nil
		}
		return e.game.AreaScore().String(), nil
	})
	var in io.Reader = os.Stdin
	if *oneLineReads {
		in = firstLineOnly{os.Stdin}
	}
	if err := srv.Serve(context.Background(), in, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fakego:", err)
		os.Exit(1)
	}
}
