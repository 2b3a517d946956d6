// Command ringmaster runs competitions between engines described
// by a TOML control file, keeps their state in SQLite, and reports results.
//
// Usage:
//
//	ringmaster run|show|report|stop|reset|check|analyse CONTROL.toml [flags]
//	ringmaster ratings CONTROL.toml [CONTROL.toml ...] [flags]
//	ringmaster compare A.toml B.toml [flags]
//	ringmaster pool A.toml B.toml [C.toml ...] [flags]
//
// Each command has its own flags (ringmaster COMMAND --help). Exit status:
// 0 success; 1 error, or a run that left games unplayed after repeated
// void attempts; 2 usage error; 3 run interrupted (Ctrl-C or a signal;
// running games are replayed on the next run).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/judge"
)

const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 3
)

const usage = `usage: ringmaster COMMAND CONTROL.toml [flags]

commands:
  run     play the competition (resuming where it stopped)
  show    print the results so far
  report  rewrite CODE.report and any damaged record file, and print the report
  stop    ask a running competition to stop after its running games
  reset   delete the competition's state and outputs (refused while a run lives)
  check   start each engine once, showing its stderr
  analyse judge the play of every finished game (resumable; backgammon)
  ratings one rating table over the results of one or more competitions
          (ringmaster ratings A.toml [B.toml ...])
  compare two competitions on the same dice, game by game: the first
          player's points per game in A minus in B, raw and luck-adjusted
          (ringmaster compare A.toml B.toml)
  pool    the matchups several competitions share, pooled as one sample:
          one experiment run in batches on different dice
          (ringmaster pool A.toml B.toml [C.toml ...])

'ringmaster COMMAND --help' lists a command's flags.

exit status: 0 ok; 1 error (also: a run that left games unplayed after
void attempts); 2 usage; 3 interrupted
`

// command is one subcommand: its own flags and what it does.
type command struct {
	name    string
	summary string // one line, first in the command's --help
	flags   func(fs *pflag.FlagSet) func(ctx context.Context, rm *ringmaster.Ringmaster, io cmdIO) error
	// check, when set, checks the parsed flags before the control file is
	// read (a usage error first).
	check func(fs *pflag.FlagSet) error
	// many, set instead of flags, makes a command of one or more control
	// files.
	many func(fs *pflag.FlagSet) func(ctx context.Context, rms []*ringmaster.Ringmaster, io cmdIO) error
	// minFiles and maxFiles, with many, bound the number of control files
	// (0: one at least, and no most).
	minFiles, maxFiles int
}

// cmdIO is what a command reads and writes.
type cmdIO struct {
	stdin          *os.File
	stdout, stderr io.Writer
}

// interruptedError is a command stopped by a signal: exit status 3.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }
func (e *interruptedError) ExitCode() int { return exitInterrupted }

// errInterrupted marks a run stopped by a signal (exit 3).
var errInterrupted error = &interruptedError{"interrupted; running games will be replayed on the next run"}

// errAnalyseInterrupted marks an analysis stopped by a signal (exit 3).
var errAnalyseInterrupted error = &interruptedError{"interrupted; the games judged are kept, and the next analyse goes on"}

func commands() []command {
	plain := func(do func(ctx context.Context, rm *ringmaster.Ringmaster, io cmdIO) error) func(*pflag.FlagSet) func(context.Context, *ringmaster.Ringmaster, cmdIO) error {
		return func(*pflag.FlagSet) func(context.Context, *ringmaster.Ringmaster, cmdIO) error { return do }
	}
	return []command{
		{name: "run", summary: "Play the competition, resuming where it stopped (on a terminal, Ctrl-X stops it after the running games).",
			flags: runFlags, check: checkRunFlags},
		{name: "show", summary: "Print the results so far without touching the report file (safe while a run goes on).",
			flags: func(fs *pflag.FlagSet) func(context.Context, *ringmaster.Ringmaster, cmdIO) error {
				asJSON := fs.Bool("json", false, "print the results as JSON (fields in docs/ringmaster.md)")
				return func(ctx context.Context, rm *ringmaster.Ringmaster, o cmdIO) error {
					if *asJSON {
						return rm.ShowJSON(ctx, o.stdout)
					}
					return rm.Show(ctx, o.stdout)
				}
			}},
		{name: "report", summary: "Rewrite CODE.report and any missing or damaged record file, and print the report.",
			flags: reportFlags},
		{name: "stop", summary: "Ask a running competition to stop after its running games.",
			flags: plain(func(_ context.Context, rm *ringmaster.Ringmaster, _ cmdIO) error { return rm.Stop() })},
		{name: "reset", summary: "Delete the competition's state and outputs (refused while a run lives).",
			flags: plain(func(_ context.Context, rm *ringmaster.Ringmaster, _ cmdIO) error { return rm.Reset() })},
		{name: "check", summary: "Start each engine once, showing its stderr, to see that it runs.",
			flags: plain(func(ctx context.Context, rm *ringmaster.Ringmaster, o cmdIO) error {
				return rm.Check(ctx, o.stdout, o.stderr)
			})},
		{name: "analyse", summary: "Judge the play of every finished game (backgammon; resumable) and print error rates and luck.",
			flags: analyseFlags, check: checkAnalyseFlags},
		{name: "ratings", summary: "One rating table (Bradley-Terry) over the results of one or more competitions.",
			many: ratingsFlags, check: checkRatingsFlags},
		{name: "compare", summary: "Compare two competitions on the same dice, game by game: the first player's points per game in A minus in B, raw and luck-adjusted.",
			many: compareFlags, minFiles: 2, maxFiles: 2},
		{name: "pool", summary: "Pool the matchups that several competitions share into one sample (one experiment run in batches on different dice).",
			many: poolFlags, minFiles: 2},
	}
}

