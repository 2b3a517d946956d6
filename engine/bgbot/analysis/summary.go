package analysis

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// PlayerSummary is one player's statistics over a game or a match, in the
// form `bgtool analyse --json` prints (and the ringmaster stores). Rates
// are in mEMG (thousandths of EMG) per decision; a rate with no decisions
// to divide by, and a rating estimate for money play, are null.
type PlayerSummary struct {
	Name               string   `json:"name"`
	TotalMoves         int      `json:"total_moves"`
	UnforcedMoves      int      `json:"unforced_moves"`
	ChequerError       float64  `json:"chequer_error"` // EMG in all
	ChequerErrorRate   *float64 `json:"chequer_error_rate"`
	CubeDecisions      int      `json:"cube_decisions"`
	CloseCubeDecisions int      `json:"close_cube_decisions"`
	Doubles            int      `json:"doubles"`
	Takes              int      `json:"takes"`
	Drops              int      `json:"drops"`
	MissedDoubles      int      `json:"missed_doubles"`
	WrongDoubles       int      `json:"wrong_doubles"`
	WrongTakes         int      `json:"wrong_takes"`
	WrongDrops         int      `json:"wrong_drops"`
	CubeError          float64  `json:"cube_error"` // EMG in all
	CubeErrorRate      *float64 `json:"cube_error_rate"`
	OverallErrorRate   *float64 `json:"overall_error_rate"`
	Luck               float64  `json:"luck"` // EMG in all
	LuckRate           *float64 `json:"luck_rate"`
	RatingLabel        string   `json:"rating_label"`
	LuckLabel          string   `json:"luck_label"`
	RatingEstimate     *float64 `json:"rating_estimate"`
	// Result and LuckAdjusted are in points (money) or MWC (match).
	Result       float64 `json:"result"`
	LuckAdjusted float64 `json:"luck_adjusted_result"`
}

// GameSummary is one game's statistics.
type GameSummary struct {
	Number      int              `json:"number"`
	ScoreBefore [2]int           `json:"score_before"`
	Players     [2]PlayerSummary `json:"players"`
}

// Summary is a report's statistics without the decisions.
type Summary struct {
	Players     [2]PlayerSummary `json:"players"`
	MatchLength int              `json:"match_length"`
	Plies       int              `json:"plies"`
	// Player 0's rating minus player 1's (FIBS points): from the error
	// rates, the one-rate form, and the luck-adjusted result. Null in
	// money play.
	RatingDifference     *float64      `json:"rating_difference"`
	SingleRateDifference *float64      `json:"single_rate_difference"`
	LuckBasedDifference  *float64      `json:"luck_based_difference"`
	Games                []GameSummary `json:"games,omitempty"`
}

// num turns NaN into nil for JSON.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func milli(v float64) *float64 { return num(1000 * v) }

// Summary returns the statistics of st for the named player in an n-point
// match (0 for money).
func (st *Stats) Summary(name string, n int) PlayerSummary {
	return PlayerSummary{
		Name: name, TotalMoves: st.TotalMoves, UnforcedMoves: st.UnforcedMoves,
		ChequerError: st.ChequerError, ChequerErrorRate: milli(st.ChequerErrorRate()),
		CubeDecisions: st.CubeDecisions, CloseCubeDecisions: st.CloseCube,
		Doubles: st.Doubles, Takes: st.Takes, Drops: st.Drops,
		MissedDoubles: st.MissedDoubles, WrongDoubles: st.WrongDoubles, WrongTakes: st.WrongTakes, WrongDrops: st.WrongDrops,
		CubeError: st.CubeError, CubeErrorRate: milli(st.CubeErrorRate()),
		OverallErrorRate: milli(st.OverallErrorRate()),
		Luck:             st.Luck, LuckRate: milli(st.LuckRate()),
		RatingLabel: st.RatingLabel(), LuckLabel: st.LuckLabel(),
		RatingEstimate: num(st.RatingEstimate(n)),
		Result:         st.Result, LuckAdjusted: st.LuckAdjusted,
	}
}

// Summary returns the report's statistics; perGame adds each game's.
func (r *Report) Summary(perGame bool) Summary {
	s := Summary{MatchLength: r.MatchLength, Plies: r.Plies,
		RatingDifference:     num(r.RatingDifference()),
		SingleRateDifference: num(r.SingleRateDifference()),
		LuckBasedDifference:  num(r.LuckBasedDifference()),
	}
	for p := range 2 {
		s.Players[p] = r.Overall[p].Summary(r.Players[p], r.MatchLength)
	}
	if perGame {
		s.Games = []GameSummary{}
		for i := range r.Games {
			g := &r.Games[i]
			gs := GameSummary{Number: g.Number, ScoreBefore: g.ScoreBefore}
			for p := range 2 {
				gs.Players[p] = g.Stats[p].Summary(r.Players[p], r.MatchLength)
			}
			s.Games = append(s.Games, gs)
		}
	}
	return s
}

