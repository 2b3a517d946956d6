package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		args     []string
		min, max int
		want     string // "" for no error
	}{
		{[]string{"a"}, 1, 1, ""},
		{[]string{"--rate", "0.5", "a", "b"}, 0, -1, ""},
		{[]string{"--rate", "1e308"}, 0, 0, ""},
		{nil, 1, 2, "want 1 to 2 arguments, got 0"},
		{nil, 2, 2, "cmd: want 2 arguments, got 0"},
		{[]string{"a", "b"}, 1, 1, "cmd: want 1 argument, got 2"},
		{[]string{"a", "b"}, 0, 0, `unexpected argument "a"`},
		{nil, 1, -1, "want at least 1 argument, got 0"},
		{[]string{"--bogus"}, 0, 0, "unknown flag: --bogus"},
		{[]string{"--rate", "x"}, 0, 0, "invalid argument"},
		{[]string{"--rate", "nan"}, 0, 0, "--rate NaN: want a finite number"},
		{[]string{"--rate", "NaN"}, 0, 0, "want a finite number"},
		{[]string{"--rate", "inf"}, 0, 0, "--rate +Inf: want a finite number"},
		{[]string{"--rate=-Inf"}, 0, 0, "want a finite number"},
		{[]string{"--small", "nan"}, 0, 0, "--small NaN: want a finite number"},
		{[]string{"--rate", "1e400"}, 0, 0, "invalid argument"},
	} {
		var out bytes.Buffer
		fs := NewFlags("prog", "cmd", "ARGS", &out)
		fs.Float64("rate", 0.1, "a rate")
		fs.Float32("small", 0.1, "a small rate")
		err := Parse(fs, c.args, c.min, c.max)
		if c.want == "" {
			if err != nil {
				t.Errorf("Parse(%q) = %v", c.args, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want a usage error containing %q", c.args, err, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	fs := NewFlags("prog", "cmd", "ARGS", &out)
	fs.Int("n", 3, "how many")
	err := Parse(fs, []string{"--help"}, 0, 0)
	if !errors.Is(err, pflag.ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
	if !strings.Contains(out.String(), "usage: prog cmd ARGS [flags]") || !strings.Contains(out.String(), "--n int") {
		t.Errorf("help text %q", out.String())
	}
	var stderr bytes.Buffer
	if code := Exit("prog", err, "USAGE\n", &stderr); code != 0 || stderr.Len() != 0 {
		t.Errorf("Exit(help) = %d, %q", code, stderr.String())
	}
}

func TestExit(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		want string
	}{
		{nil, 0, ""},
		{Usagef("cmd: bad %s", "thing"), 2, "prog: cmd: bad thing\n\nUSAGE\n"},
		{errors.New("disk full"), 1, "prog: disk full\n"},
	} {
		var stderr bytes.Buffer
		if code := Exit("prog", c.err, "USAGE\n", &stderr); code != c.code || stderr.String() != c.want {
			t.Errorf("Exit(%v) = %d, %q; want %d, %q", c.err, code, stderr.String(), c.code, c.want)
		}
	}
}
