// Command bgtrain trains bgbot's neural network by TD(lambda) self-play and
// measures bots against each other with duplicate dice.
//
//	bgtrain train --games 200000 --out engine/bgbot/weights/default.bgnet
//	bgtrain duel --a net --b heuristic --games 2000
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/ratings"
	"github.com/spf13/pflag"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: bgtrain train [flags]      TD(lambda) self-play training
       bgtrain duel [flags]       duplicate-dice duel between two bots
       bgtrain supervise [flags]  train toward the network's own deeper search
       bgtrain cubelabels [flags] FILE.jsonl...  labelled positions from gnubg's cube analysis
       bgtrain makebearoff [flags]  write a bearoff database for bgbot --bearoff
       bgtrain makepruner [flags] distil the small network that prunes bgbot's searches
       bgtrain benchset [flags]   roll out self-play positions into a benchmark set
       bgtrain benchmark [flags]  score weights against a benchmark set's rollouts

Run 'bgtrain COMMAND --help' for a command's flags.

exit status: 0 ok; 1 error; 2 usage
`

// program is bgtrain's commands; each Run parses its own flags.
func program(stdout io.Writer) *cli.Program {
	cmd := func(name, args, summary string, run func(context.Context, *pflag.FlagSet, []string, io.Writer) error) cli.Command {
		return cli.Command{Name: name, Args: args, Summary: summary,
			Run: func(ctx context.Context, fs *pflag.FlagSet, a []string) error { return run(ctx, fs, a, stdout) }}
	}
	return &cli.Program{
		Name:    "bgtrain",
		Summary: "bgtrain trains bgbot's neural networks and measures bots against each other on duplicate dice.",
		Usage:   usage,
		Commands: []cli.Command{
			cmd("train", "", "Train a network by TD(lambda) self-play, from scratch or from a weights file.", train),
			cmd("duel", "", "Play two bots against each other on duplicate dice and print the first one's points per game.", duel),
			cmd("supervise", "", "Train a network toward the labels of a deeper search (its own, or gnubg's) on self-play positions.", supervise),
			cmd("cubelabels", "DECISIONS.jsonl...", "Turn the cube decisions of gnubg's analysis (bgtool gnubg-verdict --decisions) into labelled positions for supervise --labels.", cubeLabels),
			cmd("makebearoff", "", "Write a bearoff database file for bgbot --bearoff.", makebearoff),
			cmd("makepruner", "", "Distil the small network that prunes bgbot's searches.", makepruner),
			cmd("benchset", "", "Roll out self-play positions into a benchmark set.", benchsetCmd),
			cmd("benchmark", "", "Score weights against a benchmark set's rollouts.", benchmarkCmd),
		},
	}
}

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return program(stdout).Main(ctx, args, stdout, stderr)
}

func train(ctx context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	games := fs.Int("games", 100000, "self-play games to play in this run")
	alpha := fs.Float64("alpha", 0.1, "learning rate at the start")
	alphaEnd := fs.Float64("alpha-end", 0.02, "learning rate at the end (linear decay)")
	lambda := fs.Float64("lambda", 0.7, "TD(lambda) trace decay")
	inputRate := fs.Float64("input-rate", 1, "learning rate of the first layer as a share of --alpha (the output layer's)")
	hidden := fs.Int("hidden", 80, "hidden units of a new (or, with --widen, widened) network")
	layout := fs.Int("layout", bgbot.LayoutV1, "input layout of a new (or, with --widen, widened) network: 1 (214 inputs), 2 (246: layout 1 plus gnubg-style features) or 3 (280: layout 2 plus race features)")
	widen := fs.Bool("widen", false, "with --resume: first widen the network to --layout and --hidden, keeping what it computes")
	revive := fs.Bool("revive", false, "with --resume: first restart the hidden units that do no work on 5,000 self-play positions (bgbot.Weights.Revive)")
	crashed := fs.Bool("crashed", false, "give crashed positions a network of their own, starting as a copy of the contact network")
	seed := fs.Uint64("seed", 1, "seed of the dice and of a new network's weights")
	workers := fs.IntP("parallel", "j", runtime.NumCPU(), "parallel self-play workers (weights averaged every --sync games each)")
	cli.Alias(fs, "workers", "parallel")
	syncEvery := fs.Int("sync", 250, "games per worker between weight averages")
	out := fs.String("out", "bgbot.bgnet", "weights file to write (also the checkpoint)")
	resume := fs.String("resume", "", "weights file to continue training from")
	every := fs.Int("checkpoint-every", 10000, "write the weights file after about this many games")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	switch {
	case *games < 1, *hidden < 1, *workers < 1, *syncEvery < 1, *every < 1:
		return cli.Usagef("train: --games, --hidden, --parallel, --sync and --checkpoint-every must be at least 1")
	case !(*alpha > 0), !(*alphaEnd >= 0):
		return cli.Usagef("train: want --alpha > 0 and --alpha-end >= 0")
	case !(*inputRate > 0 && *inputRate <= 1):
		return cli.Usagef("train: want --input-rate in (0, 1], got %v", *inputRate)
	case !(*lambda >= 0 && *lambda <= 1):
		return cli.Usagef("train: want --lambda between 0 and 1, got %v", *lambda)
	case bgbot.InputsOf(*layout) == 0:
		return cli.Usagef("train: --layout %d: want %d..%d", *layout, bgbot.LayoutV1, bgbot.LayoutLast)
	case *widen && *resume == "":
		return cli.Usagef("train: --widen needs --resume")
	case *revive && *resume == "":
		return cli.Usagef("train: --revive needs --resume")
	}
	var w *bgbot.Weights
	var err error
	if *resume != "" {
		f, err := os.Open(*resume)
		if err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		w, err = bgbot.ReadWeights(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("resume %s: %w", *resume, err)
		}
		fmt.Fprintf(stdout, "resuming %s: layout %d, %d hidden units, %d games\n", *resume, w.Layout, w.Hidden, w.Games)
		if *widen {
			if w, err = w.Widen(*layout, *hidden, bgbot.SeededRand(*seed)); err != nil {
				return cli.Usagef("train: %v", err)
			}
			fmt.Fprintf(stdout, "widened to layout %d, %d hidden units\n", w.Layout, w.Hidden)
		}
	} else if w, err = bgbot.NewWeightsLayout(*layout, *hidden, bgbot.SeededRand(*seed)); err != nil {
		return err
	}
	if *revive {
		if err := reviveIdle(ctx, w, *seed, stdout); err != nil {
			return err
		}
	}
	if *crashed {
		if w, err = splitCrashed(w, stdout); err != nil {
			return err
		}
	}
	begin := time.Now()
	last := 0
	cfg := bgbot.TrainConfig{
		Games: *games, Alpha: *alpha, AlphaEnd: *alphaEnd, Lambda: *lambda,
		Seed: *seed, Workers: *workers, SyncEvery: *syncEvery, InputRate: *inputRate,
		Progress: func(n int, w *bgbot.Weights) error {
			if n-last < *every && n < *games {
				return nil
			}
			last = n
			el := time.Since(begin)
			fmt.Fprintf(stdout, "%d games (%d total) in %v, %.0f games/s\n", n, w.Games, el.Round(time.Second), float64(n)/el.Seconds())
			return writeWeights(*out, w)
		},
	}
	if _, err := bgbot.Train(ctx, w, cfg); err != nil {
		return err
	}
	if err := writeWeights(*out, w); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d games in %v\n", *out, w.Games, time.Since(begin).Round(time.Second))
	return nil
}

// writeWeights writes atomically: a temporary file renamed over the target.
func writeWeights(path string, w *bgbot.Weights) error {
	if err := writeAtomic(path, func(out io.Writer) error { _, err := w.WriteTo(out); return err }); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

func duel(ctx context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	a := fs.String("a", "net", "level of bot A: random, heuristic or net")
	b := fs.String("b", "heuristic", "level of bot B")
	aPlies := fs.Int("a-plies", 0, "search depth of bot A")
	bPlies := fs.Int("b-plies", 0, "search depth of bot B")
	aWeights := fs.String("a-weights", "", "weights file of bot A (default: embedded)")
	bWeights := fs.String("b-weights", "", "weights file of bot B (default: embedded)")
	games := fs.Int("games", 2000, "games to play: an even number, at least 4 (pairs of games with the same dice)")
	seed := fs.Uint64("seed", 1, "dice seed")
	workers := fs.IntP("parallel", "j", runtime.NumCPU(), "parallel games")
	cli.Alias(fs, "workers", "parallel")
	cube := fs.Bool("cube", false, "money play with the doubling cube (default: cubeless)")
	jacoby := fs.Bool("jacoby", false, "with --cube: the Jacoby rule")
	beavers := fs.Bool("beavers", false, "with --cube: beavers allowed")
	noBearoffFlag := fs.Bool("no-bearoff", false, "judge bear-offs with the network instead of the bearoff database")
	aBearoff := fs.String("a-bearoff", "", "bearoff database file of bot A (from makebearoff; default: built, 10 checkers)")
	bBearoff := fs.String("b-bearoff", "", "bearoff database file of bot B")
	aTwo := fs.Int("a-bearoff2", 0, "checkers a side of bot A's two-sided bearoff database (0: none)")
	bTwo := fs.Int("b-bearoff2", 0, "checkers a side of bot B's two-sided bearoff database (0: none)")
	aCubePlies := fs.Int("a-cube-plies", 0, "least depth of bot A's cube decisions")
	bCubePlies := fs.Int("b-cube-plies", 0, "least depth of bot B's cube decisions")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *workers < 1 {
		return cli.Usagef("duel: --parallel must be at least 1")
	}
	// Games come in pairs on the same dice, and an interval needs two
	// pairs: --games 3 used to play 2 games and print a NaN interval.
	if *games < 4 || *games%2 != 0 {
		return cli.Usagef("duel: --games %d: want an even number, at least 4 (pairs of games on the same dice)", *games)
	}
	for _, p := range []int{*aPlies, *bPlies, *aCubePlies, *bCubePlies} {
		if p < 0 || p > bgbot.MaxPlies {
			return cli.Usagef("duel: --a-plies, --b-plies, --a-cube-plies and --b-cube-plies must be within 0..%d", bgbot.MaxPlies)
		}
	}
	for _, level := range []string{*a, *b} {
		if _, err := bgbot.ParseLevel(level); err != nil {
			return cli.Usagef("duel: %v", err)
		}
	}
	noBearoff := *noBearoffFlag
	mk := func(level string, plies, cubePlies int, weights, bearoff string, two int, seed uint64) (func() (*bgbot.Bot, error), error) {
		l, err := bgbot.ParseLevel(level)
		if err != nil {
			return nil, err
		}
		var w *bgbot.Weights
		if weights != "" || l == bgbot.LevelNet {
			if w, err = loadWeights(weights); err != nil {
				return nil, err
			}
		}
		var db *bgbot.Bearoff
		switch {
		case l != bgbot.LevelNet || noBearoff:
		case bearoff != "":
			f, err := os.Open(bearoff)
			if err != nil {
				return nil, fmt.Errorf("bearoff: %w", err)
			}
			db, err = bgbot.ReadBearoff(f)
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", bearoff, err)
			}
		default:
			if db, err = bgbot.NewBearoff(bgbot.DefaultBearoffCheckers); err != nil {
				return nil, err
			}
		}
		var db2 *bgbot.Bearoff2
		if two > 0 && l == bgbot.LevelNet {
			if db2, err = bgbot.NewBearoff2(two); err != nil {
				return nil, cli.Usagef("duel: %v", err)
			}
		}
		n := uint64(0)
		return func() (*bgbot.Bot, error) {
			n++
			return bgbot.NewBot(bgbot.Config{Level: l, Plies: plies, CubePlies: cubePlies, Weights: w, Seed: seed + n, Bearoff: db, NoBearoff: noBearoff, Bearoff2: db2})
		}, nil
	}
	newA, err := mk(*a, *aPlies, *aCubePlies, *aWeights, *aBearoff, *aTwo, *seed*2+1)
	if err != nil {
		return err
	}
	newB, err := mk(*b, *bPlies, *bCubePlies, *bWeights, *bBearoff, *bTwo, *seed*2+2)
	if err != nil {
		return err
	}
	begin := time.Now()
	rules := backgammon.Rules{Variant: backgammon.Standard, Cube: *cube, Jacoby: *cube && *jacoby, Beavers: *cube && *beavers}
	pairs, err := bgbot.Duel(ctx, bgbot.DuelConfig{Pairs: *games / 2, Seed: *seed, Workers: *workers, Rules: rules}, lockFactory(newA), lockFactory(newB))
	if err != nil {
		return err
	}
	s := ratings.PairedPointsPerGame(pairs)
	kind := "cubeless money"
	if *cube {
		kind = "money with the cube"
	}
	fmt.Fprintf(stdout, "%s (plies %d) vs %s (plies %d): %d games (%d duplicate pairs), %s, seed %d, %v\n",
		*a, *aPlies, *b, *bPlies, s.N, s.Samples, kind, *seed, time.Since(begin).Round(time.Millisecond))
	fmt.Fprintf(stdout, "A points per game %+.3f, 95%% interval [%+.3f, %+.3f], std err %.3f\n", s.Mean, s.Low, s.High, s.StdErr)
	return nil
}

// lockFactory serialises calls to a bot factory, which Duel calls from each
// of its workers.
func lockFactory(f func() (*bgbot.Bot, error)) func() (*bgbot.Bot, error) {
	var mu sync.Mutex
	return func() (*bgbot.Bot, error) {
		mu.Lock()
		defer mu.Unlock()
		return f()
	}
}

// reviveIdle restarts the idle hidden units of each of w's networks,
// judged on 5,000 positions of w's own self-play.
func reviveIdle(ctx context.Context, w *bgbot.Weights, seed uint64, stdout io.Writer) error {
	boards, err := bgbot.SamplePositions(ctx, w, nil, 5000, seed)
	if err != nil {
		return fmt.Errorf("revive: %w", err)
	}
	rng := bgbot.SeededRand(seed)
	for _, c := range networkClasses() {
		if c.class >= w.Classes() {
			continue
		}
		fmt.Fprintf(stdout, "revived %d idle hidden units of the %s network\n", w.Revive(boards, c.class, rng), c.name)
	}
	return nil
}

// splitCrashed gives w's crashed positions a network of their own, a copy
// of the contact network (bgbot.Weights.SplitCrashed), unless w has one.
func splitCrashed(w *bgbot.Weights, stdout io.Writer) (*bgbot.Weights, error) {
	return splitNetwork(w, bgbot.ClassCrashed, w.SplitCrashed, "crashed positions", stdout)
}

// splitLeading does the same for the leading network (bgbot.ClassLeading);
// w needs a crashed network first.
func splitLeading(w *bgbot.Weights, stdout io.Writer) (*bgbot.Weights, error) {
	return splitNetwork(w, bgbot.ClassLeading, w.SplitLeading,
		fmt.Sprintf("contact positions where the side on roll leads by %d pips or more", bgbot.LeadingPips), stdout)
}

// splitNetwork calls split unless w has a network for class already, and
// says which positions now have their own.
func splitNetwork(w *bgbot.Weights, class int, split func() (*bgbot.Weights, error), which string, stdout io.Writer) (*bgbot.Weights, error) {
	if w.Classes() > class {
		return w, nil
	}
	out, err := split()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "%s now have their own network (a copy of the contact network)\n", which)
	return out, nil
}
