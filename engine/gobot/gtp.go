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
// version 2 (boardsize, clear_board, komi, play, genmove), handicaps,
// final_score, final_status_list, kgs-genmove_cleanup, time_settings,
// time_left, showboard and undo.
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
			if len(args) != 1 {
				return "", fmt.Errorf("%w: genmove takes a colour", protocol.ErrArgs)
			}
			c, err := parseColor(args[0])
			if err != nil {
				return "", err
			}
			r, err := e.GenMove(ctx, c, cleanup)
			if err != nil {
				return "", err
			}
			if r.Resign {
				return "resign", nil
			}
			return vertexString(r.Move), nil
		}
	}
	s.HandleFunc("genmove", genmove(false))
	s.HandleFunc("kgs-genmove_cleanup", genmove(true))
	s.HandleFunc("undo", func(context.Context, []string) (string, error) { return "", e.Undo() })
	s.HandleFunc("fixed_handicap", func(_ context.Context, args []string) (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%w: fixed_handicap takes a number", protocol.ErrArgs)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return "", fmt.Errorf("%w: fixed_handicap %q", protocol.ErrArgs, args[0])
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
		if _, err := parseColor(args[0]); err != nil {
			return "", err
		}
		left, err1 := seconds(args[1])
		stones, err2 := strconv.Atoi(args[2])
		if err1 != nil || err2 != nil || stones < 0 {
			return "", fmt.Errorf("%w: time_left %s", protocol.ErrArgs, strings.Join(args, " "))
		}
		e.SetTimeLeft(left, stones)
		return "", nil
	})
	s.HandleFunc("showboard", func(context.Context, []string) (string, error) {
		return "\n" + e.Game().Board().String(), nil
	})
	return s
}

func seconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f > 1e7 {
		return 0, fmt.Errorf("bad seconds %q", s)
	}
	return time.Duration(f * float64(time.Second)), nil
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
