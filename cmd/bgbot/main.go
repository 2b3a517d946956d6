// Command bgbot is Gamemill's backgammon bot speaking the backgammon
// command set (see docs/protocol.md and docs/bgbot.md) on stdin and stdout.
//
//	bgbot [--level random|heuristic|net] [--plies N] [--noise X] [--seed N] [--weights FILE]
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
)

func main() {
	opts, err := gtpengine.ParseArgs(os.Args[1:])
	if errors.Is(err, pflag.ErrHelp) {
		o := gtpengine.DefaultOptions()
		fmt.Fprintln(os.Stderr, "usage: bgbot [flags]  (speaks the Gamemill backgammon command set on stdin/stdout)")
		fmt.Fprint(os.Stderr, gtpengine.FlagSet("bgbot", &o).FlagUsages())
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bgbot:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := gtpengine.Serve(ctx, opts, os.Stdin, os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "bgbot:", err)
		os.Exit(1)
	}
}
