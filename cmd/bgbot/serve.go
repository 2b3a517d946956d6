package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/engine/bgbot/httpapi"
	"github.com/gamemill/gamemill/internal/cli"
)

// serveCommand is "bgbot serve": the bot behind the HTTP API of package
// httpapi. It prints the address it listens on to stdout, one line.
func serveCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:    "serve",
		Summary: "bgbot serve answers moves, cube decisions and evaluations as JSON over HTTP (docs/bgbot.md, HTTP API).",
		Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
			o := gtpengine.DefaultOptions()
			engineFlags := gtpengine.FlagSet("bgbot", &o)
			// Each request chooses its level and depth.
			_ = engineFlags.MarkHidden("level")
			_ = engineFlags.MarkHidden("plies")
			fs.AddFlagSet(engineFlags)
			addr := fs.String("http", "127.0.0.1:8080", "address to listen on; a port alone (\":8080\") listens on the loopback interface only, \"0.0.0.0:8080\" on every interface")
			maxBody := fs.Int64("max-body", httpapi.DefaultMaxBody, "largest request body in bytes (larger: 413)")
			timeout := fs.Duration("timeout", httpapi.DefaultTimeout, "time bound of a request, its wait for a worker included (over it: 503)")
			maxPlies := fs.Int("max-plies", httpapi.DefaultMaxPlies, fmt.Sprintf("deepest search a request may ask for, 0..%d", bgbot.MaxPlies))
			workers := fs.Int("workers", 0, "positions judged at once (0: one a CPU)")
			if err := cli.Parse(fs, args, 0, 0); err != nil {
				return err
			}
			engineArgs := changedFlags(engineFlags)
			if _, err := gtpengine.ParseArgs(engineArgs); err != nil {
				return cli.Usagef("%v", err)
			}
			listen, err := httpapi.ListenAddr(*addr)
			if err != nil {
				return cli.Usagef("--http: %v", err)
			}
			switch {
			case *maxBody < 1:
				return cli.Usagef("--max-body %d must be at least 1", *maxBody)
			case *timeout <= 0:
				return cli.Usagef("--timeout %v must be above 0", *timeout)
			case *maxPlies < 0 || *maxPlies > bgbot.MaxPlies:
				return cli.Usagef("--max-plies %d out of range 0..%d", *maxPlies, bgbot.MaxPlies)
			case *workers < 0:
				return cli.Usagef("--workers %d must be at least 0", *workers)
			}
			cfg := httpapi.Config{EngineArgs: engineArgs, MaxBody: *maxBody, Timeout: *timeout, MaxPlies: *maxPlies, Workers: *workers}
			if *maxPlies == 0 {
				cfg.MaxPlies = -1 // httpapi's 0 is its default
			}
			h, err := httpapi.New(cfg)
			if err != nil {
				return err
			}
			if err := h.Warm(); err != nil {
				return err
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
				WriteTimeout: *timeout + 10*time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
			fmt.Fprintf(stdout, "bgbot: serving http://%s\n", ln.Addr())
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case err := <-errc:
				return fmt.Errorf("serve: %w", err)
			case <-ctx.Done():
			}
			shutdown, cancel := context.WithTimeout(context.Background(), *timeout)
			defer cancel()
			if err := srv.Shutdown(shutdown); err != nil {
				return fmt.Errorf("serve: shutdown: %w", err)
			}
			if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("serve: %w", err)
			}
			return nil
		},
	}
}

// changedFlags are the flags of fs given on the command line, as an
// argument list for gtpengine.ParseArgs.
func changedFlags(fs *pflag.FlagSet) []string {
	var args []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Changed {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return args
}
