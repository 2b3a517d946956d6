// Command bgbot is Gamemill's backgammon bot speaking the backgammon
// command set (see docs/protocol.md and docs/bgbot.md) on stdin and stdout.
//
//	bgbot [--level random|heuristic|net] [--plies N] [--noise X] [--seed N] [--weights FILE]
//	bgbot serve [--http ADDR] [engine flags]
//
// The serve subcommand answers over HTTP instead (package httpapi).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "serve" {
		return serveCommand(stdout).Main(ctx, "bgbot", args[1:], stdout, stderr)
	}
	c := &cli.Command{
		Summary: "bgbot is Gamemill's backgammon bot: a neural network with search, speaking the Gamemill backgammon command set on stdin and stdout; 'bgbot serve' answers over HTTP instead (bgbot serve --help).",
		Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
			o := gtpengine.DefaultOptions()
			fs.AddFlagSet(gtpengine.FlagSet("bgbot", &o))
			if err := cli.Parse(fs, args, 0, 0); err != nil {
				return err
			}
			// gtpengine checks the values' ranges as the ringmaster's
			// builtin players have them checked.
			opts, err := gtpengine.ParseArgs(args)
			if err != nil {
				return cli.Usagef("%v", err)
			}
			opts.Warn = func(err error) { fmt.Fprintf(stderr, "bgbot: warning: %v\n", err) }
			err = gtpengine.Serve(ctx, opts, stdin, stdout)
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		},
	}
	return c.Main(ctx, "bgbot", args, stdout, stderr)
}
