// Command fibsd runs protocol/fibs/server, a FIBS-style backgammon server,
// on the addresses its flags give (loopback unless a host is given), and
// creates accounts in its database.
//
//	fibsd serve --db fibsd.db --tcp 4321 --ws 4380 --records matches/
//	fibsd adduser --db fibsd.db NAME < password-file
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/crypto/bcrypt"

	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/protocol/fibs/server"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: fibsd COMMAND [flags] ARGS

commands:
  serve [--db FILE] [--tcp ADDR] [--ws ADDR] [--records DIR] [--register] [limits]
                     serve clients and bots until interrupted
  adduser [--db FILE] NAME
                     create an account (the password is read from stdin)

Run 'fibsd COMMAND --help' for a command's flags.

exit status: 0 ok; 1 error; 2 usage
`

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	p := &cli.Program{
		Name:    "fibsd",
		Summary: "fibsd is a FIBS-style backgammon server: accounts, invitations and refereed match play over telnet-style TCP and WebSocket.",
		Usage:   usage,
		Commands: []cli.Command{
			{Name: "serve", Summary: "Serve FIBS clients and bots until interrupted, saving matches in progress when it stops.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return serve(fs, args, stderr) }},
			{Name: "adduser", Args: "NAME", Summary: "Create an account in the server's database; the password is read from stdin.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return addUser(fs, args, stdin) }},
		},
	}
	return p.Main(context.Background(), args, stdout, stderr)
}

func addUser(fs *pflag.FlagSet, args []string, stdin io.Reader) error {
	db := fs.String("db", "fibsd.db", "the server's SQLite database")
	cost := fs.Int("bcrypt-cost", bcrypt.DefaultCost, "bcrypt cost of the password hash")
	if err := cli.Parse(fs, args, 1, 1); err != nil {
		return err
	}
	pw, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read password: %w", err)
	}
	pw = strings.TrimRight(pw, "\r\n")
	if pw == "" || strings.ContainsAny(pw, " \t") {
		return errors.New("the password must be one word, not empty")
	}
	st, err := server.OpenStore(*db, *cost)
	if err != nil {
		return err
	}
	defer st.Close()
	return st.AddUser(fs.Arg(0), pw)
}

func serve(fs *pflag.FlagSet, args []string, stderr io.Writer) error {
	db := fs.String("db", "fibsd.db", "SQLite database of accounts and saved matches")
	tcpAddr := fs.String("tcp", "4321", "address for telnet-style clients: PORT or :PORT listens on loopback only, HOST:PORT (0.0.0.0:4321 for every interface) where given (empty: none)")
	wsAddr := fs.String("ws", "", "address for WebSocket clients, served at /fibs, as for --tcp (empty: none)")
	var cfg server.Config
	fs.StringVar(&cfg.Records, "records", "matches", "directory for the .mat files of finished matches")
	fs.BoolVar(&cfg.Register, "register", false, "a login with an unknown name creates the account")
	fs.IntVar(&cfg.MaxLine, "max-line", 512, "longest command line accepted; longer ones are skipped")
	fs.IntVar(&cfg.LoginAttempts, "login-attempts", 3, "failed logins before a connection is closed")
	fs.IntVar(&cfg.AddrAttempts, "address-attempts", 20, "failed logins per address per --address-window")
	fs.DurationVar(&cfg.AddrWindow, "address-window", time.Minute, "window for --address-attempts")
	fs.DurationVar(&cfg.LoginIdle, "login-timeout", time.Minute, "close connections that have not logged in after this")
	fs.IntVar(&cfg.AddrConns, "address-conns", 8, "connections not yet logged in, per address")
	fs.IntVar(&cfg.AddrRegs, "address-registrations", 3, "accounts --register creates per address per --registration-window")
	fs.DurationVar(&cfg.RegWindow, "registration-window", time.Hour, "window for --address-registrations")
	fs.IntVar(&cfg.MaxConns, "max-conns", 1000, "connections at once; more are refused")
	fs.DurationVar(&cfg.WriteTimeout, "write-timeout", 30*time.Second, "drop a client that takes no output for this long")
	fs.DurationVar(&cfg.HTTPIdle, "http-idle-timeout", 30*time.Second, "close idle HTTP connections on the WebSocket port after this")
	fs.StringSliceVar(&cfg.Origins, "allowed-origins", nil, "web origins (https://host[:port]) whose pages may open WebSockets, besides the server's own")
	cost := fs.Int("bcrypt-cost", bcrypt.DefaultCost, "bcrypt cost for accounts created by --register")
	fs.StringVar(&cfg.MOTD, "motd", "Welcome to gamemill fibsd.", "message of the day")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *tcpAddr == "" && *wsAddr == "" {
		return cli.Usagef("serve: give --tcp or --ws")
	}
	logger := log.New(stderr, "fibsd: ", log.LstdFlags)
	st, err := server.OpenStore(*db, *cost)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var tcp, ws net.Listener
	if *tcpAddr != "" {
		if tcp, err = net.Listen("tcp", listenAddr(*tcpAddr)); err != nil {
			return fmt.Errorf("--tcp: %w", err)
		}
		logger.Printf("TCP on %s", tcp.Addr())
	}
	if *wsAddr != "" {
		if ws, err = net.Listen("tcp", listenAddr(*wsAddr)); err != nil {
			return fmt.Errorf("--ws: %w", err)
		}
		logger.Printf("WebSocket on ws://%s/fibs", ws.Addr())
	}
	err = server.New(cfg, st, logger).Run(ctx, tcp, ws)
	logger.Printf("stopped: matches in progress saved")
	return err
}

// listenAddr puts an address without a host (PORT or :PORT) on loopback:
// a server is open to the network only where its address says so.
func listenAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		return net.JoinHostPort("127.0.0.1", addr)
	}
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}
