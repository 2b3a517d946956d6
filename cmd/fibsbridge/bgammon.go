package main

import (
	"context"
	"errors"
	"io"
	"log"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgammon"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs/bridge"
)

// bgammonFlags are the flags that only a bgammon server reads.
type bgammonFlags struct {
	create    int
	join      bool
	matchName string
}

func addBgammonFlags(fs *pflag.FlagSet) *bgammonFlags {
	f := &bgammonFlags{}
	fs.IntVar(&f.create, "create", 0, "bgammon: create a public match of this many points, play it, and create the next")
	fs.BoolVar(&f.join, "join", false, "bgammon: join open public matches (up to --max-length points)")
	fs.StringVar(&f.matchName, "match-name", "", "bgammon: the name of created matches (default: the server's)")
	return f
}

// runBgammon plays on a bgammon server (--server bgammon+tcp://,
// bgammon+ws:// or bgammon+wss://) with the FIBS bridge's account,
// record and match-count settings.
func runBgammon(ctx context.Context, f *bgammonFlags, o bridge.Options, pl player.Player, stderr io.Writer) error {
	if len(o.Accept) > 0 || o.Invite != "" || o.Unlimited {
		return cli.Usagef("--accept, --invite and --unlimited are for FIBS servers; on bgammon give --create N or --join")
	}
	if f.create < 0 || f.create > 127 {
		return cli.Usagef("--create %d: want 1 to 127 points", f.create)
	}
	if f.create == 0 && !f.join {
		return cli.Usagef("on bgammon give --create N (create matches) or --join (join open ones)")
	}
	if f.create > 0 && f.join {
		return cli.Usagef("give --create or --join, not both")
	}
	client := o.Client
	if !strings.Contains(client, "/") {
		client += "/en" // the server reads CLIENT/LANGUAGE
	}
	logger := log.New(stderr, "fibsbridge "+o.User+": ", log.LstdFlags)
	d := bgammon.NewDriver(bgammon.Options{
		Server:     o.Server,
		Login:      bgammon.Login{Client: client, User: o.User, Password: o.Password},
		Policy:     bgammon.Policy{Create: f.create, MatchName: f.matchName, Join: f.join, MaxLength: o.MaxLength},
		Matches:    o.Matches,
		Records:    o.Records,
		MaxBackoff: o.MaxBackoff,
		Client:     bgammon.ClientOptions{LoginTimeout: o.LoginTimeout},
		Logf:       logger.Printf,
	}, bgammon.CommandEngine{C: bgcmd.NewClient(pl)})
	err := d.Run(ctx)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		logger.Printf("stopped after %d matches", d.Played())
		return nil
	}
	return err
}
