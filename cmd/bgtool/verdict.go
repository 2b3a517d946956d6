package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"

	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
)

// runVerdict has gnubg analyse match records and prints each player's
// chequer and cube error rates over all of them, with 95% intervals over
// the records.
func runVerdict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("bgtool", "gnubg-verdict", "FILE.mat...", stdout)
	plies := fs.Int("plies", 2, "depth of gnubg's analysis of chequer play and cube decisions")
	jobs := fs.IntP("jobs", "j", 1, "gnubg processes at once")
	binary := fs.String("gnubg", "gnubg", "gnubg program (a bare name is looked for on PATH, then in /usr/games)")
	quiet := fs.BoolP("quiet", "q", false, "no progress on stderr")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	if *plies < 0 || *plies > gnubg.MaxPlies || *jobs < 1 {
		return cli.Usagef("gnubg-verdict: --plies 0..%d and --jobs at least 1", gnubg.MaxPlies)
	}
	bin, err := gnubg.FindBinary(*binary)
	if err != nil {
		return fmt.Errorf("gnubg-verdict: %w", err)
	}
	files := fs.Args()
	results := make([][2]verdict.Player, len(files))
	errs := make([]error, len(files))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	next := make(chan int)
	for range *jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = verdict.Analyse(ctx, bin, files[i], *plies)
				mu.Lock()
				done++
				if !*quiet {
					fmt.Fprintf(stderr, "\ranalysed %d/%d", done, len(files))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	if !*quiet {
		fmt.Fprintln(stderr)
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("gnubg-verdict: %w", err)
		}
	}
	writeVerdict(stdout, results, *plies)
	return nil
}

// writeVerdict prints per player (by name, over all records) the chequer
// error per unforced move and the cube error per close or actual cube
// decision, in mEMG, each with a 95% interval over the records.
func writeVerdict(w io.Writer, results [][2]verdict.Player, plies int) {
	byName := map[string][]verdict.Player{}
	for _, r := range results {
		for _, p := range r {
			byName[p.Name] = append(byName[p.Name], p)
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "gnubg's analysis at %d ply of %d records (mEMG per decision, 95%% interval over the records)\n", plies, len(results))
	fmt.Fprintf(w, "%-12s %8s %9s %22s %9s %22s\n", "player", "records", "unforced", "chequer error rate", "cube dec.", "cube error rate")
	for _, n := range names {
		ps := byName[n]
		var sum verdict.Player
		for _, p := range ps {
			sum.Add(p)
		}
		chq := ratioInterval(ps, func(p verdict.Player) (float64, int) { return p.ChequerError, p.UnforcedMoves })
		cube := ratioInterval(ps, func(p verdict.Player) (float64, int) { return p.CubeError, p.CubeDecisions })
		fmt.Fprintf(w, "%-12s %8d %9d %6.2f [%5.2f, %5.2f] %9d %6.2f [%5.2f, %5.2f]\n", n, sum.Records,
			sum.UnforcedMoves, sum.ChequerRate(), chq[0], chq[1], sum.CubeDecisions, sum.CubeRate(), cube[0], cube[1])
	}
}

// ratioInterval is the 95% interval of the rate sum(error)/sum(n) over
// records, in mEMG, by the delta method (the records are the sampled
// units; decisions within a record are not independent).
func ratioInterval(ps []verdict.Player, get func(verdict.Player) (float64, int)) [2]float64 {
	var se, sn float64
	for _, p := range ps {
		e, n := get(p)
		se += e
		sn += float64(n)
	}
	k := float64(len(ps))
	if sn == 0 || k < 2 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	r := se / sn
	var ss float64
	for _, p := range ps {
		e, n := get(p)
		d := e - r*float64(n)
		ss += d * d
	}
	half := 1.96 * math.Sqrt(ss*k/(k-1)) / sn
	return [2]float64{1000 * (r - half), 1000 * (r + half)}
}
