package knockout

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/contest"
)

func TestOrderKeepsTopSeedsApart(t *testing.T) {
	if got := fmt.Sprint(order(8)); got != "[1 8 4 5 2 7 3 6]" {
		t.Errorf("order(8) = %s", got)
	}
	for _, p := range []int{2, 4, 8, 16, 32} {
		o := order(p)
		half := slices.Index(o, 2) >= p/2
		if slices.Index(o, 1) >= p/2 || !half {
			t.Errorf("order(%d) = %v: seeds 1 and 2 in the same half", p, o)
		}
		sorted := slices.Clone(o)
		slices.Sort(sorted)
		for i, s := range sorted {
			if s != i+1 {
				t.Fatalf("order(%d) = %v is not a permutation", p, o)
			}
		}
	}
}

// play plays every planned game with winner chosen by beats (true: the
// matchup's first player wins), replanning after each result as the
// runner does, and returns the results and the final plan.
func play(k *Bracket, beats func(a, b string, n int) float64) ([]contest.Result, []contest.Matchup) {
	var results []contest.Result
	played := map[string]int{}
	for {
		plan, done := k.Plan(results)
		progress := false
		for _, m := range plan {
			for played[m.ID] < m.Games {
				results = append(results, contest.Result{MatchupID: m.ID, Number: played[m.ID], Score: beats(m.A, m.B, played[m.ID])})
				played[m.ID]++
				progress = true
			}
		}
		if done || !progress {
			return results, plan
		}
	}
}

func TestStrongestSeedWinsWithByes(t *testing.T) {
	field := []string{"s1", "s2", "s3", "s4", "s5", "s6"}
	k := &Bracket{Field: field, Games: 2, Alternating: true}
	strength := func(p string) int { return -slices.Index(field, p) }
	results, plan := play(k, func(a, b string, n int) float64 {
		if strength(a) > strength(b) {
			return 1
		}
		return 0
	})
	rounds := k.Rounds(results)
	if len(rounds) != 3 {
		t.Fatalf("%d rounds, want 3", len(rounds))
	}
	var desc []string
	for _, r := range rounds {
		for _, m := range r {
			desc = append(desc, fmt.Sprintf("%s:%s-%s>%s", m.ID, m.A, m.B, m.Winner))
		}
	}
	want := "r1m1:s1->s1 r1m2:s4-s5>s4 r1m3:s2->s2 r1m4:s3-s6>s3 r2m1:s1-s4>s1 r2m2:s2-s3>s2 r3m1:s1-s2>s1"
	if got := strings.Join(desc, " "); got != want {
		t.Errorf("bracket\n got %s\nwant %s", got, want)
	}
	if len(plan) != 5 || len(results) != 10 {
		t.Errorf("%d matchups and %d games, want 5 and 10", len(plan), len(results))
	}
}

func TestTieBreakPlaysPairsThenSeed(t *testing.T) {
	k := &Bracket{Field: []string{"a", "b"}, Games: 2}
	// Every pair splits: tied after 2, 4 and 6 games; a goes through on
	// seed after the cap of 2 + 2 extra games.
	results, plan := play(k, func(a, b string, n int) float64 { return float64(n % 2) })
	if len(results) != 4 || plan[0].Games != 4 {
		t.Errorf("%d games played, %d planned, want 4 and 4", len(results), plan[0].Games)
	}
	final := k.Rounds(results)[0][0]
	if final.Winner != "a" || !final.TieBroken {
		t.Errorf("winner %q tie-broken %v, want a by seed", final.Winner, final.TieBroken)
	}
	// A win in the extra games decides it.
	results = []contest.Result{{MatchupID: "r1m1", Number: 0, Score: 1}, {MatchupID: "r1m1", Number: 1, Score: 0},
		{MatchupID: "r1m1", Number: 2, Score: 0}, {MatchupID: "r1m1", Number: 3, Score: 0.5}}
	if m := k.Rounds(results)[0][0]; m.Winner != "b" || m.TieBroken || m.Score != [2]float64{1.5, 2.5} {
		t.Errorf("match %+v, want b on 2.5-1.5", m)
	}
}

func TestPlanWaitsForResults(t *testing.T) {
	k := &Bracket{Field: []string{"a", "b", "c", "d"}, Games: 3}
	plan, done := k.Plan(nil)
	if done || len(plan) != 2 || plan[0].ID != "r1m1" || plan[0].A != "a" || plan[0].B != "d" {
		t.Fatalf("first plan %+v done %v", plan, done)
	}
	// r1m1 decided early (2-0 of 3 is not enough: all 3 games are played).
	res := []contest.Result{{MatchupID: "r1m1", Number: 0, Score: 1}, {MatchupID: "r1m1", Number: 1, Score: 1}}
	if plan, _ := k.Plan(res); len(plan) != 2 {
		t.Errorf("after two games: %d matchups, want 2", len(plan))
	}
	res = append(res, contest.Result{MatchupID: "r1m1", Number: 2, Score: 0})
	for n := range 3 {
		res = append(res, contest.Result{MatchupID: "r1m2", Number: n, Score: 0})
	}
	plan, done = k.Plan(res)
	if done || len(plan) != 3 || plan[2].ID != "r2m1" || plan[2].A != "a" || plan[2].B != "c" {
		t.Errorf("after round 1: %+v done %v", plan, done)
	}
}
