package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/sgf"
)

// recordFormat is a match-record file format, chosen by file extension.
type recordFormat struct {
	read  func(io.Reader) (*record.Match, error)
	write func(io.Writer, *record.Match) error
}

func formatFor(path string) (recordFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mat":
		return recordFormat{mat.Read, mat.Write}, nil
	case ".sgf":
		return recordFormat{sgf.Read, sgf.Write}, nil
	}
	return recordFormat{}, fmt.Errorf("%w: convert: %s: unknown record format (want .mat or .sgf)", errUsage, path)
}

// runConvert implements 'bgtool convert IN OUT': it reads a match record
// (Jellyfish .mat or gnubg SGF, by extension), replays it through the
// rules, checking every move, and writes it in OUT's format. OUT is written
// only when the whole conversion succeeds.
func runConvert(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("convert", "IN OUT", stdout)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: bgtool convert IN OUT\n\n"+
			"Convert a backgammon match record between Jellyfish .mat and gnubg SGF,\n"+
			"chosen by each file's extension. Every move is checked against the rules.\n")
	}
	err := parseFlags(fs, args, 2, 2)
	if err == nil {
		err = convert(fs.Arg(0), fs.Arg(1))
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "bgtool: %v\nusage: bgtool convert IN OUT (IN and OUT end in .mat or .sgf)\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "bgtool: convert: %v\n", err)
	return 1
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
