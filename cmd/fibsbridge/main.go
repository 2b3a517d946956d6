// Command fibsbridge puts an engine that speaks Gamemill's protocol on a
// FIBS-style server (FIBS, its clones, or fibsd):
//
//	fibsbridge --server tcp://HOST:PORT|ws://HOST:PORT/PATH --user NAME --password-file FILE \
//	    [--accept all|NAME,...] [--max-length N] [--unlimited] [--invite NAME:LENGTH] [--matches N] \
//	    [--records DIR] [--state-dir DIR] (--builtin "ARGS" | --gnubg PLIES | -- ENGINE [ARGS...])
//
// With --server bgammon+tcp://HOST:PORT or bgammon+ws[s]://HOST/PATH it
// plays on bgammon.org instead (protocol/bgammon, docs/bgammon.md).
//
// The bridge itself is package protocol/fibs/bridge; this command reads
// the flags, starts the engine and runs it. SIGINT logs out and leaves
// the match saved on the server. The password is never logged.
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
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/protocol/bgammon"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/bridge"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(args []string, stdout, stderr io.Writer) int {
	c := &cli.Command{
		Args:    "--user NAME --password-file FILE [flags] (--builtin \"ARGS\" | --gnubg PLIES | -- ENGINE [ARGS...])",
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
	var o bridge.Options
	fs.StringVar(&o.Server, "server", "tcp://localhost:4321", "server: tcp://HOST:PORT or ws://HOST:PORT/PATH (FIBS), bgammon+tcp://HOST:PORT, bgammon+ws[s]://HOST/PATH (bgammon.org; see docs/bgammon.md)")
	fs.StringVar(&o.User, "user", "", "account name")
	pwFile := fs.String("password-file", "", "file holding the password (first line)")
	fs.StringVar(&o.Client, "client", "gamemill-fibsbridge", "client name sent at login")
	accept := fs.String("accept", "", "accept invitations from all or from NAME,NAME,...")
	fs.IntVar(&o.MaxLength, "max-length", 0, "accept matches up to this length (0: any)")
	fs.BoolVar(&o.Unlimited, "unlimited", false, "accept unlimited (money) matches")
	invite := fs.String("invite", "", "invite NAME:LENGTH (LENGTH a number or 'unlimited') when NAME is online")
	fs.IntVar(&o.Matches, "matches", 0, "stop after this many matches (0: run until stopped)")
	fs.StringVar(&o.Records, "records", ".", "directory for the .mat record of each match")
	stateDir := fs.String("state-dir", "", "directory keeping the match in progress, one file per server and user (default $XDG_STATE_HOME/gamemill/fibsbridge, else the user's cache directory)")
	fs.StringVar(&o.StateFile, "state", "", "file keeping the match in progress, in place of one in --state-dir")
	fs.DurationVar(&o.MaxBackoff, "max-backoff", 30*time.Second, "longest wait between reconnections")
	fs.DurationVar(&o.LoginTimeout, "login-timeout", fibs.DefaultLoginTimeout, "longest wait for the server's welcome after connecting; then reconnect")
	fs.DurationVar(&o.WhoTimeout, "who-timeout", bridge.DefaultWhoTimeout, "longest wait for the end of the who list after the welcome; then reconnect")
	gnubgPlies := fs.Int("gnubg", -1, "play GNU Backgammon (gnubg on PATH or in /usr/games) at this many plies (0-7) instead of an engine command")
	builtin := fs.String("builtin", "", "run bgbot in-process with these arguments instead of an engine command")
	timeout := fs.Duration("engine-timeout", time.Minute, "longest an engine may take for one command")
	bgf := addBgammonFlags(fs)
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
		dir := *stateDir
		if dir == "" {
			if dir, err = bridge.DefaultStateDir(); err != nil {
				return err
			}
		}
		o.StateFile = bridge.StatePath(dir, o.Server, o.User)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pl, err := startEngine(ctx, fs, *builtin, *gnubgPlies, *timeout, stderr)
	if err != nil {
		return err
	}
	defer pl.Close()
	if bgammon.IsAddress(o.Server) {
		return runBgammon(ctx, bgf, o, pl, stderr)
	}
	b := bridge.New(o, bgcmd.NewClient(pl), log.New(stderr, "fibsbridge "+o.User+": ", log.LstdFlags))
	return b.Run(ctx)
}

// startEngine starts the one engine the arguments give: bgbot in-process,
// gnubg, or a command.
func startEngine(ctx context.Context, fs *pflag.FlagSet, builtin string, gnubgPlies int, timeout time.Duration, stderr io.Writer) (player.Player, error) {
	given := 0
	for _, g := range []bool{builtin != "", gnubgPlies >= 0, fs.NArg() > 0} {
		if g {
			given++
		}
	}
	switch {
	case given > 1:
		return nil, cli.Usagef("give one engine: --builtin, --gnubg or an engine command")
	case builtin != "":
		words, err := player.SplitCommand(builtin)
		if err != nil {
			return nil, fmt.Errorf("--builtin: %w", err)
		}
		var f gtpengine.Factory
		srv, err := f.Server(words)
		if err != nil {
			return nil, fmt.Errorf("--builtin: %w", err)
		}
		return player.NewInProcess(srv, player.WithTimeout(timeout)), nil
	case gnubgPlies >= 0:
		if gnubgPlies > gnubg.MaxPlies {
			return nil, cli.Usagef("--gnubg %d: want 0 to %d plies", gnubgPlies, gnubg.MaxPlies)
		}
		p, err := gnubg.Launch(ctx, gnubg.Options{Plies: gnubgPlies, Stderr: stderr, Timeout: timeout})
		if err != nil {
			return nil, fmt.Errorf("--gnubg: %w", err)
		}
		return p, nil
	case fs.NArg() > 0:
		return player.Launch(ctx, player.Spec{Argv: fs.Args(), Stderr: stderr, Timeout: timeout})
	}
	return nil, cli.Usagef("give an engine: --builtin \"ARGS\", --gnubg PLIES or -- ENGINE [ARGS...]")
}
