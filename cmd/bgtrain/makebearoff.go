package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/spf13/pflag"
)

// makebearoff builds a one-sided bearoff database and writes it for
// bgbot --bearoff.
func makebearoff(_ context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	checkers := fs.Int("checkers", 15, "most checkers a side has in the database (15 adds gammon distributions)")
	out := fs.String("out", "bearoff15.bgbo", "database file to write")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *checkers < 1 || *checkers > 15 {
		return cli.Usagef("makebearoff: --checkers %d out of range 1..15", *checkers)
	}
	begin := time.Now()
	db, err := bgbot.NewBearoff(*checkers)
	if err != nil {
		return err
	}
	var n int64
	if err := writeAtomic(*out, func(w io.Writer) (err error) { n, err = db.WriteTo(w); return err }); err != nil {
		return fmt.Errorf("makebearoff: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d checkers, %d bytes, built in %v\n", *out, *checkers, n, time.Since(begin).Round(time.Millisecond))
	return nil
}
