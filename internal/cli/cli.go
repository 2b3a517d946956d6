// Package cli gives Gamemill's seven programs one command-line convention,
// after cmd/go's: each command (a program, or a subcommand of one) parses
// its own pflag flag set, and its error becomes the exit status in one
// place ([Exit]):
//
//   - --help or -h prints a one-line description of the command, its usage
//     and its flags on stdout, and exits 0;
//   - --version prints the program's version (see [Version]) on stdout and
//     exits 0;
//   - a usage error (an unknown flag, a bad value, a wrong number of
//     arguments) prints the error and the command's usage on stderr and
//     exits 2;
//   - any other error exits 1, unless it carries its own status
//     ([ExitCoder]).
//
// [Program] dispatches a program's subcommands; [Command.Main] runs a
// program that has none.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// ErrUsage is wrapped by every usage error; test with errors.Is.
var ErrUsage = errors.New("usage error")

// ErrVersion is returned by [Parse] when --version was given.
var ErrVersion = errors.New("version requested")

type usageError struct{ err error }

func (e *usageError) Error() string   { return e.err.Error() }
func (e *usageError) Unwrap() []error { return []error{ErrUsage, e.err} }

// Usagef returns a usage error: exit status 2, with the usage printed.
func Usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// ExitCoder is an error that names its own exit status, such as a run
// stopped by a signal.
type ExitCoder interface {
	error
	ExitCode() int
}

// Command is a program of one command, or one subcommand of a [Program].
type Command struct {
	// Name is the subcommand's name; empty for a program of one command.
	Name string
	// Aliases are other names the subcommand answers to.
	Aliases []string
	// Args shows the positional arguments in the usage line ("IN OUT").
	// The usage line puts "[flags]" after them, unless Args places it.
	Args string
	// Summary says in one line what the command does; --help prints it
	// first.
	Summary string
	// Run defines the command's flags on fs, parses args with [Parse]
	// and does the work.
	Run func(ctx context.Context, fs *pflag.FlagSet, args []string) error
}

// Program is a program of several subcommands.
type Program struct {
	Name    string
	Summary string // one line: what the program does
	// Usage is the top-level usage: a "usage:" line and the commands.
	Usage    string
	Commands []Command
}

// Main runs the subcommand that args name and returns the exit status.
// With no arguments it prints the usage on stderr (status 2); --help, -h
// or help prints the summary and usage on stdout; "help COMMAND" is
// "COMMAND --help"; --version prints the version.
func (p *Program) Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, p.Usage)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			if c := p.command(args[1]); c != nil {
				return c.Main(ctx, p.Name, []string{"--help"}, stdout, stderr)
			}
		}
		fmt.Fprintf(stdout, "%s\n\n%s", p.Summary, p.Usage)
		return 0
	case "--version":
		fmt.Fprintln(stdout, Version(p.Name))
		return 0
	}
	c := p.command(args[0])
	if c == nil {
		err := Usagef("unknown command %q", args[0])
		if strings.HasPrefix(args[0], "-") {
			err = Usagef("unknown flag %s (flags come after the command)", args[0])
		}
		return Exit(p.Name, err, p.Usage, stderr)
	}
	return c.Main(ctx, p.Name, args[1:], stdout, stderr)
}

func (p *Program) command(name string) *Command {
	for i, c := range p.Commands {
		if c.Name == name {
			return &p.Commands[i]
		}
		for _, a := range c.Aliases {
			if a == name {
				return &p.Commands[i]
			}
		}
	}
	return nil
}

// Main runs the command as part of program prog and returns the exit
// status. A command without a name (a program of one command) has a
// --version flag.
func (c *Command) Main(ctx context.Context, prog string, args []string, stdout, stderr io.Writer) int {
	fs := c.FlagSet(prog, stdout, stderr)
	if c.Name == "" {
		fs.Bool("version", false, "print the version and exit")
	}
	err := c.Run(ctx, fs, args)
	if errors.Is(err, ErrVersion) {
		fmt.Fprintln(stdout, Version(prog))
		return 0
	}
	return Exit(prog, err, UsageText(prog, c, fs), stderr)
}