// WriteText writes the statistics of both players side by side, as gnubg's
// "show statistics match" lays them out: chequer play, luck, cube and
// overall sections. Errors print as positive mEMG; the figure in brackets
// is in points (money) or MWC percent (match).
func WriteText(w io.Writer, names [2]string, st [2]Stats, n int) error {
	var b strings.Builder
	row := func(label string, f func(s *Stats) string) {
		fmt.Fprintf(&b, "%-36s %-22s %-22s\n", label, f(&st[0]), f(&st[1]))
	}
	fmt.Fprintf(&b, "%-36s %-22s %-22s\n", "Player", names[0], names[1])
	unnorm := func(v float64) string {
		if n > 0 {
			return fmt.Sprintf("%+.2f%%", 100*v)
		}
		return fmt.Sprintf("%.3f", v)
	}
	rate := func(v float64) string {
		if math.IsNaN(v) {
			return "n/a"
		}
		return fmt.Sprintf("%.1f", 1000*v)
	}
	integer := func(f func(s *Stats) int) func(s *Stats) string {
		return func(s *Stats) string { return fmt.Sprint(f(s)) }
	}
	b.WriteString("\nChequerplay statistics\n\n")
	row("Total moves", integer(func(s *Stats) int { return s.TotalMoves }))
	row("Unforced moves", integer(func(s *Stats) int { return s.UnforcedMoves }))
	row("Moves with error over 0.08", integer(func(s *Stats) int { return s.VeryBadMoves }))
	row("Error total EMG (unnormalised)", func(s *Stats) string {
		return fmt.Sprintf("%.3f (%s)", s.ChequerError, unnorm(s.ChequerUnnorm))
	})
	row("Error rate mEMG", func(s *Stats) string { return rate(s.ChequerErrorRate()) })
	row("Chequerplay rating", func(s *Stats) string { return RatingLabel(s.ChequerErrorRate()) })
	b.WriteString("\nLuck statistics\n\n")
	row("Rolls marked very lucky", integer(func(s *Stats) int { return s.VeryLucky }))
	row("Rolls marked lucky", integer(func(s *Stats) int { return s.Lucky }))
	row("Rolls marked unlucky", integer(func(s *Stats) int { return s.Unlucky }))
	row("Rolls marked very unlucky", integer(func(s *Stats) int { return s.VeryUnlucky }))
	row("Luck total EMG (unnormalised)", func(s *Stats) string {
		return fmt.Sprintf("%+.3f (%s)", s.Luck, unnorm(s.LuckUnnorm))
	})
	row("Luck rate mEMG", func(s *Stats) string { return rate(s.LuckRate()) })
	row("Luck rating", func(s *Stats) string { return s.LuckLabel() })
	b.WriteString("\nCube statistics\n\n")
	row("Total cube decisions", integer(func(s *Stats) int { return s.CubeDecisions }))
	row("Close or actual cube decisions", integer(func(s *Stats) int { return s.CloseCube }))
	row("Doubles", integer(func(s *Stats) int { return s.Doubles }))
	row("Takes", integer(func(s *Stats) int { return s.Takes }))
	row("Passes", integer(func(s *Stats) int { return s.Drops }))
	row("Missed doubles", integer(func(s *Stats) int { return s.MissedDoubles }))
	row("Wrong doubles", integer(func(s *Stats) int { return s.WrongDoubles }))
	row("Wrong takes", integer(func(s *Stats) int { return s.WrongTakes }))
	row("Wrong passes", integer(func(s *Stats) int { return s.WrongDrops }))
	row("Error total EMG (unnormalised)", func(s *Stats) string {
		return fmt.Sprintf("%.3f (%s)", s.CubeError, unnorm(s.CubeUnnorm))
	})
	row("Error rate mEMG", func(s *Stats) string { return rate(s.CubeErrorRate()) })
	row("Cube decision rating", func(s *Stats) string { return RatingLabel(s.CubeErrorRate()) })
	b.WriteString("\nOverall statistics\n\n")
	row("Error rate mEMG", func(s *Stats) string { return rate(s.OverallErrorRate()) })
	row("Overall rating", func(s *Stats) string { return s.RatingLabel() })
	row("Actual result", func(s *Stats) string { return unnorm(s.Result) })
	row("Luck adjusted result", func(s *Stats) string { return unnorm(s.LuckAdjusted) })
	if n > 0 {
		row("Error based abs. FIBS rating", func(s *Stats) string {
			if v := s.RatingEstimate(n); !math.IsNaN(v) {
				return fmt.Sprintf("%.1f", v)
			}
			return "n/a"
		})
	}
	_, err := io.WriteString(w, b.String())
	return err
}
