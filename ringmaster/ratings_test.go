package ringmaster_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// Two competitions of built-in bots: net is the same player in both
// (merged), noisy is defined differently in each (rated apart), and the
// matches are 1, 3 and 5 points long.
const ratingsR1 = `competition_type = "playoff"
game = "backgammon"
seed = 21
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
number_of_games = 6
[[matchups]]
id = "nh"
players = ["noisy", "heuristic"]
number_of_games = 6
[[matchups]]
id = "hn"
players = ["heuristic", "net"]
number_of_games = 6
match_length = 1
`

const ratingsR2 = `competition_type = "playoff"
game = "backgammon"
seed = 22
dice = "paired"
match_length = 5

[players.net]
kind = "builtin"
args = ["--level", "net", "--seed", "1"]
[players.noisy]
kind = "builtin"
args = ["--level", "net", "--noise", "0.2", "--seed", "2"]

[[matchups]]
id = "nn5"
players = ["net", "noisy"]
number_of_games = 6
`

func playedCompetition(t *testing.T, dir, name, text string) *ringmaster.Ringmaster {
	t.Helper()
	rm, err := ringmaster.New(writeControl(t, dir, name, text), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	return rm
}

// storedGames reads a competition's results straight from the
// game_results view and the games table, as ratings.Games, naming each
// player by rename.
func storedGames(t *testing.T, dbPath string, rename func(string) string, matchLength map[string]int) []ratings.Game {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT r.matchup_id, r.player_a, r.player_b, COALESCE(r.winner, ''), g.ending, COALESCE(g.first_mover, '')
		FROM game_results r JOIN games g USING (game_id) ORDER BY r.matchup_id, g.number`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []ratings.Game
	for rows.Next() {
		var m, a, b, winner, ending, first string
		if err := rows.Scan(&m, &a, &b, &winner, &ending, &first); err != nil {
			t.Fatal(err)
		}
		g := ratings.Game{A: rename(a), B: rename(b), First: -1, MatchLength: matchLength[m]}
		switch {
		case winner == a:
			g.Score = 1
		case winner == b:
			g.Score = 0
		case ending == "normal":
			g.Score = 0.5
		default:
			continue
		}
		if first == a {
			g.First = 0
		} else if first == b {
			g.First = 1
		}
		out = append(out, g)
	}
	return out
}

// TestRatingsAcrossCompetitions rates the players of two real competitions
// in one table, and checks it against a fit of the same results read
// straight from the databases: the merge of net, the split of noisy, match
// lengths, first movers and scores.
func TestRatingsAcrossCompetitions(t *testing.T) {
	dir := t.TempDir()
	r1 := playedCompetition(t, dir, "r1.toml", ratingsR1)
	r2 := playedCompetition(t, dir, "r2.toml", ratingsR2)
	ctx := context.Background()
	// A prior keeps the test finite whatever the bots win.
	opts := ringmaster.RatingsOptions{Prior: 1}
	table, err := ringmaster.Ratings(ctx, []*ringmaster.Ringmaster{r1, r2}, opts)
	if err != nil {
		t.Fatal(err)
	}
	rename := func(comp string) func(string) string {
		return func(code string) string {
			if code == "noisy" {
				return "noisy@" + comp
			}
			return code
		}
	}
	want := append(storedGames(t, r1.DBPath(), rename("r1"), map[string]int{"nn": 3, "nh": 3, "hn": 1}),
		storedGames(t, r2.DBPath(), rename("r2"), map[string]int{"nn5": 5})...)
	if len(want) != 24 || table.Games != 24 || table.Excluded != 0 || table.Matches != 24 {
		t.Fatalf("%d games read back, %d fitted (%d excluded, %d matches); want 24", len(want), table.Games, table.Excluded, table.Matches)
	}
	ref, err := ratings.FitBradleyTerry(want, ratings.FitOptions{Advantage: true, Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Table.Players) != 4 || len(ref.Players) != 4 {
		t.Fatalf("players %+v, want 4 as %+v", table.Table.Players, ref.Players)
	}
	for i, p := range table.Table.Players {
		r := ref.Players[i]
		if p.Player != r.Player || math.Abs(p.Rating-r.Rating) > 1e-6 || math.Abs(p.Low-r.Low) > 1e-6 || p.Games != r.Games || p.Score != r.Score {
			t.Errorf("row %d: %+v, from the databases %+v", i, p, r)
		}
	}
	if math.Abs(table.Table.Advantage-ref.Advantage) > 1e-6 {
		t.Errorf("advantage %v, from the databases %v", table.Table.Advantage, ref.Advantage)
	}
	if len(table.Merged) != 1 || table.Merged[0].Player != "net" || strings.Join(table.Merged[0].Competitions, ",") != "r1,r2" ||
		len(table.Split) != 2 || table.Split[0].Player != "noisy@r1" || table.Split[1].Player != "noisy@r2" {
		t.Errorf("merged %+v, split %+v", table.Merged, table.Split)
	}

	var text bytes.Buffer
	if err := table.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"ratings of backgammon players from 24 games of r1, r2", "FIBS scale",
		"merged (the same player in several competitions): net (r1, r2)", "rated apart (one code, different players): noisy@r1 (r1); noisy@r2 (r2)",
		"first-move advantage", "likelihood of superiority"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, text.String())
		}
	}
	var buf bytes.Buffer
	if err := table.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Scale   string `json:"scale"`
		Players []struct {
			Player            string
			Rating, Low, High float64
			Games             float64
			Score             float64
		} `json:"players"`
		LOS map[string]map[string]float64 `json:"los"`
	}
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if js.Scale != "fibs" || len(js.Players) != 4 || len(js.LOS) != 4 {
		t.Fatalf("JSON: %s", buf.String())
	}
	for i, p := range js.Players {
		if p.Low > p.Rating || p.High < p.Rating || p.Games == 0 || p.Score < 0 || p.Score > 1 {
			t.Errorf("JSON player %+v", p)
		}
		if i > 0 && p.Rating > js.Players[i-1].Rating {
			t.Errorf("JSON players not best first: %+v", js.Players)
		}
		for q, los := range js.LOS[p.Player] {
			if back := js.LOS[q][p.Player]; math.Abs(los+back-1) > 1e-9 {
				t.Errorf("LOS %s>%s %v and %s>%s %v do not add to 1", p.Player, q, los, q, p.Player, back)
			}
		}
	}
	var csvOut bytes.Buffer
	table.WriteCSV(&csvOut)
	if lines := strings.Split(strings.TrimSpace(csvOut.String()), "\n"); len(lines) != 5 || lines[0] != "rank,player,rating,low,high,stderr,games,score" {
		t.Errorf("CSV:\n%s", csvOut.String())
	}

	// An anchor moves the scale, not the differences.
	opts.Anchor, opts.AnchorRating = "heuristic", 1500
	anchored, err := ringmaster.Ratings(ctx, []*ringmaster.Ringmaster{r1, r2}, opts)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := anchored.Table.Rating("heuristic")
	if h.Rating != 1500 || h.Low != 1500 {
		t.Errorf("anchored heuristic %+v", h)
	}
	opts.Anchor = "noisy"
	if _, err := ringmaster.Ratings(ctx, []*ringmaster.Ringmaster{r1, r2}, opts); err == nil || !strings.Contains(err.Error(), "noisy@r1") {
		t.Errorf("anchor on a split code: %v", err)
	}
	if _, err := ringmaster.Ratings(ctx, []*ringmaster.Ringmaster{r1, r1}, ringmaster.RatingsOptions{Prior: 1}); err == nil {
		t.Error("the same competition twice was accepted")
	}
}

// TestRatingsGoDraws rates Go games with draws (jigo: integer komi and
// players that score the game 0) and a first-move (Black) advantage that
// changes sides with the komi: the draw parameter is fitted, a draw counts
// half, and players of equal results rate equal.
func TestRatingsGoDraws(t *testing.T) {
	dir := t.TempDir()
	text := fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 5
komi = 0
alternating = true
scorer = "internal"
[players.a]
command = [%q, "--score", "0"]
[players.z]
command = [%q, "--score", "0"]
[[matchups]]
id = "draws"
players = ["a", "z"]
number_of_games = 4
scorer = "players"
[[matchups]]
id = "black"
players = ["a", "z"]
number_of_games = 4
[[matchups]]
id = "white"
players = ["a", "z"]
number_of_games = 4
komi = 30
`, fakeGo, fakeGo)
	rm, err := ringmaster.New(writeControl(t, dir, "jigo.toml", text), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	table, err := ringmaster.Ratings(context.Background(), []*ringmaster.Ringmaster{rm}, ringmaster.RatingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if table.Games != 12 || table.Single != 12 || math.IsNaN(table.Table.DrawElo) {
		t.Fatalf("%d games (%d single), draw parameter %v", table.Games, table.Single, table.Table.DrawElo)
	}
	for _, p := range table.Table.Players {
		if p.Games != 12 || p.Score != 6 || math.Abs(p.Rating) > 1e-6 {
			t.Errorf("player %+v: want 12 games, score 6 (2 wins as black, 2 as white, 4 draws), rating 0", p)
		}
	}
	if math.Abs(table.Table.Advantage) > 1e-6 {
		t.Errorf("first-move advantage %v, want 0 (black won 4, white 4)", table.Table.Advantage)
	}
	var buf bytes.Buffer
	table.WriteText(&buf)
	if !strings.Contains(buf.String(), "Elo scale") || !strings.Contains(buf.String(), "draw parameter") {
		t.Errorf("text:\n%s", buf.String())
	}
}