func reportFlags(fs *pflag.FlagSet) func(context.Context, *ringmaster.Ringmaster, cmdIO) error {
	asJSON := fs.Bool("json", false, "print the results as JSON, as show --json does (fields in docs/ringmaster.md), after rewriting the files")
	return func(ctx context.Context, rm *ringmaster.Ringmaster, o cmdIO) error {
		if !*asJSON {
			return rm.Report(ctx, o.stdout)
		}
		var text strings.Builder
		if err := rm.Report(ctx, &text); err != nil {
			return err
		}
		// The text report is not printed; its note of the record files
		// it rewrote goes to stderr.
		if i := strings.LastIndex(text.String(), "\nrewrote "); i >= 0 {
			fmt.Fprint(o.stderr, text.String()[i+1:])
		}
		return rm.ShowJSON(ctx, o.stdout)
	}
}

func runFlags(fs *pflag.FlagSet) func(context.Context, *ringmaster.Ringmaster, cmdIO) error {
	parallel := fs.IntP("parallel", "j", 1, fmt.Sprintf("games played at once (1 to %d)", ringmaster.MaxParallel))
	maxGames := fs.IntP("max-games", "g", -1, "most games to start in this run (replays included; with paired games a pair may be split across runs)")
	quiet := fs.BoolP("quiet", "q", false, "print only errors")
	logProtocol := fs.Bool("log-protocol", false, "write per-game protocol logs in CODE.protocol/")
	return func(ctx context.Context, rm *ringmaster.Ringmaster, o cmdIO) error {
		opts := ringmaster.RunOptions{Parallel: *parallel, MaxGames: *maxGames, Quiet: *quiet, LogProtocol: *logProtocol,
			Display: o.stdout, Errors: o.stderr}
		if !*quiet && isTerminal(o.stdout) {
			opts.Live = true
		}
		stops, restore := watchCtrlX(o.stdin)
		defer restore()
		opts.StopRequests = stops
		status, err := rm.Run(ctx, opts)
		restore()
		if status == ringmaster.Interrupted || ctx.Err() != nil {
			if err != nil && ctx.Err() == nil {
				fmt.Fprintf(o.stderr, "ringmaster: %v\n", err)
			}
			return errInterrupted
		}
		if err == nil && status == ringmaster.Incomplete {
			return errors.New("games were left unplayed after repeated void attempts (see the log); run again to retry them")
		}
		return err
	}
}

