package ringmaster_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// analyseControl is a small competition of built-in bots: 3-point matches
// with paired dice, and money games.
const analyseControl = `competition_type = "playoff"
game = "backgammon"
seed = 5
cube = true
dice = "paired"
match_length = 3

[players.net]
kind = "builtin"
args = ["--level", "net", "--seed", "1"]

[players.noisy]
kind = "builtin"
args = ["--level", "net", "--noise", "0.1", "--seed", "2"]

[players.heuristic]
kind = "builtin"
args = ["--level", "heuristic", "--seed", "3"]

[[matchups]]
id = "nn"
players = ["net", "noisy"]
number_of_games = 4

[[matchups]]
id = "nh"
players = ["noisy", "heuristic"]
number_of_games = 4

[[matchups]]
id = "money"
players = ["net", "heuristic"]
number_of_games = 2
match_length = 0
`

// cancelAfter is a progress writer that cancels a context once n games
// have been judged, and keeps the ids of the games judged.
type cancelAfter struct {
	mu     sync.Mutex
	n      int
	cancel func()
	ids    []string
}

var analysedLine = regexp.MustCompile(`^game (\S+) analysed`)

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, line := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		if m := analysedLine.FindStringSubmatch(line); m != nil {
			c.ids = append(c.ids, m[1])
			if len(c.ids) == c.n && c.cancel != nil {
				c.cancel()
			}
		}
	}
	return len(p), nil
}

// TestAnalyseResumes judges a real competition of built-in bots, is
// interrupted after a few games, and goes on: every game is judged exactly
// once over the calls, and the stored figures agree with the stored
// results.
func TestAnalyseResumes(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "an.toml", analyseControl)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	const total = 10

	ctx, cancel := context.WithCancel(context.Background())
	first := &cancelAfter{n: 3, cancel: cancel}
	_, err = rm.Analyse(ctx, ringmaster.AnalyseOptions{Parallel: 2, Progress: first})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted analysis: %v, want context.Canceled", err)
	}
	stored := countAnalyses(t, rm.DBPath())
	if stored < 3 || stored >= total || stored != len(first.ids) {
		t.Fatalf("%d analyses stored after the interruption (%d reported), want 3 to %d", stored, len(first.ids), total-1)
	}

	second := &cancelAfter{}
	rep, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Parallel: 2, Progress: second})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Analysed != total || rep.Now != total-stored || len(rep.Failed) != 0 {
		t.Errorf("second call: %d analysed, %d now, failed %v; want %d, %d, none", rep.Analysed, rep.Now, rep.Failed, total, total-stored)
	}
	seen := map[string]int{}
	for _, id := range append(first.ids, second.ids...) {
		seen[id]++
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("game %s judged %d times", id, n)
		}
	}
	if len(seen) != total || countAnalyses(t, rm.DBPath()) != total {
		t.Errorf("%d games judged, %d stored; want %d", len(seen), countAnalyses(t, rm.DBPath()), total)
	}
	third, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{})
	if err != nil || third.Now != 0 || third.Analysed != total {
		t.Errorf("third call: %+v %v; want nothing judged again", third, err)
	}
	// (store.TestMigrateV2 checks that each depth keeps its own analyses.)
	checkAnalysisFigures(t, rm)
	checkAnalysisReport(t, rep)
}

// TestAnalyseChosenMatchups judges only the matchups asked for: their
// games are judged and reported, the others' are left for a later call,
// and an unknown id is an error that lists the matchups.
func TestAnalyseChosenMatchups(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "one.toml", analyseControl)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	ids := func(rep *ringmaster.AnalysisReport) []string {
		var out []string
		for _, ma := range rep.Matchups {
			out = append(out, ma.Matchup.ID)
		}
		return out
	}
	rep, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Matchups: []string{"money"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(rep); rep.Now != 2 || rep.Analysed != 2 || fmt.Sprint(got) != "[money]" || countAnalyses(t, rm.DBPath()) != 2 {
		t.Errorf("money only: %d now, %d analysed, matchups %v, %d stored; want 2, 2, [money], 2",
			rep.Now, rep.Analysed, got, countAnalyses(t, rm.DBPath()))
	}
	if len(rep.Players) != 2 || rep.Players[0].Code != "heuristic" || rep.Players[1].Code != "net" || rep.Matchups[0].Raw.Samples != 2 {
		t.Errorf("money only: players %+v, %d games in the matchup", rep.Players, rep.Matchups[0].Raw.Samples)
	}
	rep, err = rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Matchups: []string{"money", "nn"}, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(rep); rep.Now != 4 || rep.Analysed != 6 || fmt.Sprint(got) != "[nn money]" {
		t.Errorf("nn and money: %d now, %d analysed, matchups %v; want 4, 6, [nn money]", rep.Now, rep.Analysed, got)
	}
	_, err = rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Matchups: []string{"nx"}})
	if err == nil || !strings.Contains(err.Error(), `matchup "nx" is not in one (its matchups: nn, nh, money)`) {
		t.Errorf("unknown matchup: %v", err)
	}
	if rep, err = rm.Analyse(context.Background(), ringmaster.AnalyseOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Now != 4 || rep.Analysed != 10 {
		t.Errorf("the rest: %d now, %d analysed; want 4, 10", rep.Now, rep.Analysed)
	}
}

