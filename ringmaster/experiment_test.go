package ringmaster_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// TestRatingExperiment is the manual's rating experiment in small (see
// docs/analysis.md): for each matchup of a played and analysed
// competition of N-point matches, the rating difference of its players
// estimated from the results (ringmaster ratings, with its 95% interval
// from the covariance matrix) against the one from their error rates
// (a2(N)*EPM + b(N)*EPC) and from their luck-adjusted results, both with
// 95% intervals by a bootstrap over pairs of games. It runs when
// GAMEMILL_RATING_EXPERIMENT names the control file (analysed at
// GAMEMILL_RATING_PLIES, default 0) and prints the table.
func TestRatingExperiment(t *testing.T) {
	ctl := os.Getenv("GAMEMILL_RATING_EXPERIMENT")
	if ctl == "" {
		t.Skip("set GAMEMILL_RATING_EXPERIMENT=CONTROL.toml of a played and analysed competition")
	}
	plies, _ := strconv.Atoi(os.Getenv("GAMEMILL_RATING_PLIES"))
	ctx := context.Background()
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	table, err := ringmaster.Ratings(ctx, []*ringmaster.Ringmaster{rm}, ringmaster.RatingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	results, err := st.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done, err := st.Analyses(ctx, fmt.Sprintf("bgbot:%d", plies))
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, p := range table.Table.Players {
		index[p.Player] = i
	}
	var out strings.Builder
	fmt.Fprintf(&out, "| matchup | matches (pairs) | score | from results | from error rates (%d ply) | from luck-adjusted results |\n|---|---|---|---|---|---|\n", plies)
	for _, m := range rm.Comp.Matchups {
		n := table.Table // for the difference A - B and its interval
		i, j := index[m.PlayerA], index[m.PlayerB]
		diff := n.Players[i].Rating - n.Players[j].Rating
		se := math.Sqrt(n.Cov[i][i] + n.Cov[j][j] - 2*n.Cov[i][j])
		// Per pair of games (the same dice), each side's figures summed.
		type side struct{ chequer, unforced, cube, close, luckAdj, result float64 }
		pairs := map[int]*[2]side{}
		seen := map[int]int{}
		matchLength := ringmasterMatchLength(t, m.Settings.Canonical())
		for _, res := range results {
			a := done[res.GameID]
			if res.MatchupID != m.ID || a == nil {
				continue
			}
			k := res.Number / 2
			if pairs[k] == nil {
				pairs[k] = &[2]side{}
			}
			seen[k]++
			for s, seat := range [2]int{0, 1} {
				if res.Swapped {
					seat = 1 - seat
				}
				f := func(name string) float64 { return a.Figures[name][seat] }
				p := &pairs[k][s]
				p.chequer += f("chequer_error")
				p.unforced += f("unforced_moves")
				p.cube += f("cube_error")
				p.close += f("close_cube_decisions")
				p.luckAdj += f("luck_adjusted_result")
				p.result += f("result")
			}
		}
		var sample [][2]side
		keys := make([]int, 0, len(pairs))
		for k := range pairs {
			if seen[k] == 2 {
				keys = append(keys, k)
			}
		}
		sort.Ints(keys)
		for _, k := range keys {
			sample = append(sample, *pairs[k])
		}
		if len(sample) < 10 {
			t.Fatalf("matchup %s: %d analysed pairs", m.ID, len(sample))
		}
		estimate := func(ps [][2]side) (errors, luck float64) {
			var s [2]side
			for _, p := range ps {
				for x := range 2 {
					s[x].chequer += p[x].chequer
					s[x].unforced += p[x].unforced
					s[x].cube += p[x].cube
					s[x].close += p[x].close
					s[x].luckAdj += p[x].luckAdj
				}
			}
			rate := func(a, b float64) float64 {
				if b == 0 {
					return math.NaN()
				}
				return a / b
			}
			errors = analysis.RatingDifference(rate(s[0].chequer, s[0].unforced), rate(s[0].cube, s[0].close),
				rate(s[1].chequer, s[1].unforced), rate(s[1].cube, s[1].close), matchLength)
			luck = analysis.LuckBasedRatingDifference(0.5+s[0].luckAdj/float64(2*len(ps)), matchLength)
			return errors, luck
		}
		errD, luckD := estimate(sample)
		rng := rand.New(rand.NewPCG(1, 2))
		var errBoot, luckBoot []float64
		re := make([][2]side, len(sample))
		for range 2000 {
			for i := range re {
				re[i] = sample[rng.IntN(len(sample))]
			}
			e, l := estimate(re)
			errBoot, luckBoot = append(errBoot, e), append(luckBoot, l)
		}
		sort.Float64s(errBoot)
		sort.Float64s(luckBoot)
		q := func(xs []float64, p float64) float64 { return xs[int(p*float64(len(xs)-1))] }
		var score float64
		for _, p := range sample {
			score += p[0].result
		}
		fmt.Fprintf(&out, "| %s v %s | %d (%d) | %.1f%% | %+.0f [%+.0f, %+.0f] | %+.0f [%+.0f, %+.0f] | %+.0f [%+.0f, %+.0f] |\n",
			m.PlayerA, m.PlayerB, 2*len(sample), len(sample), 100*(0.5+score/float64(2*len(sample))),
			diff, diff-1.96*se, diff+1.96*se, errD, q(errBoot, 0.025), q(errBoot, 0.975), luckD, q(luckBoot, 0.025), q(luckBoot, 0.975))
		if gap := math.Abs(diff - errD); gap > 1.96*math.Hypot(se, (q(errBoot, 0.975)-q(errBoot, 0.025))/3.92) {
			t.Errorf("matchup %s: the difference from results (%+.0f) and from error rates (%+.0f) disagree beyond their intervals", m.ID, diff, errD)
		}
	}
	fmt.Fprintf(&out, "\nfirst-move advantage: %+.0f (standard error %.0f)\n", table.Table.Advantage, table.Table.AdvantageStdErr)
	t.Log("\n" + out.String())
}

// ringmasterMatchLength reads match_length from a backgammon matchup's
// canonical settings text.
func ringmasterMatchLength(t *testing.T, canonical string) int {
	for _, f := range strings.Fields(canonical) {
		if v, ok := strings.CutPrefix(f, "match_length="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				t.Fatalf("match length in %q", canonical)
			}
			return n
		}
	}
	t.Fatalf("no match length in %q", canonical)
	return 0
}
