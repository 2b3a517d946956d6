// Package verdict has GNU Backgammon judge match records: it runs gnubg's
// own analysis ("analyse match" at a chosen depth) on .mat files and reads
// each player's figures from "show statistics match", so that our players'
// error rates can be stated in the units and by the judge backgammon
// players trust.
package verdict

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
)

// Player is one player's figures in gnubg's statistics of one record (or,
// after Add, of several). Error totals are in EMG (normalised to money
// points; in match play gnubg derives them from match winning chances), as
// positive numbers.
type Player struct {
	Name          string
	UnforcedMoves int
	ChequerError  float64
	CubeDecisions int // close or actual cube decisions
	CubeError     float64
	Records       int
}

// ChequerRate is the chequer error in mEMG per unforced move.
func (p Player) ChequerRate() float64 { return rate(p.ChequerError, p.UnforcedMoves) }

// CubeRate is the cube error in mEMG per close or actual cube decision.
func (p Player) CubeRate() float64 { return rate(p.CubeError, p.CubeDecisions) }

func rate(total float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return 1000 * total / float64(n)
}

// Add adds q's figures to p's (same player, another record).
func (p *Player) Add(q Player) {
	p.UnforcedMoves += q.UnforcedMoves
	p.ChequerError += q.ChequerError
	p.CubeDecisions += q.CubeDecisions
	p.CubeError += q.CubeError
	p.Records += q.Records
}

// ParseStatistics reads the two players' figures from the text gnubg
// prints for "show statistics match" (ReadStatistics with the chequer play
// section).
func ParseStatistics(text string) ([2]Player, error) {
	s, err := ReadStatistics(text, true)
	if err != nil {
		return [2]Player{}, err
	}
	return s.Players(), nil
}

// Analyse runs gnubg (binary) on one record (.mat, or SGF by its name),
// analysing chequer play and cube decisions plies deep, and returns the two
// players' figures.
func Analyse(ctx context.Context, binary, file string, plies int) ([2]Player, error) {
	s, err := AnalyseStatistics(ctx, binary, file, plies)
	if err != nil {
		return [2]Player{}, err
	}
	return s.Players(), nil
}

// AnalyseFiles runs Analyse on every file, jobs gnubg processes at once,
// calling progress (if not nil) after each file; the results are in the
// files' order. Every file is analysed; the error is the first file's
// that failed, in the files' order.
func AnalyseFiles(ctx context.Context, binary string, files []string, plies, jobs int, progress func(done, total int)) ([][2]Player, error) {
	results := make([][2]Player, len(files))
	err := forEachFile(len(files), jobs, progress, func(i int) (err error) {
		results[i], err = Analyse(ctx, binary, files[i], plies)
		return err
	})
	return results, err
}

