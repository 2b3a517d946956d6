package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// interrupted is an error with its own exit status.
type interrupted struct{}

func (interrupted) Error() string { return "interrupted" }
func (interrupted) ExitCode() int { return 3 }

func testProgram(ran *[]string) *Program {
	return &Program{
		Name:    "prog",
		Summary: "Prog does things.",
		Usage:   "usage: prog COMMAND [flags] ARGS\n\ncommands:\n  copy  copy IN to OUT\n",
		Commands: []Command{
			{Name: "copy", Aliases: []string{"cp"}, Args: "IN OUT", Summary: "Copy IN to OUT.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error {
					n := fs.IntP("parallel", "j", 1, "copies at once")
					Alias(fs, "jobs", "parallel")
					if err := Parse(fs, args, 2, 2); err != nil {
						return err
					}
					if *n < 1 {
						return Usagef("copy: --parallel %d: want 1 or more", *n)
					}
					*ran = append(*ran, fmt.Sprintf("copy %s %s -j %d", fs.Arg(0), fs.Arg(1), *n))
					switch fs.Arg(0) {
					case "missing":
						return errors.New("missing: no such file")
					case "signal":
						return fmt.Errorf("copy: %w", interrupted{})
					}
					return nil
				}},
		},
	}
}

func TestProgram(t *testing.T) {
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr []string // each must appear; "" alone: must be empty
		ran            string
	}{
		{args: nil, code: 2, stdout: []string{""}, stderr: []string{"usage: prog COMMAND"}},
		{args: []string{"--help"}, code: 0, stdout: []string{"Prog does things.\n\nusage: prog COMMAND"}, stderr: []string{""}},
		{args: []string{"-h"}, code: 0, stdout: []string{"Prog does things."}, stderr: []string{""}},
		{args: []string{"help", "copy"}, code: 0, stdout: []string{"Copy IN to OUT.\n\nusage: prog copy IN OUT [flags]"}, stderr: []string{""}},
		{args: []string{"--version"}, code: 0, stdout: []string{"prog "}, stderr: []string{""}},
		{args: []string{"frob"}, code: 2, stdout: []string{""}, stderr: []string{`prog: unknown command "frob"`, "usage: prog COMMAND"}},
		{args: []string{"--frob"}, code: 2, stdout: []string{""}, stderr: []string{"prog: unknown flag --frob", "usage: prog COMMAND"}},
		{args: []string{"copy", "--help"}, code: 0, stdout: []string{"Copy IN to OUT.\n\nusage: prog copy IN OUT [flags]\n\nflags:\n", "--parallel"}, stderr: []string{""}},
		// A subcommand's mistake prints the subcommand's usage, not the
		// program's.
		{args: []string{"copy", "--frob", "a", "b"}, code: 2, stdout: []string{""}, stderr: []string{"prog: copy: unknown flag: --frob\n\nusage: prog copy IN OUT [flags]\n", "--parallel"}},
		{args: []string{"copy", "a"}, code: 2, stdout: []string{""}, stderr: []string{"prog: copy: want 2 arguments, got 1\n\nusage: prog copy IN OUT"}},
		{args: []string{"copy", "-j", "0", "a", "b"}, code: 2, stderr: []string{"copy: --parallel 0: want 1 or more", "usage: prog copy"}},
		{args: []string{"cp", "-j", "3", "a", "b"}, code: 0, stdout: []string{""}, stderr: []string{""}, ran: "copy a b -j 3"},
		// The deprecated name still works, with a notice on stderr.
		{args: []string{"copy", "--jobs", "2", "a", "b"}, code: 0, stdout: []string{""}, stderr: []string{"--jobs has been deprecated, use --parallel"}, ran: "copy a b -j 2"},
		{args: []string{"copy", "missing", "b"}, code: 1, stdout: []string{""}, stderr: []string{"prog: missing: no such file\n"}, ran: "copy missing b -j 1"},
		{args: []string{"copy", "signal", "b"}, code: 3, stderr: []string{"prog: copy: interrupted\n"}, ran: "copy signal b -j 1"},
	} {
		var ran []string
		var stdout, stderr bytes.Buffer
		code := testProgram(&ran).Main(context.Background(), c.args, &stdout, &stderr)
		if code != c.code {
			t.Errorf("prog %q: exit %d, want %d (stdout %q, stderr %q)", c.args, code, c.code, stdout.String(), stderr.String())
		}
		check := func(name, got string, want []string) {
			for _, w := range want {
				if w == "" && got != "" || !strings.Contains(got, w) {
					t.Errorf("prog %q: %s %q, want %q", c.args, name, got, w)
				}
			}
		}
		check("stdout", stdout.String(), c.stdout)
		check("stderr", stderr.String(), c.stderr)
		if strings.Join(ran, "\n") != c.ran {
			t.Errorf("prog %q ran %q, want %q", c.args, ran, c.ran)
		}
		if strings.Contains(stdout.String()+stderr.String(), "pflag") {
			t.Errorf("prog %q: pflag's own message: %q %q", c.args, stdout.String(), stderr.String())
		}
	}
	// The alias is hidden from the help.
	var stdout bytes.Buffer
	testProgram(new([]string)).Main(context.Background(), []string{"copy", "-h"}, &stdout, &bytes.Buffer{})
	if strings.Contains(stdout.String(), "jobs") {
		t.Errorf("help shows the deprecated alias:\n%s", stdout.String())
	}
}