func countAnalyses(t *testing.T, dbPath string) int {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM analyses WHERE plies = 0").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkAnalysisFigures compares the stored figures with the stored results
// (a match won is +0.5 MWC, the luck-adjusted results of the two sides are
// opposite) and, for a game whose seats were swapped, with a fresh
// judgement of its record, side by side by player.
func checkAnalysisFigures(t *testing.T, rm *ringmaster.Ringmaster) {
	ctx := context.Background()
	st, err := store.Open(ctx, rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	results, err := st.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done, err := st.Analyses(ctx, "bgbot:0")
	if err != nil {
		t.Fatal(err)
	}
	j, err := backgammon.New().NewJudge(judge.Spec{Engine: "bgbot"})
	if err != nil {
		t.Fatal(err)
	}
	swappedChecked := false
	for _, res := range results {
		a := done[res.GameID]
		if a == nil {
			t.Fatalf("game %s has no analysis", res.GameID)
		}
		scale := 0.5 // MWC per match point
		if res.MatchupID == "money" {
			scale = 1
		}
		r := a.Figures["result"]
		if math.Abs(r[0]-scale*float64(res.A.Points)) > 1e-9 || math.Abs(r[1]-scale*float64(res.B.Points)) > 1e-9 {
			t.Errorf("game %s: results %v, stored points %v and %v", res.GameID, r, res.A.Points, res.B.Points)
		}
		// Luck can at most swing the stakes a few times over: a bound
		// relative to what the game was settled for, not a fixed number,
		// since a cube raises both.
		if la := a.Figures[judge.LuckAdjusted]; math.Abs(la[0]+la[1]) > 1e-9 || math.Abs(la[0]) > 3*math.Max(1, math.Abs(r[0])) {
			t.Errorf("game %s: luck-adjusted points %v", res.GameID, la)
		}
		if u := a.Figures["unforced_moves"]; u[0] < 5 || u[1] < 5 {
			t.Errorf("game %s: unforced moves %v", res.GameID, u)
		}
		if res.Swapped && !swappedChecked {
			swappedChecked = true
			recs, err := st.Records(ctx, res.GameID)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := j.Analyse(ctx, recs)
			if err != nil {
				t.Fatal(err)
			}
			for side, code := range fresh.Players {
				seat := 0
				if code == res.PlayerB {
					seat = 1
				}
				for name, v := range fresh.Figures {
					if got := a.Figures[name][seat]; math.Abs(got-v[side]) > 1e-9 {
						t.Errorf("game %s: %s of %s stored %v, judged again %v", res.GameID, name, code, got, v[side])
					}
				}
			}
		}
	}
	if !swappedChecked {
		t.Error("no game with swapped seats to check")
	}
}

// checkAnalysisReport checks the text and JSON reports: per matchup and
// per player, the fields the issue asks for, and figures that follow from
// the players' strengths.
func checkAnalysisReport(t *testing.T, rep *ringmaster.AnalysisReport) {
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"an: 10 games analysed by bgbot 0-ply", "net v noisy (3-point match, Crawford, paired dice): 4 games analysed",
		"Chequerplay statistics", "Error based abs. FIBS rating", "rating of net minus noisy (FIBS points)", "paired dice, luck-adjusted",
		"players, over all their games analysed"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Analysed int                          `json:"games_analysed"`
		Players  []map[string]json.RawMessage `json:"players"`
		Matchups []struct {
			ID            string                         `json:"id"`
			Games         int                            `json:"games_analysed"`
			Sides         [2]map[string]any              `json:"sides"`
			PointsPerGame map[string]map[string]*float64 `json:"points_per_game"`
		} `json:"matchups"`
	}
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if js.Analysed != 10 || len(js.Players) != 3 || len(js.Matchups) != 3 {
		t.Fatalf("JSON: %d analysed, %d players, %d matchups\n%s", js.Analysed, len(js.Players), len(js.Matchups), buf.String())
	}
	rate := map[string]float64{}
	for _, p := range js.Players {
		for _, f := range []string{"name", "unforced_moves", "chequer_error_rate", "close_cube_decisions", "cube_error_rate",
			"overall_error_rate", "luck_rate", "rating_label", "luck_label", "rating_estimate", "games"} {
			if _, ok := p[f]; !ok {
				t.Errorf("JSON player lacks %q: %v", f, p)
			}
		}
		var name string
		var r float64
		json.Unmarshal(p["name"], &name)
		json.Unmarshal(p["chequer_error_rate"], &r)
		rate[name] = r
	}
	// bgbot at 0 ply judges its own play: next to no error (under 1
	// mEMG, and a fifth of the noisy player's at most); noise and the
	// heuristic bot make many.
	if rate["net"] > 1 || rate["noisy"] < 5 || rate["net"] > rate["noisy"]/5 || rate["heuristic"] < 10 {
		t.Errorf("chequer error rates %v", rate)
	}
	nn := js.Matchups[0]
	if nn.ID != "nn" || nn.Games != 4 || nn.Sides[0]["name"] != "net" || nn.Sides[1]["name"] != "noisy" ||
		nn.Sides[0]["rating_estimate"] == nil || nn.PointsPerGame["raw"]["value"] == nil || nn.PointsPerGame["luck_adjusted"]["games_ratio"] == nil {
		t.Errorf("JSON matchup nn: %+v", nn)
	}
	if js.Matchups[2].Sides[0]["rating_estimate"] != nil {
		t.Errorf("money play has a rating estimate: %v", js.Matchups[2].Sides[0])
	}
}

// TestAnalyseGoNotAvailable: Go offers no analysis, and says so before
// anything else.
func TestAnalyseGoNotAvailable(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "g.toml", fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 5
komi = 0.5
[players.a]
command = [%q]
[players.b]
command = [%q]
[[matchups]]
players = ["a", "b"]
number_of_games = 2
`, fakeGo, fakeGo))
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rm.Analyse(context.Background(), ringmaster.AnalyseOptions{})
	if !errors.Is(err, ringmaster.ErrNoAnalysis) || err.Error() != "analysis not available for go" {
		t.Errorf("analysing Go: %v", err)
	}
}

// TestAnalyseErrors: a bad depth and a competition never run are refused.
func TestAnalyseErrors(t *testing.T) {
	dir := t.TempDir()
	rm, err := ringmaster.New(writeControl(t, dir, "an.toml", analyseControl), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{}); err == nil || !strings.Contains(err.Error(), "has the competition been run") {
		t.Errorf("analysing a competition never run: %v", err)
	}
	if _, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Judge: judge.Spec{Plies: 9}}); err == nil || !strings.Contains(err.Error(), "depth 9 out of range") {
		t.Errorf("analysing at 9 plies: %v", err)
	}
	if _, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Parallel: 1000}); err == nil {
		t.Error("1000 judges at once were accepted")
	}
}

// TestAnalyseSurvivesKill kills 'ringmaster analyse' with SIGKILL after it
// has stored two games, then runs it again: the killed process's stored
// analyses stand, the games it was judging are judged again, and no game
// is stored twice.
func TestAnalyseSurvivesKill(t *testing.T) {
	dir := t.TempDir()
	ctl := writeControl(t, dir, "an.toml", analyseControl)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(ringmasterBin, "analyse", ctl, "-j", "2")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := analysedLine.FindStringSubmatch(sc.Text()); m != nil {
			ids = append(ids, m[1])
			if len(ids) == 2 {
				cmd.Process.Signal(syscall.SIGKILL)
			}
		}
	}
	cmd.Wait()
	killed := len(ids)
	if stored := countAnalyses(t, rm.DBPath()); stored != killed || killed >= 10 {
		t.Fatalf("after the kill: %d analyses stored, %d reported; want the same, fewer than 10", stored, killed)
	}
	out, err := exec.Command(ringmasterBin, "analyse", ctl, "-j", "2").CombinedOutput()
	if err != nil {
		t.Fatalf("analyse after the kill: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := analysedLine.FindStringSubmatch(line); m != nil {
			ids = append(ids, m[1])
		}
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("game %s stored twice", id)
		}
		seen[id] = true
	}
	if len(seen) != 10 || countAnalyses(t, rm.DBPath()) != 10 || !strings.Contains(string(out), fmt.Sprintf("an: 10 games analysed by bgbot 0-ply (%d now)", 10-killed)) {
		t.Errorf("%d games stored over both calls (%d before the kill); output:\n%s", len(seen), killed, out)
	}
}