// FlagSet returns the command's empty flag set: its --help writes [Help]
// to stdout; pflag's other messages (deprecated flags) go to stderr.
func (c *Command) FlagSet(prog string, stdout, stderr io.Writer) *pflag.FlagSet {
	// A program of one command has an unnamed flag set: its errors are
	// prefixed with the program's name alone.
	fs := pflag.NewFlagSet(c.Name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { io.WriteString(stdout, Help(prog, c, fs)) }
	return fs
}

// Help is what --help prints: the summary, a blank line and the usage.
func Help(prog string, c *Command, fs *pflag.FlagSet) string {
	return c.Summary + "\n\n" + UsageText(prog, c, fs)
}

// UsageText is the command's usage line followed by its flags:
// "usage: PROG NAME ARGS [flags]".
func UsageText(prog string, c *Command, fs *pflag.FlagSet) string {
	var b strings.Builder
	b.WriteString("usage: " + prog)
	for _, s := range []string{c.Name, c.Args} {
		if s != "" {
			b.WriteString(" " + s)
		}
	}
	flags := fs.FlagUsages()
	if flags != "" && !strings.Contains(c.Args, "[flags]") {
		b.WriteString(" [flags]")
	}
	b.WriteString("\n")
	if flags != "" {
		b.WriteString("\nflags:\n" + flags)
	}
	return b.String()
}

// NewFlags returns the flag set of subcommand name of program prog, for
// a command that is run without [Program]. Its --help prints "usage: PROG
// NAME ARGS [flags]" and the flags to out.
func NewFlags(prog, name, args string, out io.Writer) *pflag.FlagSet {
	c := &Command{Name: name, Args: args}
	fs := c.FlagSet(prog, out, out)
	fs.Usage = func() { io.WriteString(out, UsageText(prog, c, fs)) }
	return fs
}

// Parse parses args into fs and checks that between min and max
// positional arguments remain (max < 0: no upper limit) and that every
// floating-point flag is a finite number (NaN and ±Inf pass strconv but
// mean nothing as a rate, a noise or a margin). It returns pflag.ErrHelp
// for --help, [ErrVersion] for --version (where fs has such a flag), and
// a usage error for anything else wrong.
func Parse(fs *pflag.FlagSet, args []string, min, max int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return Usagef("%s%v", prefix(fs), err)
	}
	if f := fs.Lookup("version"); f != nil && f.Changed && f.Value.String() == "true" {
		return ErrVersion
	}
	if err := Finite(fs); err != nil {
		return err
	}
	if n := fs.NArg(); n < min || (max >= 0 && n > max) {
		switch {
		case max == 0:
			return Usagef("%sunexpected argument %q", prefix(fs), fs.Arg(0))
		case max < 0:
			return Usagef("%swant at least %s, got %d", prefix(fs), arguments(min), n)
		case min == max:
			return Usagef("%swant %s, got %d", prefix(fs), arguments(min), n)
		}
		return Usagef("%swant %d to %d arguments, got %d", prefix(fs), min, max, n)
	}
	return nil
}

func arguments(n int) string {
	if n == 1 {
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

// prefix starts an error message with the subcommand's name, and with
// nothing for a program of one command (its name comes from [Exit]).
func prefix(fs *pflag.FlagSet) string {
	if fs.Name() == "" {
		return ""
	}
	return fs.Name() + ": "
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
			err = Usagef("%s--%s %s: want a finite number", prefix(fs), f.Name, f.Value.String())
		}
	})
	return err
}

// Alias adds to fs a hidden, deprecated flag old that sets the same value
// as flag current, so that scripts written for the old name keep working.
// Using it prints a notice on fs's output (stderr).
func Alias(fs *pflag.FlagSet, old, current string) {
	f := fs.Lookup(current)
	if f == nil {
		panic("cli.Alias: no flag --" + current)
	}
	fs.AddFlag(&pflag.Flag{Name: old, Usage: f.Usage, Value: f.Value, DefValue: f.DefValue,
		NoOptDefVal: f.NoOptDefVal, Hidden: true, Deprecated: "use --" + current})
}

// Exit reports err on stderr, prefixed with the program's name, and
// returns the exit status: 0 for nil or pflag.ErrHelp, 2 for a usage error
// (followed by usage, when not empty), the error's own status for an
// [ExitCoder], 1 otherwise.
func Exit(prog string, err error, usage string, stderr io.Writer) int {
	var coder ExitCoder
	switch {
	case err == nil, errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		if usage != "" {
			fmt.Fprintf(stderr, "\n%s", usage)
		}
		return 2
	case errors.As(err, &coder):
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return coder.ExitCode()
	}
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	return 1
}