func analyseFlags(fs *pflag.FlagSet) func(context.Context, *ringmaster.Ringmaster, cmdIO) error {
	plies := fs.Int("plies", 0, "depth of the judgement (backgammon: bgbot 0 to 3, gnubg 0 to 7) when --judge names none")
	judgeName := fs.String("judge", "", "ENGINE or ENGINE:PLIES: the judge (backgammon: bgbot, the default, or gnubg); each judge and depth keeps its own analyses")
	parallel := fs.IntP("parallel", "j", 1, fmt.Sprintf("games judged at once (1 to %d)", ringmaster.MaxAnalyseParallel))
	asJSON := fs.Bool("json", false, "print the statistics as JSON (fields in docs/analysis.md)")
	quiet := fs.BoolP("quiet", "q", false, "no line per game judged")
	matchups := fs.StringSlice("matchup", nil, "judge and report only this matchup id (repeat, or separate with commas)")
	return func(ctx context.Context, rm *ringmaster.Ringmaster, o cmdIO) error {
		spec := judge.Spec{Plies: *plies}
		if *judgeName != "" {
			spec, _ = judge.ParseSpec(*judgeName, *plies) // checked by checkAnalyseFlags
		}
		opts := ringmaster.AnalyseOptions{Judge: spec, Parallel: *parallel, Matchups: *matchups}
		if !*quiet {
			opts.Progress = o.stderr
		}
		rep, err := rm.Analyse(ctx, opts)
		if ctx.Err() != nil {
			return errAnalyseInterrupted
		}
		if err != nil {
			return err
		}
		write := rep.WriteText
		if *asJSON {
			write = rep.WriteJSON
		}
		if err := write(o.stdout); err != nil {
			return err
		}
		if len(rep.Failed) > 0 {
			// The report stands for the games judged and lists the others
			// ("not analysed", not_analysed in JSON); the status says that
			// not all were judged.
			return fmt.Errorf("%d of %d games could not be judged", len(rep.Failed), len(rep.Failed)+rep.Analysed)
		}
		return nil
	}
}

func checkAnalyseFlags(fs *pflag.FlagSet) error {
	if parallel, _ := fs.GetInt("parallel"); parallel < 1 || parallel > ringmaster.MaxAnalyseParallel {
		return fmt.Errorf("--parallel must be between 1 and %d, got %d", ringmaster.MaxAnalyseParallel, parallel)
	}
	if name, _ := fs.GetString("judge"); name != "" {
		if _, err := judge.ParseSpec(name, 0); err != nil {
			return fmt.Errorf("--judge: %w", err)
		}
		if plies := fs.Lookup("plies"); plies.Changed && strings.Contains(name, ":") {
			return fmt.Errorf("--judge %s names its depth: leave out --plies", name)
		}
	}
	return nil
}

func ratingsFlags(fs *pflag.FlagSet) func(context.Context, []*ringmaster.Ringmaster, cmdIO) error {
	anchor := fs.String("anchor", "", "CODE=RATING: fix a player's rating (otherwise the ratings average 0)")
	asJSON := fs.Bool("json", false, "print the table as JSON (fields in docs/ringmaster.md)")
	asCSV := fs.Bool("csv", false, "print the table as CSV (fields in docs/ringmaster.md)")
	format := fs.String("format", "", "text, csv or json")
	fs.MarkDeprecated("format", "use --json or --csv")
	prior := fs.Float64("prior", ringmaster.DefaultPrior, "virtual draws per player against an average opponent, so that a player who won or lost every game gets a finite rating (0: maximum likelihood)")
	return func(ctx context.Context, rms []*ringmaster.Ringmaster, o cmdIO) error {
		opts := ringmaster.RatingsOptions{Prior: *prior}
		if *anchor != "" {
			code, rating, _ := strings.Cut(*anchor, "=")
			opts.Anchor = code
			opts.AnchorRating, _ = strconv.ParseFloat(rating, 64) // checked by checkRatingsFlags
		}
		t, err := ringmaster.Ratings(ctx, rms, opts)
		if err != nil {
			return err
		}
		switch ratingsFormat(*format, *asJSON, *asCSV) {
		case "csv":
			return t.WriteCSV(o.stdout)
		case "json":
			return t.WriteJSON(o.stdout)
		}
		return t.WriteText(o.stdout)
	}
}

func compareFlags(fs *pflag.FlagSet) func(context.Context, []*ringmaster.Ringmaster, cmdIO) error {
	plies := fs.Int("plies", 0, "depth of the analyses behind the luck-adjusted figures (ringmaster analyse --plies N makes them)")
	asJSON := fs.Bool("json", false, "print the comparison as JSON (fields in docs/ringmaster.md)")
	across := fs.Bool("across-settings", false, "pair a matchup's games even where its settings differ (say, races settled against played out): the difference is then what the settings change")
	return func(ctx context.Context, rms []*ringmaster.Ringmaster, o cmdIO) error {
		c, err := ringmaster.Compare(ctx, rms[0], rms[1], ringmaster.CompareOptions{Plies: *plies, AcrossSettings: *across})
		if err != nil {
			return err
		}
		if *asJSON {
			return c.WriteJSON(o.stdout)
		}
		return c.WriteText(o.stdout)
	}
}

