// Command gobot is Gamemill's Go (weiqi) engine speaking GTP version 2 on
// stdin and stdout (see docs/gobot.md).
//
//	gobot [--playouts N] [--time SECONDS] [--threads N] [--seed N] [--resign X] [--no-patterns] [--patterns DIR]
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/gobot"
	"github.com/gamemill/gamemill/engine/gobot/pattern"
	"github.com/gamemill/gamemill/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type options struct {
	playouts   int
	seconds    float64
	threads    int
	seed       uint64
	resign     float64
	noPatterns bool
	patterns   string
}

func defineFlags(fs *pflag.FlagSet, o *options) {
	fs.IntVar(&o.playouts, "playouts", 0, fmt.Sprintf("playouts per move (default %d when --time is not given)", gobot.DefaultPlayouts))
	fs.Float64Var(&o.seconds, "time", 0, "seconds per move (with --playouts, whichever ends first)")
	fs.IntVar(&o.threads, "threads", 1, "search threads (results are reproducible with 1)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the playouts")
	fs.Float64Var(&o.resign, "resign", 0.1, "resign when the best move's win rate falls below this (0: never)")
	fs.BoolVar(&o.noPatterns, "no-patterns", false, "play without the pattern database (no 3x3 patterns in the playouts, no pattern priors)")
	fs.StringVar(&o.patterns, "patterns", "", "directory of *.db pattern files to use instead of the built-in database")
}

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli.Command{
		Summary: "gobot is Gamemill's Go (weiqi) engine: Monte Carlo tree search speaking GTP version 2 on stdin and stdout.",
		Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
			var o options
			defineFlags(fs, &o)
			if err := cli.Parse(fs, args, 0, 0); err != nil {
				return err
			}
			return serve(ctx, o, stdin, stdout)
		},
	}
	return c.Main(ctx, "gobot", args, stdout, stderr)
}

// serve checks the options and speaks GTP until quit or the end of stdin.
func serve(ctx context.Context, o options, stdin io.Reader, stdout io.Writer) error {
	switch {
	case o.playouts < 0:
		return cli.Usagef("--playouts %d: want 0 or more", o.playouts)
	case o.seconds < 0 || o.seconds > 1e6:
		return cli.Usagef("--time %v: want 0 to 1e6 seconds", o.seconds)
	case o.threads < 1 || o.threads > 256:
		return cli.Usagef("--threads %d: want 1 to 256", o.threads)
	case o.resign < 0 || o.resign >= 1:
		return cli.Usagef("--resign %v: want 0 to below 1", o.resign)
	case o.noPatterns && o.patterns != "":
		return cli.Usagef("--no-patterns and --patterns together")
	}
	var err error
	cfg := gobot.Config{Playouts: o.playouts, Time: time.Duration(o.seconds * float64(time.Second)), Threads: o.threads, Seed: o.seed, Resign: o.resign}
	switch {
	case o.patterns != "":
		cfg.Patterns, err = pattern.Load(os.DirFS(o.patterns), ".")
	case !o.noPatterns:
		cfg.Patterns, err = pattern.Default()
	}
	if err != nil && o.patterns != "" {
		return fmt.Errorf("patterns %s: %w", o.patterns, err)
	}
	if err != nil {
		return fmt.Errorf("patterns: %w", err)
	}
	e, err := gobot.New(cfg)
	if err != nil {
		return err
	}
	err = gobot.Serve(ctx, e, stdin, stdout)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
