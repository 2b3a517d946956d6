// Package cli gives Gamemill's multi-command programs (bgtool, bgtrain,
// bgbot) one layout, after cmd/go's: each subcommand parses its own pflag
// flag set, and a program's run function turns the subcommand's error into
// its exit status in one place ([Exit]): 0 on success or --help, 2 for a
// usage error (a bad flag, flag value or argument count), 1 for anything
// that failed at run time.
package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/spf13/pflag"
)

// ErrUsage is wrapped by every usage error; test with errors.Is.
var ErrUsage = errors.New("usage error")

type usageError struct{ err error }

func (e *usageError) Error() string   { return e.err.Error() }
func (e *usageError) Unwrap() []error { return []error{ErrUsage, e.err} }

// Usagef returns a usage error: exit status 2, with the usage printed.
func Usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// NewFlags returns the flag set of subcommand name of program prog. Its
// --help prints "usage: PROG NAME [flags] ARGS" and the flags to out.
func NewFlags(prog, name, args string, out io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: %s %s [flags] %s\n\nflags:\n%s", prog, name, args, fs.FlagUsages())
	}
	return fs
}

// Parse parses args into fs and checks that between min and max
// positional arguments remain (max < 0: no upper limit) and that every
// floating-point flag is a finite number (NaN and ±Inf pass strconv but
// mean nothing as a rate, a noise or a margin). Every error but
// pflag.ErrHelp is a usage error.
func Parse(fs *pflag.FlagSet, args []string, min, max int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return Usagef("%s: %v", fs.Name(), err)
	}
	if err := Finite(fs); err != nil {
		return err
	}
	if n := fs.NArg(); n < min || (max >= 0 && n > max) {
		switch {
		case max == 0:
			return Usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
		case max < 0:
			return Usagef("%s: want at least %d arguments, got %d", fs.Name(), min, n)
		}
		return Usagef("%s: want %d to %d arguments, got %d", fs.Name(), min, max, n)
	}
	return nil
}

// Finite reports, as a usage error, the first floating-point flag of fs
// set to NaN or an infinity.
func Finite(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err != nil || (f.Value.Type() != "float64" && f.Value.Type() != "float32") {
			return
		}
		x, perr := strconv.ParseFloat(f.Value.String(), 64)
		if perr != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			err = Usagef("%s: --%s %s: want a finite number", fs.Name(), f.Name, f.Value.String())
		}
	})
	return err
}

// Exit reports err on stderr, prefixed with the program's name, and
// returns the exit status: 0 for nil or pflag.ErrHelp, 2 for a usage error
// (followed by usage, when not empty), 1 otherwise.
func Exit(prog string, err error, usage string, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		if usage != "" {
			fmt.Fprintf(stderr, "\n%s", usage)
		}
		return 2
	}
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	return 1
}
