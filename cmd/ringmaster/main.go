// Command ringmaster runs backgammon competitions between engines described
// by a TOML control file, keeps their state in SQLite, and reports results.
//
// Usage:
//
//	ringmaster run|show|report|stop|reset|check CONTROL.toml [flags]
//
// Exit status: 0 success; 1 error; 2 usage error; 3 run interrupted
// (Ctrl-C or a signal; running games are replayed on the next run).
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

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 3
)

const usage = `usage: ringmaster COMMAND CONTROL.toml [flags]

commands:
  run     play the competition (resuming where it stopped)
  show    print the results so far
  report  rewrite CODE.report and print it
  stop    ask a running competition to stop after its running games
  reset   delete the competition's state and outputs
  check   start each engine once, showing its stderr

show flags:
      --json            print the results as JSON (fields in docs/ringmaster.md)

run flags:
  -j, --parallel N      games played at once (default 1)
  -g, --max-games N     most games to start in this run
  -q, --quiet           print only errors
      --log-protocol    write per-game protocol logs in CODE.protocol/

exit status: 0 ok, 1 error, 2 usage, 3 interrupted
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("ringmaster", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	parallel := fs.IntP("parallel", "j", 1, "games played at once")
	maxGames := fs.IntP("max-games", "g", -1, "most games to start in this run")
	quiet := fs.BoolP("quiet", "q", false, "print only errors")
	logProtocol := fs.Bool("log-protocol", false, "write per-game protocol logs")
	asJSON := fs.Bool("json", false, "show: print the results as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 2 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	command, controlPath := fs.Arg(0), fs.Arg(1)
	switch command {
	case "run", "show", "report", "stop", "reset", "check":
	default:
		fmt.Fprintf(stderr, "ringmaster: no such command: %s\n", command)
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if *parallel < 1 {
		fmt.Fprintln(stderr, "ringmaster: --parallel must be at least 1")
		return exitUsage
	}
	rm, err := ringmaster.New(controlPath, games.All()...)
	if err != nil {
		fmt.Fprintf(stderr, "ringmaster: %v\n", err)
		return exitError
	}
	for _, w := range rm.Comp.Warnings {
		fmt.Fprintf(stderr, "ringmaster: warning: %s\n", w)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()

	switch command {
	case "show":
		if *asJSON {
			err = rm.ShowJSON(ctx, stdout)
		} else {
			err = rm.Show(ctx, stdout)
		}
	case "report":
		err = rm.Report(ctx, stdout)
	case "stop":
		err = rm.Stop()
	case "reset":
		err = rm.Reset()
	case "check":
		err = rm.Check(ctx, stdout, stderr)
	case "run":
		opts := ringmaster.RunOptions{Parallel: *parallel, MaxGames: *maxGames, Quiet: *quiet, LogProtocol: *logProtocol,
			Display: stdout, Errors: stderr}
		if !*quiet && isTerminal(stdout) {
			opts.Live = true
		}
		stops, restore := watchCtrlX(stdin)
		defer restore()
		opts.StopRequests = stops
		var status ringmaster.RunStatus
		status, err = rm.Run(ctx, opts)
		restore()
		if status == ringmaster.Interrupted || ctx.Err() != nil {
			if err != nil && ctx.Err() == nil {
				fmt.Fprintf(stderr, "ringmaster: %v\n", err)
			}
			fmt.Fprintln(stderr, "ringmaster: interrupted; running games will be replayed on the next run")
			return exitInterrupted
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "ringmaster: %v\n", err)
		return exitError
	}
	return exitOK
}
