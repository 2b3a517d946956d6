package allplayall

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

// WriteSection prints the grid of pairwise scores (the row player's wins
// against the column player's) and the Bradley-Terry ratings fitted to
// the same results.
func (Type) WriteSection(w io.Writer, f contest.Field) {
	comps := f.Competitors
	index := map[string]int{}
	for i, c := range comps {
		index[c] = i
	}
	n := len(comps)
	wins := make([][]float64, n)
	for i := range wins {
		wins[i] = make([]float64, n)
	}
	total, decided := 0, 0.0
	for _, s := range f.Standings {
		a, okA := index[s.A]
		b, okB := index[s.B]
		if !okA || !okB {
			continue
		}
		wins[a][b] += s.Wins[0]
		wins[b][a] += s.Wins[1]
		total += s.Played
		decided += s.Wins[0] + s.Wins[1]
	}
	fmt.Fprintf(w, "%s played\n\n", contest.Plural(total, "game"))
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprint(tw, "\t\t")
	for i := range comps {
		fmt.Fprintf(tw, "%s\t", Letter(i))
	}
	fmt.Fprintln(tw)
	for i, c := range comps {
		fmt.Fprintf(tw, "%s\t%s\t", Letter(i), c)
		for j := range comps {
			if i == j {
				fmt.Fprint(tw, "\t")
				continue
			}
			fmt.Fprintf(tw, "%g-%g\t", wins[i][j], wins[j][i])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if decided > 0 {
		contest.WriteRatings(w, f.Ratings())
	}
	fmt.Fprintln(w)
}
