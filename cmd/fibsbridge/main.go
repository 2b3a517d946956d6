// Command fibsbridge puts an engine that speaks Gamemill's protocol on a
// FIBS-style server (FIBS, its clones, or fibsd):
//
//	fibsbridge --server tcp://HOST:PORT|ws://HOST:PORT/PATH --user NAME --password-file FILE \
//	    [--accept all|NAME,...] [--max-length N] [--unlimited] [--invite NAME:LENGTH] [--matches N] \
//	    [--records DIR] [--state FILE] (--builtin "ARGS" | -- ENGINE [ARGS...])
//
// It logs in, sets the toggles and boardstyle a bot needs, accepts
// invitations by policy or invites, plays every decision through the
// engine (each move checked against the rules before it is sent), writes
// a .mat record of each match, and reconnects with backoff after a lost
// connection, resuming the saved match. SIGINT logs out and leaves the
// match saved on the server. The password is never logged.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(args []string, stdout, stderr io.Writer) int {
	c := &cli.Command{
		Args:    "--user NAME --password-file FILE [flags] (--builtin \"ARGS\" | -- ENGINE [ARGS...])",
		Summary: "fibsbridge puts an engine that speaks Gamemill's backgammon command set on a FIBS-style server, to play there as a bot.",
		Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error {
			return bridgeMain(fs, args, stderr)
		},
	}
	return c.Main(context.Background(), "fibsbridge", args, stdout, stderr)
}

// bridgeMain parses the flags, starts the engine and plays on the server
// until stopped.
func bridgeMain(fs *pflag.FlagSet, args []string, stderr io.Writer) error {
	var o options
	fs.StringVar(&o.Server, "server", "tcp://localhost:4321", "server: tcp://HOST:PORT or ws://HOST:PORT/PATH")
	fs.StringVar(&o.User, "user", "", "account name")
	pwFile := fs.String("password-file", "", "file holding the password (first line)")
	fs.StringVar(&o.Client, "client", "gamemill-fibsbridge", "client name sent at login")
	accept := fs.String("accept", "", "accept invitations from all or from NAME,NAME,...")
	fs.IntVar(&o.MaxLength, "max-length", 0, "accept matches up to this length (0: any)")
	fs.BoolVar(&o.Unlimited, "unlimited", false, "accept unlimited (money) matches")
	invite := fs.String("invite", "", "invite NAME:LENGTH (LENGTH a number or 'unlimited') when NAME is online")
	fs.IntVar(&o.Matches, "matches", 0, "stop after this many matches (0: run until stopped)")
	fs.StringVar(&o.Records, "records", ".", "directory for the .mat record of each match")
	fs.StringVar(&o.StateFile, "state", "", "file keeping the match in progress (default RECORDS/.fibsbridge-USER.json)")
	fs.DurationVar(&o.MaxBackoff, "max-backoff", 30*time.Second, "longest wait between reconnections")
	fs.DurationVar(&o.LoginTimeout, "login-timeout", fibs.DefaultLoginTimeout, "longest wait for the server's welcome after connecting; then reconnect")
	fs.DurationVar(&o.WhoTimeout, "who-timeout", defaultWhoTimeout, "longest wait for the end of the who list after the welcome; then reconnect")
	builtin := fs.String("builtin", "", "run bgbot in-process with these arguments instead of an engine command")
	timeout := fs.Duration("engine-timeout", time.Minute, "longest an engine may take for one command")
	if err := cli.Parse(fs, args, 0, -1); err != nil {
		return err
	}
	if o.User == "" || *pwFile == "" {
		return cli.Usagef("--user and --password-file are required")
	}
	pw, err := os.ReadFile(*pwFile)
	if err != nil {
		return fmt.Errorf("password file: %w", err)
	}
	o.Password = strings.TrimSpace(strings.SplitN(string(pw), "\n", 2)[0])
	if o.Password == "" {
		return fmt.Errorf("password file %s: empty", *pwFile)
	}
	if *accept != "" {
		o.Accept = strings.Split(*accept, ",")
	}
	if *invite != "" {
		name, length, ok := strings.Cut(*invite, ":")
		if !ok {
			return cli.Usagef("--invite %q: want NAME:LENGTH", *invite)
		}
		o.Invite = name
		if length != "unlimited" {
			if o.InviteLen, err = strconv.Atoi(length); err != nil || o.InviteLen < 1 {
				return cli.Usagef("--invite %q: bad length", *invite)
			}
		}
	}
	if o.StateFile == "" {
		o.StateFile = o.Records + "/.fibsbridge-" + o.User + ".json"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var pl player.Player
	switch {
	case *builtin != "" && fs.NArg() > 0:
		return cli.Usagef("give either --builtin or an engine command, not both")
	case *builtin != "":
		words, err := player.SplitCommand(*builtin)
		if err != nil {
			return fmt.Errorf("--builtin: %w", err)
		}
		var f gtpengine.Factory
		srv, err := f.Server(words)
		if err != nil {
			return fmt.Errorf("--builtin: %w", err)
		}
		pl = player.NewInProcess(srv, player.WithTimeout(*timeout))
	case fs.NArg() > 0:
		p, err := player.Launch(ctx, player.Spec{Argv: fs.Args(), Stderr: stderr, Timeout: *timeout})
		if err != nil {
			return err
		}
		pl = p
	default:
		return cli.Usagef("give an engine: --builtin \"ARGS\" or -- ENGINE [ARGS...]")
	}
	defer pl.Close()
	b := &bridge{opt: o, engine: &engineSeat{c: bgcmd.NewClient(pl)}, log: log.New(stderr, "fibsbridge "+o.User+": ", log.LstdFlags)}
	return b.run(ctx)
}
