package gobot

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/protocol"
)

// Name and Version are what the engine answers to name and version.
const (
	Name    = "gobot"
	Version = "1.0"
)

// NewServer returns a GTP server for e: the required commands of GTP
// version 2 (boardsize, clear_board, komi, play, genmove), handicaps
// (fixed_handicap, place_free_handicap, set_free_handicap), final_score,
// final_status_list, kgs-genmove_cleanup, reg_genmove, time_settings,
// time_left, loadsgf, printsgf, list_stones, captures, showboard, undo, and the analysis
// commands (gogui-analyze_commands and the commands it lists, lz-analyze,
// kata-analyze). On this server lz-analyze and kata-analyze answer one
// report after the interval; Serve streams them until the next command.
func NewServer(e *Engine) *protocol.Server {
	s := protocol.NewServer(Name, Version)
	s.HandleFunc("boardsize", func(_ context.Context, args []string) (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%w: boardsize takes one number", protocol.ErrArgs)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return "", fmt.Errorf("%w: boardsize %q", protocol.ErrArgs, args[0])
		}
		if err := e.SetSize(n); err != nil {
			return "", fmt.Errorf("unacceptable size: %v", err)
		}
		return "", nil
	})
	s.HandleFunc("clear_board", func(context.Context, []string) (string, error) { return "", e.Clear() })
	s.HandleFunc("komi", func(_ context.Context, args []string) (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%w: komi takes one number", protocol.ErrArgs)
		}
		k, err := strconv.ParseFloat(args[0], 64)
		if err != nil {
			return "", fmt.Errorf("%w: komi %q", protocol.ErrArgs, args[0])
		}
		return "", e.SetKomi(k)
	})
	s.HandleFunc("play", func(_ context.Context, args []string) (string, error) {
		if len(args) != 2 {
			return "", fmt.Errorf("%w: play takes a colour and a vertex", protocol.ErrArgs)
		}
		c, err := parseColor(args[0])
		if err != nil {
			return "", err
		}
		m, err := parseVertex(args[1], e.Size())
		if err != nil {
			return "", err
		}
		if err := e.Play(c, m); err != nil {
			return "", fmt.Errorf("illegal move: %v", err)
		}
		return "", nil
	})
	genmove := func(cleanup bool) func(context.Context, []string) (string, error) {
		return func(ctx context.Context, args []string) (string, error) {
			c, err := colourArg("genmove", args)
			if err != nil {
				return "", err
			}
			r, err := e.GenMove(ctx, c, cleanup)
			if err != nil {
				return "", err
			}
			return moveAnswer(r), nil
		}
	}
	s.HandleFunc("genmove", genmove(false))
	s.HandleFunc("kgs-genmove_cleanup", genmove(true))
	s.HandleFunc("undo", func(context.Context, []string) (string, error) { return "", e.Undo() })
	s.HandleFunc("fixed_handicap", func(_ context.Context, args []string) (string, error) {
		n, err := countArg("fixed_handicap", args)
		if err != nil {
			return "", err
		}
		ms, err := e.SetFixedHandicap(n)
		if err != nil {
			return "", err
		}
		return vertices(ms), nil
	})
	s.HandleFunc("set_free_handicap", func(_ context.Context, args []string) (string, error) {
		var ms []gogame.Move
		for _, a := range args {
			m, err := parseVertex(a, e.Size())
			if err != nil {
				return "", err
			}
			ms = append(ms, m)
		}
		return "", e.SetFreeHandicap(ms)
	})
	s.HandleFunc("final_score", func(ctx context.Context, _ []string) (string, error) {
		return e.FinalScore(ctx).String(), nil
	})
	s.HandleFunc("final_status_list", func(ctx context.Context, args []string) (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%w: final_status_list takes alive, dead or seki", protocol.ErrArgs)
		}
		dead := e.Dead(ctx)
		switch args[0] {
		case "dead":
			return vertices(dead), nil
		case "seki":
			return "", nil
		case "alive":
			isDead := map[gogame.Move]bool{}
			for _, m := range dead {
				isDead[m] = true
			}
			var alive []gogame.Move
			b := e.Game().Board()
			for _, c := range []Color{black, white} {
				for _, m := range b.Stones(c) {
					if !isDead[m] {
						alive = append(alive, m)
					}
				}
			}
			return vertices(alive), nil
		}
		return "", fmt.Errorf("%w: final_status_list %q: want alive, dead or seki", protocol.ErrArgs, args[0])
	})
	s.HandleFunc("time_settings", func(_ context.Context, args []string) (string, error) {
		if len(args) != 3 {
			return "", fmt.Errorf("%w: time_settings takes main time, byo-yomi time and stones", protocol.ErrArgs)
		}
		main, err1 := seconds(args[0])
		byo, err2 := seconds(args[1])
		stones, err3 := strconv.Atoi(args[2])
		if err1 != nil || err2 != nil || err3 != nil || stones < 0 {
			return "", fmt.Errorf("%w: time_settings %s", protocol.ErrArgs, strings.Join(args, " "))
		}
		e.SetTime(main, byo, stones)
		return "", nil
	})
	s.HandleFunc("time_left", func(_ context.Context, args []string) (string, error) {
		if len(args) != 3 {
			return "", fmt.Errorf("%w: time_left takes a colour, seconds and stones", protocol.ErrArgs)
		}
		c, err := parseColor(args[0])
		if err != nil {
			return "", err
		}
		left, err1 := seconds(args[1])
		stones, err2 := strconv.Atoi(args[2])
		if err1 != nil || err2 != nil || stones < 0 {
			return "", fmt.Errorf("%w: time_left %s", protocol.ErrArgs, strings.Join(args, " "))
		}
		e.SetTimeLeft(c, left, stones)
		return "", nil
	})
	s.HandleFunc("showboard", func(context.Context, []string) (string, error) {
		return "\n" + e.Game().Board().String(), nil
	})
	s.HandleFunc("list_stones", func(_ context.Context, args []string) (string, error) {
		c, err := colourArg("list_stones", args)
		if err != nil {
			return "", err
		}
		return vertices(e.Game().Board().Stones(c)), nil
	})
	s.HandleFunc("captures", func(_ context.Context, args []string) (string, error) {
		c, err := colourArg("captures", args)
		if err != nil {
			return "", err
		}
		return strconv.Itoa(e.Game().Captured(c)), nil
	})
	s.HandleFunc("place_free_handicap", func(_ context.Context, args []string) (string, error) {
		n, err := countArg("place_free_handicap", args)
		if err != nil {
			return "", err
		}
		ms, err := e.PlaceFreeHandicap(n)
		if err != nil {
			return "", err
		}
		return vertices(ms), nil
	})
	s.HandleFunc("reg_genmove", func(ctx context.Context, args []string) (string, error) {
		c, err := colourArg("reg_genmove", args)
		if err != nil {
			return "", err
		}
		r, err := e.RegGenMove(ctx, c)
		if err != nil {
			return "", err
		}
		return moveAnswer(r), nil
	})
	s.HandleFunc("loadsgf", func(_ context.Context, args []string) (string, error) {
		if len(args) < 1 || len(args) > 2 {
			return "", fmt.Errorf("%w: loadsgf takes a file and an optional move number or vertex", protocol.ErrArgs)
		}
		until := ""
		if len(args) == 2 {
			until = args[1]
		}
		c, err := e.LoadSGF(args[0], until)
		if err != nil {
			return "", err
		}
		return colorName(c), nil
	})
	s.HandleFunc("printsgf", func(_ context.Context, args []string) (string, error) {
		if len(args) > 1 {
			return "", fmt.Errorf("%w: printsgf takes an optional file", protocol.ErrArgs)
		}
		if len(args) == 1 {
			return "", e.WriteSGFFile(args[0])
		}
		return e.SGF()
	})
	s.HandleFunc("gogui-analyze_commands", func(context.Context, []string) (string, error) {
		return strings.Join(goguiAnalyzeCommands, "\n"), nil
	})
	s.HandleFunc("gobot-ownership", func(ctx context.Context, args []string) (string, error) {
		a, err := analyzeOnce(ctx, e, "gobot-ownership", args)
		if err != nil {
			return "", err
		}
		return ownershipBoard(a, e.Size()), nil
	})
	s.HandleFunc("gobot-principal_variation", func(ctx context.Context, args []string) (string, error) {
		a, err := analyzeOnce(ctx, e, "gobot-principal_variation", args)
		if err != nil || len(a.Moves) == 0 {
			return "", err
		}
		return vertices(a.Moves[0].PV), nil
	})
	s.HandleFunc("gobot-search_gfx", func(ctx context.Context, args []string) (string, error) {
		a, err := analyzeOnce(ctx, e, "gobot-search_gfx", args)
		if err != nil {
			return "", err
		}
		return searchGfx(a), nil
	})
	for _, name := range []string{"lz-analyze", "kata-analyze"} {
		s.HandleFunc(name, func(ctx context.Context, args []string) (string, error) {
			req, err := parseAnalyze(name, args, e.Game().ToPlay())
			if err != nil {
				return "", err
			}
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			var line string
			err = e.Analyze(ctx, req.color, req.interval, func(a Analysis) error {
				line = req.format(a, e.Size())
				cancel()
				return nil
			})
			return line, err
		})
	}
	return s
}

