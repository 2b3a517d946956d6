package knockout

import (
	"fmt"
	"io"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

// WriteSection prints the bracket round by round: each match with its
// seeds, score and who went through, byes, and the winner once decided.
func (k *Bracket) WriteSection(w io.Writer, f contest.Field) {
	rounds := k.Rounds(f.Results)
	fmt.Fprintf(w, "knockout of %s, %s a match\n", contest.Plural(len(k.Field), "competitor"), contest.Plural(k.Games, "game"))
	for _, round := range rounds {
		fmt.Fprintf(w, "\n%s\n", roundName(round[0].Round, len(rounds)))
		for _, m := range round {
			fmt.Fprintf(w, "  %s\n", describe(m))
		}
	}
	if final := rounds[len(rounds)-1][0]; final.Winner != "" {
		fmt.Fprintf(w, "\nwinner: %s\n", final.Winner)
	}
	fmt.Fprintln(w)
}

func roundName(r, of int) string {
	switch of - r {
	case 0:
		return "final"
	case 1:
		return "semi-finals"
	case 2:
		return "quarter-finals"
	}
	return fmt.Sprintf("round %d", r)
}

// describe is one match's line.
func describe(m Match) string {
	seeded := func(i int, code string) string { return fmt.Sprintf("%s (%d)", code, m.Seeds[i]) }
	switch {
	case m.A == "":
		return m.ID + ": to be decided"
	case m.B == "" && m.Winner != "":
		return fmt.Sprintf("%s: %s, bye", m.ID, seeded(0, m.A))
	case m.B == "":
		return fmt.Sprintf("%s: %s v to be decided", m.ID, seeded(0, m.A))
	}
	line := fmt.Sprintf("%s: %s v %s  %g-%g after %d of %d games", m.ID, seeded(0, m.A), seeded(1, m.B), m.Score[0], m.Score[1], m.Played, m.Games)
	switch {
	case m.TieBroken:
		line += ", tied: " + m.Winner + " through as the higher seed"
	case m.Winner != "":
		line += ", " + m.Winner + " through"
	}
	return line
}

// JSONMatch is one match of the bracket in the JSON report.
type JSONMatch struct {
	ID        string     `json:"id"`
	Round     int        `json:"round"`
	Players   [2]string  `json:"players"`
	Seeds     [2]int     `json:"seeds"`
	Planned   int        `json:"planned"`
	Played    int        `json:"played"`
	Score     [2]float64 `json:"score"`
	Winner    string     `json:"winner,omitempty"`
	TieBroken bool       `json:"tie_broken,omitempty"`
	Bye       bool       `json:"bye,omitempty"`
}

// JSONSection lists the bracket's matches and its winner.
func (k *Bracket) JSONSection(f contest.Field) any {
	rounds := k.Rounds(f.Results)
	matches := []JSONMatch{}
	for _, round := range rounds {
		for _, m := range round {
			matches = append(matches, JSONMatch{ID: m.ID, Round: m.Round, Players: [2]string{m.A, m.B}, Seeds: m.Seeds,
				Planned: m.Games, Played: m.Played, Score: m.Score, Winner: m.Winner, TieBroken: m.TieBroken,
				Bye: m.Round == 1 && m.B == "" && m.A != ""})
		}
	}
	out := map[string]any{"bracket": matches}
	if final := rounds[len(rounds)-1][0]; final.Winner != "" {
		out["winner"] = final.Winner
	}
	return out
}
