package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/spf13/pflag"
)

// gnubgSetFlags are what gnubg-benchset and gnubg-moveset share: where to
// write, how deep gnubg looks, which of the records' positions to keep,
// and how gnubg runs.
type gnubgSetFlags struct {
	command                    string
	out                        *string
	plies, stride, limit, jobs *int
	binary                     *string
	quiet                      *bool
	classes                    *[]string
	keepClass                  [bgbot.NumClasses]bool
	fs                         *pflag.FlagSet
	// reprice, when set and not empty, names a set to price again instead
	// of records (gnubg-moveset --reprice).
	reprice *string
}

func newGnubgSetFlags(fs *pflag.FlagSet, command, what, reader string) *gnubgSetFlags {
	f := &gnubgSetFlags{
		command: command,
		fs:      fs,
		out:     fs.StringP("out", "o", "", what+" to write ("+reader+" reads it)"),
		plies:   fs.Int("plies", 2, "depth of gnubg's evaluations"),
		stride:  fs.Int("stride", 1, "keep every n-th distinct one met"),
		limit:   fs.Int("positions", 0, "keep at most this many (0: all)"),
		jobs:    fs.IntP("parallel", "j", 1, "gnubg processes at once"),
		binary:  fs.String("gnubg", "gnubg", "gnubg program (a bare name is looked for on PATH, then in /usr/games)"),
		quiet:   fs.BoolP("quiet", "q", false, "no progress on stderr"),
		classes: fs.StringSlice("classes", nil, "keep only the positions of these classes (contact, crashed, race; for a move set, of the position before the move), before --stride (default: all)"),
	}
	cli.Alias(fs, "jobs", "parallel")
	return f
}

// classesFlag is --classes as a set's header states it ("" when unset).
func (f *gnubgSetFlags) classesFlag() string {
	if len(*f.classes) == 0 {
		return ""
	}
	return " --classes " + strings.Join(*f.classes, ",")
}

// wanted reports whether --classes keeps the position.
func (f *gnubgSetFlags) wanted(b *backgammon.Board) bool {
	return len(*f.classes) == 0 || f.keepClass[bgbot.Class(b)]
}

// parse checks the flags and reads the records; it returns gnubg's path.
func (f *gnubgSetFlags) parse(args []string) (string, []*record.Match, error) {
	if err := cli.Parse(f.fs, args, 0, -1); err != nil {
		return "", nil, err
	}
	repricing := f.reprice != nil && *f.reprice != ""
	switch n := f.fs.NArg(); {
	case repricing && n > 0:
		return "", nil, cli.Usagef("%s: --reprice reads no records, got %d arguments", f.command, n)
	case !repricing && n == 0:
		return "", nil, cli.Usagef("%s: want records (FILE.mat, FILE.sgf or a folder of them)", f.command)
	}
	switch {
	case *f.out == "":
		return "", nil, cli.Usagef("%s: --out is required", f.command)
	case *f.plies < 0 || *f.plies > gnubg.MaxPlies, *f.stride < 1, *f.limit < 0, *f.jobs < 1:
		return "", nil, cli.Usagef("%s: --plies 0..%d, --stride and --parallel at least 1, --positions at least 0", f.command, gnubg.MaxPlies)
	}
	for _, name := range *f.classes {
		c, ok := bgbot.ParseClass(name)
		if !ok {
			return "", nil, cli.Usagef("%s: --classes takes contact, crashed and race, not %q", f.command, name)
		}
		f.keepClass[c] = true
	}
	bin, err := gnubg.FindBinary(*f.binary)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", f.command, err)
	}
	files, err := recordfile.Expand(f.fs.Args())
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", f.command, err)
	}
	var ms []*record.Match
	for _, path := range files {
		m, err := loadRecord(path)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", f.command, err)
		}
		ms = append(ms, m)
	}
	return bin, ms, nil
}

// progress reports on stderr unless --quiet.
func (f *gnubgSetFlags) progress(stderr io.Writer) func(done, total int) {
	if *f.quiet {
		return nil
	}
	return func(done, total int) { fmt.Fprintf(stderr, "\rjudged %d/%d", done, total) }
}

// runGnubgSet makes a benchmark set from the positions of match records,
// each judged by gnubg's evaluation: the yardstick of a stronger program,
// on positions that games against real opponents reach.
func runGnubgSet(ctx context.Context, fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) error {
	f := newGnubgSetFlags(fs, "gnubg-benchset", "benchmark set", "bgtrain benchmark --set")
	bin, ms, err := f.parse(args)
	if err != nil {
		return err
	}
	db, err := bgbot.NewBearoff(bgbot.DefaultBearoffCheckers)
	if err != nil {
		return err
	}
	skip := func(b *backgammon.Board) bool { _, exact := db.Probs(b); return exact || !f.wanted(b) }
	boards, err := benchset.FromRecords(ms, *f.stride, skip)
	if err != nil {
		return fmt.Errorf("gnubg-benchset: %w", err)
	}
	if *f.limit > 0 && len(boards) > *f.limit {
		boards = boards[:*f.limit]
	}
	if len(boards) == 0 {
		return fmt.Errorf("gnubg-benchset: no positions before a roll in %d records", len(ms))
	}
	begin := time.Now()
	set, err := judgeWithGnubg(ctx, bin, *f.plies, *f.jobs, boards, f.progress(stderr))
	if !*f.quiet {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return fmt.Errorf("gnubg-benchset: %w", err)
	}
	names := make([]string, 0, 3)
	for _, p := range f.fs.Args() {
		if len(names) == 3 {
			names = append(names, "...")
			break
		}
		names = append(names, filepath.Base(p))
	}
	header := []string{
		"bgbot benchmark set judged by gnubg: positions before the roll, for the player on roll",
		fmt.Sprintf("made by: bgtool gnubg-benchset --plies %d --stride %d --positions %d%s", *f.plies, *f.stride, *f.limit, f.classesFlag()),
		fmt.Sprintf("positions from %d records (%s), each distinct one once, bear-offs in the 10-checker database left out", len(ms), strings.Join(names, " ")),
		fmt.Sprintf("probabilities: gnubg's cubeless evaluation at %d ply (standard error 0: an evaluation, not a rollout); took %v", *f.plies, time.Since(begin).Round(time.Second)),
	}
	if err := atomicfile.Write(*f.out, func(w io.Writer) error { return benchset.Write(w, header, set) }); err != nil {
		return fmt.Errorf("gnubg-benchset: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d positions judged by gnubg at %d ply\n", *f.out, len(set), *f.plies)
	return nil
}

// judgeWithGnubg has gnubg judge each position (gnubg.Judge) and returns
// them as a benchmark set.
func judgeWithGnubg(ctx context.Context, bin string, plies, jobs int, boards []backgammon.Board, progress func(done, total int)) ([]benchset.Position, error) {
	probs, err := gnubg.Judge(ctx, bin, plies, jobs, boards, progress)
	if err != nil {
		return nil, err
	}
	set := make([]benchset.Position, len(boards))
	for i, p := range probs {
		r := bgbot.RolloutResult{}
		for k, x := range p {
			r.Probs[k] = float32(x)
		}
		r.Equity = float64(r.Probs.Equity())
		set[i] = benchset.Position{Board: boards[i], Rollout: r}
	}
	return set, nil
}
