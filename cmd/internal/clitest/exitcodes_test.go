package clitest

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/buildtest"
)

var programs = map[string]*string{}

// The seven programs, built once for every case.
var names = []string{"ringmaster", "bgbot", "bgtool", "bgtrain", "fibsbridge", "fibsd", "gobot"}

func TestMain(m *testing.M) {
	for _, name := range names {
		programs["../../"+name] = new(string)
	}
	buildtest.Main(m, programs)
}

func binary(name string) string { return *programs["../../"+name] }

// runProgram runs a program with empty stdin and returns what it printed
// and its exit status.
func runProgram(t *testing.T, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary(name), args...)
	var o, e bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return o.String(), e.String(), exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return o.String(), e.String(), 0
}

// TestConvention runs the table: for each program, and for one subcommand
// of each program that has them, --help (exit 0, a description line and
// then the usage on stdout), a bad flag (exit 2, the error and that
// command's usage on stderr), --version (exit 0, the program's name), and
// a failure at run time (exit 1).
func TestConvention(t *testing.T) {
	type check struct {
		prog   string
		args   []string
		code   int
		stdout string // a prefix, "" for none printed
		stderr string // a substring, "" for none printed
	}
	var table []check
	subcommands := map[string]string{"ringmaster": "run", "bgtool": "board", "bgtrain": "train", "fibsd": "serve"}
	for _, name := range names {
		table = append(table,
			check{name, []string{"--help"}, 0, name, ""},
			check{name, []string{"--version"}, 0, name + " ", ""},
			check{name, []string{"--no-such-flag"}, 2, "", "usage: " + name},
		)
		if sub, ok := subcommands[name]; ok {
			table = append(table,
				check{name, []string{"-h"}, 0, name, ""},
				check{name, []string{sub, "--help"}, 0, "", ""},
				check{name, []string{sub, "--no-such-flag"}, 2, "", "unknown flag: --no-such-flag\n\nusage: " + name + " " + sub},
				check{name, []string{"no-such-command"}, 2, "", "unknown command \"no-such-command\""},
			)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing")
	table = append(table,
		check{"ringmaster", []string{"show", missing + ".toml"}, 1, "", "missing.toml"},
		check{"ringmaster", []string{"compare", missing + ".toml"}, 2, "", "compare: want 2 arguments, got 1\n\nusage: ringmaster compare A.toml B.toml"},
		check{"bgtool", []string{"convert", missing + ".mat", missing + ".sgf"}, 1, "", "missing.mat"},
		check{"bgtool", []string{"moves", "4HPwATDgc/ABMA"}, 2, "", "moves: want 2 arguments, got 1\n\nusage: bgtool moves POSITION_ID DICE"},
		check{"bgtrain", []string{"duel", "--a-weights", missing, "--games", "4"}, 1, "", "missing"},
		check{"bgbot", []string{"--weights", missing}, 1, "", "missing"},
		check{"gobot", []string{"--patterns", missing}, 1, "", "missing"},
		check{"gobot", []string{"stray"}, 2, "", "gobot: unexpected argument \"stray\"\n\nusage: gobot [flags]"},
		check{"fibsbridge", []string{"--user", "u"}, 2, "", "--user and --password-file are required"},
		check{"fibsbridge", []string{"--user", "u", "--password-file", missing, "--builtin", ""}, 1, "", "password file"},
		check{"fibsd", []string{"adduser"}, 2, "", "adduser: want 1 argument, got 0\n\nusage: fibsd adduser NAME"},
	)
	for _, c := range table {
		stdout, stderr, code := runProgram(t, c.prog, c.args...)
		t.Logf("%-10s %-40s exit %d", c.prog, strings.Join(c.args, " "), code)
		bad := code != c.code
		switch {
		case c.code == 0 && c.stdout == "" && len(c.args) == 2: // a subcommand's help
			first, _, _ := strings.Cut(stdout, "\n")
			bad = bad || first == "" || strings.HasPrefix(first, "usage") || !strings.Contains(stdout, "\nusage: "+c.prog+" "+c.args[0])
		case c.stdout != "":
			bad = bad || !strings.HasPrefix(stdout, c.stdout)
		default:
			bad = bad || stdout != ""
		}
		if c.args[0] == "--help" || c.args[0] == "-h" {
			// A description line, then the usage.
			first, _, _ := strings.Cut(stdout, "\n")
			bad = bad || strings.HasPrefix(first, "usage") || !strings.Contains(stdout, "\n\nusage:")
		}
		if c.stderr == "" {
			bad = bad || stderr != ""
		} else {
			bad = bad || !strings.Contains(stderr, c.stderr) || !strings.HasPrefix(stderr, c.prog+": ")
		}
		if strings.Contains(stdout+stderr, "pflag") || strings.Contains(stderr, c.prog+": : ") {
			bad = true
		}
		if bad {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit %d, stdout starting %q, stderr with %q",
				c.prog, c.args, code, trim(stdout), trim(stderr), c.code, c.stdout, c.stderr)
		}
	}
}

func trim(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