// forEachFile calls do(i) for i in 0..n-1 from jobs goroutines, calling
// progress after each; it returns the first error in index order.
func forEachFile(n, jobs int, progress func(done, total int), do func(i int) error) error {
	errs := make([]error, n)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	next := make(chan int)
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = do(i)
				mu.Lock()
				done++
				if progress != nil {
					progress(done, n)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Summary is one player's figures over several records, with the 95%
// intervals of its two rates (mEMG) over the records.
type Summary struct {
	Player
	ChequerInterval, CubeInterval [2]float64
}

// Summarise sums the records' figures by player name, in name order.
func Summarise(results [][2]Player) []Summary {
	byName := map[string][]Player{}
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
	out := make([]Summary, 0, len(names))
	for _, n := range names {
		ps := byName[n]
		sum := Summary{Player: Player{Name: n}}
		for _, p := range ps {
			sum.Add(p)
		}
		sum.ChequerInterval = rateInterval(ps, ChequerFigures)
		sum.CubeInterval = rateInterval(ps, CubeFigures)
		out = append(out, sum)
	}
	return out
}

// Figures picks a player's error total and decisions of one kind, the two
// sides of a rate: ChequerFigures or CubeFigures.
type Figures func(Player) (float64, int)

// ChequerFigures are the chequer error and the unforced moves.
func ChequerFigures(p Player) (float64, int) { return p.ChequerError, p.UnforcedMoves }

// CubeFigures are the cube error and the close or actual cube decisions.
func CubeFigures(p Player) (float64, int) { return p.CubeError, p.CubeDecisions }

// RateOf is the rate of figures, in mEMG a decision.
func RateOf(p Player, figures Figures) float64 { return rate(figures(p)) }

// rateInterval is the 95% interval of the rate sum(error)/sum(n) over
// records, in mEMG (ratioStatistic with one term).
func rateInterval(ps []Player, get Figures) [2]float64 {
	_, interval := ratioStatistic(termOf(1, ps, get))
	return interval
}

// A ratio is one term of a statistic: sign times sum(e)/sum(n), with e
// and n given record by record.
type ratio struct {
	sign float64
	e, n []float64
}

func termOf(sign float64, ps []Player, get Figures) ratio {
	t := ratio{sign: sign, e: make([]float64, len(ps)), n: make([]float64, len(ps))}
	for i, p := range ps {
		e, n := get(p)
		t.e[i], t.n[i] = e, float64(n)
	}
	return t
}

// ratioStatistic is the sum of the terms' signed ratios, in mEMG, with
// its 95% interval by the delta method: the records are the sampled units
// (decisions within a record are not independent), and every term holds
// the same records in the same order, so terms measured on the same
// records (two players in one game, or one record in two runs on the
// same dice) share their luck. The interval is NaN with fewer than two
// records or a term without decisions; a term without decisions counts 0.
func ratioStatistic(terms ...ratio) (float64, [2]float64) {
	nan := [2]float64{math.NaN(), math.NaN()}
	value, k := 0.0, 0
	rates := make([]float64, len(terms))
	sums := make([]float64, len(terms))
	defined := true
	for i, t := range terms {
		var se, sn float64
		for j := range t.e {
			se += t.e[j]
			sn += t.n[j]
		}
		k = len(t.e)
		if sn == 0 {
			defined = false
			continue
		}
		rates[i], sums[i] = se/sn, sn
		value += t.sign * rates[i]
	}
	if !defined || k < 2 {
		return 1000 * value, nan
	}
	var ss float64
	for j := 0; j < k; j++ {
		var z float64
		for i, t := range terms {
			z += t.sign * (t.e[j] - rates[i]*t.n[j]) / sums[i]
		}
		ss += z * z
	}
	kf := float64(k)
	half := 1.96 * math.Sqrt(ss*kf/(kf-1))
	return 1000 * value, [2]float64{1000 * (value - half), 1000 * (value + half)}
}

// CheckLevel reports a two-sided confidence level outside (0, 1), as a
// --confidence flag's error.
func CheckLevel(confidence float64) error {
	if !(confidence > 0 && confidence < 1) {
		return fmt.Errorf("--confidence %g: want a level between 0 and 1, such as 0.95", confidence)
	}
	return nil
}

// AtLevel turns an interval about v that this package gave (a normal
// one at 95%, symmetric about v) into one at the two-sided level
// confidence, in (0, 1): its half-width scales by the ratio of the normal
// quantiles. At 0.95 it is the interval itself.
func AtLevel(v float64, interval [2]float64, confidence float64) [2]float64 {
	z := func(c float64) float64 { return math.Sqrt2 * math.Erfinv(c) }
	scale := z(confidence) / z(0.95)
	return [2]float64{v - scale*(v-interval[0]), v + scale*(interval[1]-v)}
}

// Gap is how much higher one player's error rates are than another's in
// the records where both played (first's less second's, mEMG). Both
// players' decisions in a record share its dice and its course, so the
// gap's interval is narrower than the difference of their own.
type Gap struct {
	First, Second                 string
	Records                       int
	Chequer, Cube                 float64
	ChequerInterval, CubeInterval [2]float64
}

// GapOf is first's gap to second in results.
func GapOf(results [][2]Player, first, second string) Gap {
	g := Gap{First: first, Second: second}
	var a, b []Player
	for _, r := range results {
		pa, oka := playerNamed(r, first)
		pb, okb := playerNamed(r, second)
		if oka && okb {
			a, b = append(a, pa), append(b, pb)
		}
	}
	g.Records = len(a)
	g.Chequer, g.ChequerInterval = ratioStatistic(termOf(1, a, ChequerFigures), termOf(-1, b, ChequerFigures))
	g.Cube, g.CubeInterval = ratioStatistic(termOf(1, a, CubeFigures), termOf(-1, b, CubeFigures))
	return g
}

func playerNamed(r [2]Player, name string) (Player, bool) {
	for _, p := range r {
		if p.Name == name {
			return p, true
		}
	}
	return Player{}, false
}
