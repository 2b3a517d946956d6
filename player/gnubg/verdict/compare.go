package verdict

import (
	"math"
	"path/filepath"
	"sort"
)

// PairRecords keeps the records of a and b that share a name (the base
// name of their file: two runs of one control file on the same dice name
// the records of the same dice alike), as two lists in a's order.
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
	if len(r.Decisions) == 0 {
		return ""
	}
	return filepath.Base(r.Decisions[0].File)
}

// Difference is how one player's chequer error rate changed from one set
// of records to another, record by record: paired records share their
// dice, so the change is measured with the luck of the rolls shared.
type Difference struct {
	Name     string
	A, B     Player     // the player's figures summed over the pairs
	Pairs    int        // records in which the player made decisions on both sides
	Change   float64    // B's rate less A's, mEMG a decision
	Interval [2]float64 // 95%, NaN with fewer than two pairs
}

// CompareChequer compares, for each player named in both, the chequer
// error rate in b against a, where a[i] and b[i] are the same record's
// figures (PairRecords) in two runs. The interval is the delta method's
// for a difference of two ratios over the pairs, the pairs being the
// sampled units, as Summarise's is for one ratio.
func CompareChequer(a, b [][2]Player) []Difference {
	type pair struct{ a, b Player }
	byName := map[string][]pair{}
	for i := range a {
		for _, pa := range a[i] {
			for _, pb := range b[i] {
				if pa.Name == pb.Name && pa.Name != "" && (pa.UnforcedMoves > 0 || pb.UnforcedMoves > 0) {
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
		for _, p := range ps {
			d.A.Add(p.a)
			d.B.Add(p.b)
		}
		d.Change = d.B.ChequerRate() - d.A.ChequerRate()
		d.Interval = [2]float64{math.NaN(), math.NaN()}
		na, nb := float64(d.A.UnforcedMoves), float64(d.B.UnforcedMoves)
		if k := float64(len(ps)); k >= 2 && na > 0 && nb > 0 {
			ra, rb := d.A.ChequerError/na, d.B.ChequerError/nb
			var ss float64
			for _, p := range ps {
				z := (p.b.ChequerError-rb*float64(p.b.UnforcedMoves))/nb - (p.a.ChequerError-ra*float64(p.a.UnforcedMoves))/na
				ss += z * z
			}
			half := 1000 * 1.96 * math.Sqrt(ss*k/(k-1))
			d.Interval = [2]float64{d.Change - half, d.Change + half}
		}
		out = append(out, d)
	}
	return out
}