// TestSingleCommand: a program of one command has --version, and its
// errors name the program once ("gobot: : unknown flag" was printed).
func TestSingleCommand(t *testing.T) {
	c := &Command{Summary: "Solo plays alone.", Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error {
		fs.Int("n", 1, "how many")
		return Parse(fs, args, 0, 0)
	}}
	for _, tc := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"--help"}, 0, "Solo plays alone.\n\nusage: solo [flags]\n\nflags:\n", ""},
		{[]string{"--version"}, 0, "solo ", ""},
		{[]string{"--bogus"}, 2, "", "solo: unknown flag: --bogus\n\nusage: solo [flags]\n"},
		{[]string{"stray"}, 2, "", "solo: unexpected argument \"stray\"\n\nusage: solo [flags]"},
		{[]string{"--n", "2"}, 0, "", ""},
	} {
		var stdout, stderr bytes.Buffer
		code := c.Main(context.Background(), "solo", tc.args, &stdout, &stderr)
		if code != tc.code || !strings.HasPrefix(stdout.String(), tc.stdout) || !strings.HasPrefix(stderr.String(), tc.stderr) ||
			(tc.stdout == "") != (stdout.Len() == 0) || (tc.stderr == "") != (stderr.Len() == 0) {
			t.Errorf("solo %q: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.stderr)
		}
	}
}

func TestVersionLine(t *testing.T) {
	devel := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gamemill/gamemill", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-28T08:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	tagged := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gamemill/gamemill", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}}
	bare := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gamemill/gamemill", Version: "(devel)"}}
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{devel, true, "ringmaster (devel) commit 0123456789ab 2026-11-28T08:00:00Z modified go1.26.8 "},
		{tagged, true, "ringmaster v1.2.3 go1.26.8 "},
		{bare, true, "ringmaster (devel) go1.26.8 "},
		{nil, false, "ringmaster (unknown) go"},
	} {
		if got := versionLine("ringmaster", c.info, c.ok); !strings.HasPrefix(got, c.want) {
			t.Errorf("versionLine = %q, want it to start with %q", got, c.want)
		}
	}
	if v := Version("prog"); !strings.HasPrefix(v, "prog ") {
		t.Errorf("Version = %q", v)
	}
}

// TestUsageFlagsPlace: Args may place "[flags]" itself, before arguments
// that end the flags ("-- ENGINE ARGS").
func TestUsageFlagsPlace(t *testing.T) {
	c := &Command{Args: "[flags] -- ENGINE [ARGS...]"}
	fs := c.FlagSet("bridge", io.Discard, io.Discard)
	fs.String("user", "", "account name")
	if got := UsageText("bridge", c, fs); !strings.HasPrefix(got, "usage: bridge [flags] -- ENGINE [ARGS...]\n\nflags:\n      --user string") {
		t.Errorf("usage %q", got)
	}
	plain := &Command{Name: "stop", Args: "CONTROL.toml"}
	if got := UsageText("ringmaster", plain, plain.FlagSet("ringmaster", io.Discard, io.Discard)); got != "usage: ringmaster stop CONTROL.toml\n" {
		t.Errorf("usage without flags %q", got)
	}
}