func poolFlags(fs *pflag.FlagSet) func(context.Context, []*ringmaster.Ringmaster, cmdIO) error {
	asJSON := fs.Bool("json", false, "print the pooled results as JSON (fields in docs/ringmaster.md)")
	return func(ctx context.Context, rms []*ringmaster.Ringmaster, o cmdIO) error {
		p, err := ringmaster.PoolResults(ctx, rms)
		if err != nil {
			return err
		}
		if *asJSON {
			return p.WriteJSON(o.stdout)
		}
		return p.WriteText(o.stdout)
	}
}

// ratingsFormat is the table's format: text, csv or json, from --json,
// --csv or the deprecated --format.
func ratingsFormat(format string, asJSON, asCSV bool) string {
	switch {
	case asJSON:
		return "json"
	case asCSV:
		return "csv"
	case format == "":
		return "text"
	}
	return format
}

func checkRatingsFlags(fs *pflag.FlagSet) error {
	format, _ := fs.GetString("format")
	asJSON, _ := fs.GetBool("json")
	asCSV, _ := fs.GetBool("csv")
	if format != "" && format != "text" && format != "csv" && format != "json" {
		return fmt.Errorf("--format must be text, csv or json, got %q", format)
	}
	if asJSON && asCSV || (asJSON || asCSV) && format != "" && format != ratingsFormat("", asJSON, asCSV) {
		return errors.New("give one output format: --json or --csv")
	}
	if prior, _ := fs.GetFloat64("prior"); !(prior >= 0) || math.IsInf(prior, 0) {
		return fmt.Errorf("--prior must be a number >= 0, got %v", prior)
	}
	if anchor, _ := fs.GetString("anchor"); anchor != "" {
		code, rating, ok := strings.Cut(anchor, "=")
		if v, err := strconv.ParseFloat(rating, 64); !ok || code == "" || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("--anchor must be CODE=RATING, got %q", anchor)
		}
	}
	return nil
}

func checkRunFlags(fs *pflag.FlagSet) error {
	parallel, _ := fs.GetInt("parallel")
	maxGames, _ := fs.GetInt("max-games")
	if parallel < 1 || parallel > ringmaster.MaxParallel {
		return fmt.Errorf("--parallel must be between 1 and %d, got %d", ringmaster.MaxParallel, parallel)
	}
	if maxGames < -1 {
		return fmt.Errorf("--max-games must be 0 or more, got %d", maxGames)
	}
	return nil
}

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}

// run is the whole command; its result is the exit status.
func run(ctx context.Context, args []string, stdin *os.File, stdout, stderr io.Writer) int {
	o := cmdIO{stdin: stdin, stdout: stdout, stderr: stderr}
	p := &cli.Program{
		Name:    "ringmaster",
		Summary: "ringmaster runs competitions between game engines (backgammon and Go) described by a TOML control file, keeps their state in SQLite and reports the results.",
		Usage:   usage,
	}
	for _, c := range commands() {
		p.Commands = append(p.Commands, c.cliCommand(o))
	}
	return p.Main(ctx, args, stdout, stderr)
}

// cliCommand is the command as internal/cli runs it: flags, then the
// control files, then the work.
func (c command) cliCommand(o cmdIO) cli.Command {
	files, minFiles, maxFiles := "CONTROL.toml", 1, 1
	if c.many != nil {
		minFiles, maxFiles = max(1, c.minFiles), -1
		switch {
		case c.maxFiles == 2:
			files, maxFiles = "A.toml B.toml", 2
		case c.minFiles == 2:
			files = "A.toml B.toml [C.toml ...]"
		default:
			files = "CONTROL.toml [CONTROL.toml ...]"
		}
	}
	return cli.Command{Name: c.name, Args: files, Summary: c.summary,
		Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
			var do func(context.Context, []*ringmaster.Ringmaster, cmdIO) error
			if c.many != nil {
				do = c.many(fs)
			} else {
				one := c.flags(fs)
				do = func(ctx context.Context, rms []*ringmaster.Ringmaster, o cmdIO) error { return one(ctx, rms[0], o) }
			}
			if err := cli.Parse(fs, args, minFiles, maxFiles); err != nil {
				return err
			}
			if c.check != nil {
				if err := c.check(fs); err != nil {
					return cli.Usagef("%s: %v", c.name, err)
				}
			}
			var rms []*ringmaster.Ringmaster
			for _, path := range fs.Args() {
				rm, err := ringmaster.New(path, games.All()...)
				if err != nil {
					return err
				}
				for _, w := range rm.Comp.Warnings {
					fmt.Fprintf(o.stderr, "ringmaster: warning: %s\n", w)
				}
				rms = append(rms, rm)
			}
			return do(ctx, rms, o)
		}}
}
