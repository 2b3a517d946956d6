package gauntlet

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

// row is one challenger's results against one opponent, or against the
// whole field.
type row struct {
	opponent string
	played   int
	wins     [2]float64 // challenger's, opponent's
}

func (r row) share() float64 {
	if r.wins[0]+r.wins[1] == 0 {
		return 0
	}
	return r.wins[0] / (r.wins[0] + r.wins[1])
}

// tables gathers each challenger's rows in the matchups' order, and the
// challengers in order.
func tables(f contest.Field) (challengers []string, rows map[string][]row) {
	rows = map[string][]row{}
	for _, s := range f.Standings {
		if !slices.Contains(challengers, s.A) {
			challengers = append(challengers, s.A)
		}
		rows[s.A] = append(rows[s.A], row{opponent: s.B, played: s.Played, wins: s.Wins})
	}
	return challengers, rows
}

func total(rs []row) row {
	t := row{opponent: "all"}
	for _, r := range rs {
		t.played += r.played
		t.wins[0] += r.wins[0]
		t.wins[1] += r.wins[1]
	}
	return t
}

// WriteSection prints a table per challenger, a row per opponent and one
// for the whole field, and the challengers' ratings over the field
// (Bradley-Terry over every game, as 'ringmaster ratings' fits them).
func (Type) WriteSection(w io.Writer, f contest.Field) {
	challengers, rows := tables(f)
	played, decided := 0, 0.0
	for _, c := range challengers {
		t := total(rows[c])
		played += t.played
		decided += t.wins[0] + t.wins[1]
	}
	fmt.Fprintf(w, "%s against %s: %s played\n", contest.Plural(len(challengers), "challenger"),
		contest.Plural(len(f.Competitors)-len(challengers), "opponent"), contest.Plural(played, "game"))
	for _, c := range challengers {
		fmt.Fprintf(w, "\n%s\n", c)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  opponent\tgames\tscore\tshare\t\n")
		for _, r := range append(rows[c], total(rows[c])) {
			fmt.Fprintf(tw, "  %s\t%d\t%g-%g\t%.1f%%\t\n", r.opponent, r.played, r.wins[0], r.wins[1], 100*r.share())
		}
		tw.Flush()
	}
	if decided > 0 {
		rt := f.Ratings()
		if rt.Err == nil {
			rt.Players = slices.DeleteFunc(rt.Players, func(p contest.Rated) bool { return !slices.Contains(challengers, p.Player) })
		}
		contest.WriteRatings(w, rt)
	}
	fmt.Fprintln(w)
}

// JSONChallenger is one challenger's results in the JSON report.
type JSONChallenger struct {
	Player    string         `json:"player"`
	Played    int            `json:"played"`
	Wins      [2]float64     `json:"wins"`
	Opponents []JSONOpponent `json:"opponents"`
	// Rating is the challenger's Bradley-Terry rating over every game,
	// with its 95% interval; absent before any game has a winner.
	Rating *[3]float64 `json:"rating,omitempty"`
}

// JSONOpponent is a challenger's results against one opponent.
type JSONOpponent struct {
	Player string     `json:"player"`
	Played int        `json:"played"`
	Wins   [2]float64 `json:"wins"`
}

// JSONSection lists each challenger's results against each opponent and
// its rating.
func (Type) JSONSection(f contest.Field) any {
	challengers, rows := tables(f)
	var rated []contest.Rated
	out := []JSONChallenger{}
	for _, c := range challengers {
		t := total(rows[c])
		if t.wins[0]+t.wins[1] > 0 && rated == nil {
			rated = f.Ratings().Players
		}
		jc := JSONChallenger{Player: c, Played: t.played, Wins: t.wins, Opponents: []JSONOpponent{}}
		for _, r := range rows[c] {
			jc.Opponents = append(jc.Opponents, JSONOpponent{Player: r.opponent, Played: r.played, Wins: r.wins})
		}
		out = append(out, jc)
	}
	for i := range out {
		for _, p := range rated {
			if p.Player == out[i].Player {
				out[i].Rating = &[3]float64{p.Rating, p.Low, p.High}
			}
		}
	}
	return map[string]any{"challengers": out}
}
