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

func flagSet(o *options, out io.Writer) *pflag.FlagSet {
	fs := cli.NewFlags("gobot", "", "", out)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: gobot [flags]  (speaks GTP version 2 on stdin/stdout)\n\nflags:\n%s", fs.FlagUsages())
	}
	fs.IntVar(&o.playouts, "playouts", 0, fmt.Sprintf("playouts per move (default %d when --time is not given)", gobot.DefaultPlayouts))
	fs.Float64Var(&o.seconds, "time", 0, "seconds per move (with --playouts, whichever ends first)")
	fs.IntVar(&o.threads, "threads", 1, "search threads (results are reproducible with 1)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the playouts")
	fs.Float64Var(&o.resign, "resign", 0.1, "resign when the best move's win rate falls below this (0: never)")
	fs.BoolVar(&o.noPatterns, "no-patterns", false, "play without the pattern database (no 3x3 patterns in the playouts, no pattern priors)")
	fs.StringVar(&o.patterns, "patterns", "", "directory of *.db pattern files to use instead of the built-in database")
	return fs
}

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	fs := flagSet(&o, stdout)
	err := cli.Parse(fs, args, 0, 0)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		return 0
	case err != nil:
		return cli.Exit("gobot", err, "", stderr)
	}
	switch {
	case o.playouts < 0:
		return cli.Exit("gobot", cli.Usagef("--playouts %d: want 0 or more", o.playouts), "", stderr)
	case o.seconds < 0 || o.seconds > 1e6:
		return cli.Exit("gobot", cli.Usagef("--time %v: want 0 to 1e6 seconds", o.seconds), "", stderr)
	case o.threads < 1 || o.threads > 256:
		return cli.Exit("gobot", cli.Usagef("--threads %d: want 1 to 256", o.threads), "", stderr)
	case o.resign < 0 || o.resign >= 1:
		return cli.Exit("gobot", cli.Usagef("--resign %v: want 0 to below 1", o.resign), "", stderr)
	case o.noPatterns && o.patterns != "":
		return cli.Exit("gobot", cli.Usagef("--no-patterns and --patterns together"), "", stderr)
	}
	cfg := gobot.Config{Playouts: o.playouts, Time: time.Duration(o.seconds * float64(time.Second)), Threads: o.threads, Seed: o.seed, Resign: o.resign}
	switch {
	case o.patterns != "":
		cfg.Patterns, err = pattern.Load(os.DirFS(o.patterns), ".")
	case !o.noPatterns:
		cfg.Patterns, err = pattern.Default()
	}
	if err != nil {
		return cli.Exit("gobot", fmt.Errorf("patterns: %w", err), "", stderr)
	}
	e, err := gobot.New(cfg)
	if err != nil {
		return cli.Exit("gobot", err, "", stderr)
	}
	err = gobot.NewServer(e).Serve(ctx, stdin, stdout)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return cli.Exit("gobot", err, "", stderr)
}
