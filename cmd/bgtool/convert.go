package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/spf13/pflag"
)

// recordFormat is a match-record file format, chosen by file extension.
type recordFormat struct {
	read  func(io.Reader) (*record.Match, error)
	write func(io.Writer, *record.Match) error
}

func formatFor(path string) (recordFormat, error) {
	read, err := recordfile.Reader(path)
	if err != nil {
		return recordFormat{}, cli.Usagef("convert: %v", err)
	}
	write, err := recordfile.Writer(path)
	if err != nil {
		return recordFormat{}, cli.Usagef("convert: %v", err)
	}
	return recordFormat{read, write}, nil
}

// runConvert implements 'bgtool convert IN OUT': it reads a match record
// (Jellyfish .mat or gnubg SGF, by extension), replays it through the
// rules, checking every move, and writes it in OUT's format. OUT is written
// only when the whole conversion succeeds.
func runConvert(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: bgtool convert IN OUT\n\n"+
			"Convert a backgammon match record between Jellyfish .mat and gnubg SGF,\n"+
			"chosen by each file's extension. Every move is checked against the rules.\n")
	}
	if err := cli.Parse(fs, args, 2, 2); err != nil {
		return err
	}
	if err := convert(fs.Arg(0), fs.Arg(1)); err != nil {
		if errors.Is(err, cli.ErrUsage) {
			return err
		}
		return fmt.Errorf("convert: %w", err)
	}
	return nil
}

func convert(in, out string) error {
	from, err := formatFor(in)
	if err != nil {
		return err
	}
	to, err := formatFor(out)
	if err != nil {
		return err
	}
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	m, err := from.read(f)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if err := record.Replay(m); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	var buf bytes.Buffer
	if err := to.write(&buf, m); err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return nil
}
