package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/spf13/pflag"
)

// makepruner distils a pruner from a network: positions from its self-play,
// every reply to one roll of each, labelled with its 0-ply equity.
func makepruner(ctx context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	weights := fs.String("weights", "", "the network to distil (default: embedded)")
	positions := fs.Int("positions", 20000, "self-play positions; each gives every reply to one roll")
	hidden := fs.Int("hidden", 8, "hidden units of the pruner")
	epochs := fs.Int("epochs", 4, "passes over the samples")
	alpha := fs.Float64("alpha", 0.01, "first learning rate")
	alphaEnd := fs.Float64("alpha-end", 0.001, "last learning rate")
	seed := fs.Uint64("seed", 1, "seed of the self-play games, the rolls and the order")
	out := fs.String("out", "pruner.bgpr", "pruner file to write")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *positions < 1 || *hidden < 1 || *hidden > 1024 || *epochs < 1 || !(*alpha > 0) || !(*alphaEnd > 0) {
		return cli.Usagef("makepruner: --positions and --epochs at least 1, --hidden within 1..1024, --alpha and --alpha-end above 0")
	}
	w, err := loadWeights(*weights)
	if err != nil {
		return err
	}
	begin := time.Now()
	boards, err := bgbot.SamplePositions(ctx, w, nil, *positions, *seed)
	if err != nil {
		return err
	}
	samples, err := bgbot.PrunerSamples(ctx, w, boards, *seed)
	if err != nil {
		return err
	}
	p, err := bgbot.NewPruner(*hidden, rand.New(rand.NewPCG(*seed, 1)))
	if err != nil {
		return cli.Usagef("makepruner: %v", err)
	}
	rms, err := bgbot.TrainPruner(ctx, p, samples, *epochs, *alpha, *alphaEnd, *seed)
	if err != nil {
		return err
	}
	if err := writeAtomic(*out, func(w io.Writer) error { _, err := p.WriteTo(w); return err }); err != nil {
		return fmt.Errorf("makepruner: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d hidden units, %d samples from %d positions, equity RMS error %.4f, in %v\n",
		*out, *hidden, len(samples), len(boards), rms, time.Since(begin).Round(time.Millisecond))
	return nil
}
