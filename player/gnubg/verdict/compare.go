package verdict

import (
	"path/filepath"
	"sort"
	"strings"
)

// PairRecords keeps the records of a and b that share a name (the base
// name of their file: two runs of one control file on the same dice name
// the records of the same dice alike, though a run of 1,000 games numbers
// them from 000 and one of 2,000 from 0000, so numbers are compared by
// value), as two lists in a's order.
func PairRecords(a, b []Record) ([]Record, []Record) {
	index := map[string]int{}
	for i, r := range b {
		if n := recordName(r); n != "" {
			index[n] = i
		}
	}
	var pa, pb []Record
	for _, r := range a {
		if j, ok := index[recordName(r)]; ok {
			pa = append(pa, r)
			pb = append(pb, b[j])
		}
	}
	return pa, pb
}

func recordName(r Record) string {
	switch {
	case len(r.Decisions) > 0:
		return numbersByValue(filepath.Base(r.Decisions[0].File))
	case len(r.CubeDecisions) > 0:
		return numbersByValue(filepath.Base(r.CubeDecisions[0].File))
	}
	return ""
}

// numbersByValue drops the leading zeros of each run of digits in name
// (keeping one digit of a run of zeros).
func numbersByValue(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		startsRun := i == 0 || name[i-1] < '0' || name[i-1] > '9'
		if c == '0' && startsRun {
			j := i
			for j+1 < len(name) && name[j] == '0' && name[j+1] >= '0' && name[j+1] <= '9' {
				j++
			}
			i = j
			c = name[i]
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Difference is how one player's error rate of one kind changed from one
// set of records to another, record by record: paired records share their
// dice, so the change is measured with the luck of the rolls shared.
type Difference struct {
	Name     string
	A, B     Player     // the player's figures summed over the pairs
	Pairs    int        // records in which the player made decisions in either run
	Change   float64    // B's rate less A's, mEMG a decision
	Interval [2]float64 // 95%, NaN with fewer than two pairs
}

// Compare compares, for each player named in both, the error rate of
// figures' kind in b against a, where a[i] and b[i] are the same record's
// figures (PairRecords) in two runs. The interval is the delta method's
// for a difference of two ratios over the pairs, the pairs being the
// sampled units, as Summarise's is for one ratio.
func Compare(a, b [][2]Player, figures Figures) []Difference {
	type pair struct{ a, b Player }
	byName := map[string][]pair{}
	for i := range a {
		for _, pa := range a[i] {
			for _, pb := range b[i] {
				_, na := figures(pa)
				_, nb := figures(pb)
				if pa.Name == pb.Name && pa.Name != "" && (na > 0 || nb > 0) {
					byName[pa.Name] = append(byName[pa.Name], pair{pa, pb})
				}
			}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]Difference, 0, len(names))
	for _, n := range names {
		ps := byName[n]
		d := Difference{Name: n, A: Player{Name: n}, B: Player{Name: n}, Pairs: len(ps)}
		as, bs := make([]Player, len(ps)), make([]Player, len(ps))
		for i, p := range ps {
			as[i], bs[i] = p.a, p.b
			d.A.Add(p.a)
			d.B.Add(p.b)
		}
		d.Change, d.Interval = ratioStatistic(termOf(1, bs, figures), termOf(-1, as, figures))
		out = append(out, d)
	}
	return out
}

// CompareGap is how first's gap to second (GapOf) in figures' kind
// changed from a to b, paired records as in Compare; records where either
// run lacks one of the two players are left out.
func CompareGap(a, b [][2]Player, first, second string, figures Figures) (change float64, interval [2]float64, pairs int) {
	var a1, a2, b1, b2 []Player
	for i := range a {
		pa1, ok1 := playerNamed(a[i], first)
		pa2, ok2 := playerNamed(a[i], second)
		pb1, ok3 := playerNamed(b[i], first)
		pb2, ok4 := playerNamed(b[i], second)
		if ok1 && ok2 && ok3 && ok4 {
			a1, a2, b1, b2 = append(a1, pa1), append(a2, pa2), append(b1, pb1), append(b2, pb2)
		}
	}
	change, interval = ratioStatistic(termOf(1, b1, figures), termOf(-1, b2, figures), termOf(-1, a1, figures), termOf(1, a2, figures))
	return change, interval, len(a1)
}

// GroupPairs is GroupDecisions of two runs' paired records (PairRecords)
// at once: for every group either run has, its figures in a and in b,
// a run without the group's decisions counting its players with none.
func GroupPairs(a, b []Record, key func(Decision) (string, error)) (map[string][2][][2]Player, error) {
	ga, err := GroupDecisions(a, key)
	if err != nil {
		return nil, err
	}
	gb, err := GroupDecisions(b, key)
	if err != nil {
		return nil, err
	}
	out := map[string][2][][2]Player{}
	for k, g := range ga {
		other := gb[k]
		if other == nil {
			other = blankGroup(b)
		}
		out[k] = [2][][2]Player{g, other}
	}
	for k, g := range gb {
		if ga[k] == nil {
			out[k] = [2][][2]Player{blankGroup(a), g}
		}
	}
	return out, nil
}

// CompareTotals is how the error in all of figures' kind changed from a
// to b per record, paired records as in Compare, for the player named
// (or, with second not empty, for the player's error less second's):
// the mean over the pairs of b's total less a's, in EMG, with its 95%
// interval. A rate per decision can fall because a player makes more
// close decisions; the total per record cannot.
func CompareTotals(a, b [][2]Player, first, second string, figures Figures) (change float64, interval [2]float64, pairs int) {
	total := func(r [2]Player) (float64, bool) {
		p, ok := playerNamed(r, first)
		e, _ := figures(p)
		if second == "" {
			return e, ok
		}
		q, ok2 := playerNamed(r, second)
		f, _ := figures(q)
		return e - f, ok && ok2
	}
	var diffs, ones []float64
	for i := range a {
		ta, oka := total(a[i])
		tb, okb := total(b[i])
		if oka && okb {
			diffs = append(diffs, tb-ta)
			ones = append(ones, 1)
		}
	}
	change, interval = ratioStatistic(ratio{sign: 1, e: diffs, n: ones})
	// ratioStatistic works in mEMG; a total per record reads better in EMG.
	return change / 1000, [2]float64{interval[0] / 1000, interval[1] / 1000}, len(diffs)
}
