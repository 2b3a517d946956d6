package ringmaster_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/competitions"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/judge"
)

// positionsControl plays a 10-position suite: 20 games, each position
// twice with the same dice and the seats swapped.
const positionsControl = `competition_type = "playoff"
game = "backgammon"
seed = 31
cube = true
positions = "trailing.txt"

[players.bot]
kind = "builtin"
args = BOT

[players.heuristic]
kind = "builtin"
args = ["--level", "heuristic", "--seed", "3"]

[[matchups]]
id = "p"
players = ["bot", "heuristic"]
number_of_games = 20
`

// TestBackgammonPositionsSuite: a suite of 10 positions gives 20 games
// paired by dice (both games of a pair start at the pair's position with
// the same first roll, the seats swapped), and compare shows the
// difference between two players within the suite, pair by pair.
func TestBackgammonPositionsSuite(t *testing.T) {
	dir := t.TempDir()
	suite := copySuite(t, dir, "trailing.txt")
	var ids []string
	for _, l := range strings.Split(string(suite), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			ids = append(ids, l)
		}
	}
	if len(ids) != 10 {
		t.Fatalf("the example suite has %d positions, want 10", len(ids))
	}
	control := func(bot string) string { return strings.Replace(positionsControl, "BOT", bot, 1) }
	a := runVariant(t, dir, "a.toml", control(`["--level", "net", "--seed", "1"]`), false)
	b := runVariant(t, dir, "b.toml", control(`["--level", "net", "--noise", "0.4", "--seed", "2"]`), false)

	results := readResults(t, a.DBPath())
	if len(results) != 20 {
		t.Fatalf("%d games, want 20", len(results))
	}
	firstRoll := regexp.MustCompile(`(?m)^\s+1\)\s+(\d\d):`)
	records := map[string]string{}
	for _, r := range results {
		data, err := os.ReadFile(filepath.Join(dir, "a.games", r.gameID+".mat"))
		if err != nil {
			t.Fatal(err)
		}
		records[r.gameID] = string(data)
	}
	for k := range 10 {
		var rolls [2]string
		for i := range 2 {
			n := 2*k + i
			rec := records[competitions.GameID("p", 20, n)]
			if !strings.Contains(rec, "game 1 starts at "+ids[k]) {
				t.Fatalf("game %d does not start at position %d (%s):\n%s", n, k, ids[k], rec)
			}
			m := firstRoll.FindStringSubmatch(rec)
			if m == nil {
				t.Fatalf("game %d: no first roll in\n%s", n, rec)
			}
			rolls[i] = m[1]
		}
		if rolls[0] != rolls[1] {
			t.Errorf("pair %d: first rolls %s and %s, want the same dice", k, rolls[0], rolls[1])
		}
	}
	// Every game is judged from its start position (the records name it
	// in their comment; the moves replay from there, not from the opening).
	for _, rm := range []*ringmaster.Ringmaster{a, b} {
		rep, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{})
		if err != nil || rep.Analysed != 20 || len(rep.Failed) > 0 {
			t.Fatalf("analyse %s: %d of 20 games analysed, failed %v, %v", rm.Comp.Code, rep.Analysed, rep.Failed, err)
		}
	}
	c, err := ringmaster.Compare(context.Background(), a, b, ringmaster.CompareOptions{Plies: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Matchups) != 1 {
		t.Fatalf("compared %d matchups (skipped %v), want 1", len(c.Matchups), c.Skipped)
	}
	m := c.Matchups[0]
	if m.Analysed != 20 || m.LuckAdjustedDifference.Samples != 10 {
		t.Errorf("compare: %d games analysed in both, %d pairs luck-adjusted; want 20 and 10", m.Analysed, m.LuckAdjustedDifference.Samples)
	}
	pa, pb := firstPlayerPoints(t, a.DBPath(), "p"), firstPlayerPoints(t, b.DBPath(), "p")
	var sum float64
	for n := range 20 {
		sum += pa[n] - pb[n]
	}
	if m.Games != 20 || m.Difference.Samples != 10 || m.Difference.Mean != sum/20 {
		t.Errorf("compare: %d games, %d pairs, difference %v; want 20 games, 10 pairs, %v", m.Games, m.Difference.Samples, m.Difference.Mean, sum/20)
	}
}

// TestPositionsSuiteGnubgJudge: gnubg, given the SGF records of games from
// start positions (which set each position up), replays the same boards
// as the referee: for each side it counts the same moves, forced and
// unforced, as bgbot's judge, which replays them through our rules.
func TestPositionsSuiteGnubgJudge(t *testing.T) {
	peertest.Gnubg(t)
	dir := t.TempDir()
	copySuite(t, dir, "trailing.txt")
	rm := runVariant(t, dir, "a.toml", strings.Replace(positionsControl, "BOT", `["--level", "net", "--noise", "0.2", "--seed", "1"]`, 1), false)
	byGnubg, byBgbot := judgedByBoth(t, rm, 20, 2)
	for side := range 2 {
		for _, fig := range []string{"total_moves", "unforced_moves"} {
			g, b := byGnubg.Matchups[0].Sides[side].Figures[fig], byBgbot.Matchups[0].Sides[side].Figures[fig]
			if g != b || g == 0 {
				t.Errorf("side %d: %s %v by gnubg, %v by bgbot", side, fig, g, b)
			}
		}
	}
}

// copySuite copies examples/positions/NAME into dir and returns its text.
func copySuite(t *testing.T, dir, name string) []byte {
	t.Helper()
	suite, err := os.ReadFile(filepath.Join("../examples/positions", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), suite, 0o644); err != nil {
		t.Fatal(err)
	}
	return suite
}

// judgedByBoth has gnubg at 0 ply and then bgbot at 0 ply judge every game
// of rm (games of them, parallel at once), failing unless each judges all.
func judgedByBoth(t *testing.T, rm *ringmaster.Ringmaster, games, parallel int) (byGnubg, byBgbot *ringmaster.AnalysisReport) {
	t.Helper()
	var reps [2]*ringmaster.AnalysisReport
	for i, spec := range []judge.Spec{{Engine: "gnubg"}, {Plies: 0}} {
		rep, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Judge: spec, Parallel: parallel})
		if err != nil || rep.Analysed != games || len(rep.Failed) > 0 {
			t.Fatalf("analyse with %v: %d of %d games analysed, failed %v, %v", spec, rep.Analysed, games, rep.Failed, err)
		}
		reps[i] = rep
	}
	return reps[0], reps[1]
}