// goguiAnalyzeCommands are the commands GoGui offers in its analyze
// menu, as type/label/command (GoGui substitutes %m, the colour to move).
var goguiAnalyzeCommands = []string{
	"dboard/Ownership/gobot-ownership %m",
	"var/Principal variation/gobot-principal_variation %m",
	"gfx/Search/gobot-search_gfx %m",
}

// analyzeOnce runs AnalyzeOnce for the colour in args (the colour to move
// if none).
func analyzeOnce(ctx context.Context, e *Engine, name string, args []string) (Analysis, error) {
	c := e.Game().ToPlay()
	switch len(args) {
	case 0:
	case 1:
		var err error
		if c, err = parseColor(args[0]); err != nil {
			return Analysis{}, err
		}
	default:
		return Analysis{}, fmt.Errorf("%w: %s takes an optional colour", protocol.ErrArgs, name)
	}
	return e.AnalyzeOnce(ctx, c)
}

// ownershipBoard formats the ownership as GoGui's dboard: the top row
// first, 1 for Black and -1 for White.
func ownershipBoard(a Analysis, size int) string {
	var b strings.Builder
	for y := size - 1; y >= 0; y-- {
		for x := 0; x < size; x++ {
			if x > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.FormatFloat(a.Ownership[y*size+x], 'f', 2, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// searchGfx formats the analysis as GoGui's gfx: the principal variation,
// each searched move labelled with its win rate in percent, and a line of
// text.
func searchGfx(a Analysis) string {
	if len(a.Moves) == 0 {
		return "TEXT no move searched"
	}
	var b strings.Builder
	b.WriteString("VAR")
	c := a.ToPlay
	for _, m := range a.Moves[0].PV {
		fmt.Fprintf(&b, " %s %s", colorLetter(c), vertexString(m))
		c = c.Opponent()
	}
	b.WriteString("\nLABEL")
	for _, m := range a.Moves {
		if m.Move != gogame.Pass {
			fmt.Fprintf(&b, " %s %d", m.Move, int(math.Round(100*m.WinRate)))
		}
	}
	best := a.Moves[0]
	fmt.Fprintf(&b, "\nTEXT %s %s: win rate %.1f%% after %d playouts", colorName(a.ToPlay), vertexString(best.Move), 100*best.WinRate, a.Playouts)
	return b.String()
}

func colorName(c Color) string {
	if c == white {
		return "white"
	}
	return "black"
}

func colorLetter(c Color) string {
	if c == white {
		return "w"
	}
	return "b"
}

func seconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f > 1e7 {
		return 0, fmt.Errorf("bad seconds %q", s)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// colourArg reads the one argument of the command name, a colour.
func colourArg(name string, args []string) (Color, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("%w: %s takes a colour", protocol.ErrArgs, name)
	}
	return parseColor(args[0])
}

// countArg reads the one argument of the command name, a number.
func countArg(name string, args []string) (int, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("%w: %s takes a number", protocol.ErrArgs, name)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, fmt.Errorf("%w: %s %q", protocol.ErrArgs, name, args[0])
	}
	return n, nil
}

// moveAnswer is genmove's answer for r: its vertex, or resign.
func moveAnswer(r Result) string {
	if r.Resign {
		return "resign"
	}
	return vertexString(r.Move)
}

func parseColor(s string) (Color, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return black, nil
	case "w", "white":
		return white, nil
	}
	return 0, fmt.Errorf("%w: colour %q", protocol.ErrArgs, s)
}

func parseVertex(s string, size int) (gogame.Move, error) {
	m, err := gogame.ParseVertex(s, size)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", protocol.ErrArgs, err)
	}
	return m, nil
}

func vertexString(m gogame.Move) string {
	if m == gogame.Pass {
		return "pass"
	}
	return m.String()
}

func vertices(ms []gogame.Move) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = vertexString(m)
	}
	return strings.Join(s, " ")
}
