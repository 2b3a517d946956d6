package ringmaster_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/store"
)

const luckSPRTControl = `competition_type = "playoff"
game = "backgammon"
seed = 5
match_length = 1
dice = "paired"

[players.net]
kind = "builtin"
args = ["--level", "net"]

[players.heur]
kind = "builtin"
args = ["--level", "heuristic"]

[[matchups]]
id = "m"
players = ["net", "heur"]
number_of_games = 400
sprt = { elo0 = 0, elo1 = 150, luck_adjusted = true }
`

// A luck-adjusted SPRT judges each game as it ends, reads each pair's mean
// luck-adjusted score, and stops the matchup when it decides; the LLR it
// reports is the one the stored analyses give, and a game left unjudged
// by a run that stopped is judged by the next run's start.
func TestLuckAdjustedSPRT(t *testing.T) {
	if testing.Short() {
		t.Skip("plays and judges games")
	}
	dir := t.TempDir()
	ctl := writeControl(t, dir, "lsprt.toml", luckSPRTControl)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	var js strings.Builder
	if err := rm.ShowJSON(context.Background(), &js); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Matchups []struct {
			Played int `json:"played"`
			SPRT   struct {
				LLR          float64 `json:"llr"`
				Decision     string  `json:"decision"`
				LuckAdjusted bool    `json:"luck_adjusted"`
				Samples      int     `json:"samples"`
			} `json:"sprt"`
			LuckElo *struct {
				Value float64 `json:"value"`
			} `json:"luck_adjusted_elo"`
		} `json:"matchups"`
	}
	if err := json.Unmarshal([]byte(js.String()), &rep); err != nil {
		t.Fatal(err)
	}
	m := rep.Matchups[0]
	t.Logf("decided %s after %d games (%d pairs), LLR %.2f, luck-adjusted Elo %+.0f", m.SPRT.Decision, m.Played, m.SPRT.Samples, m.SPRT.LLR, m.LuckElo.Value)
	if m.LuckElo == nil || m.SPRT.Decision != "H1" || !m.SPRT.LuckAdjusted || m.Played >= 400 || m.SPRT.Samples < ratings.MinScoreSamples {
		t.Fatalf("sprt %+v after %d games, luck-adjusted Elo %v", m.SPRT, m.Played, m.LuckElo)
	}

	// Recompute the LLR from the database: every decided game judged, each
	// pair's mean of (1+x)/2 for net's luck-adjusted result x.
	db, err := sql.Open("sqlite", rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT g.number, g.player_a, s.value_a, s.value_b FROM games g
		JOIN analysis_stats s ON s.game_id = g.game_id AND s.judge_spec = 'bgbot:0' AND s.name = 'luck_adjusted_points'
		WHERE g.winner IS NOT NULL AND g.winner != ''`)
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[int][]float64{}
	judged := 0
	for rows.Next() {
		var num int
		var a string
		var va, vb float64
		if err := rows.Scan(&num, &a, &va, &vb); err != nil {
			t.Fatal(err)
		}
		if a != "net" {
			va = vb
		}
		pairs[num/2] = append(pairs[num/2], (1+va)/2)
		judged++
	}
	rows.Close()
	if judged != m.Played {
		t.Errorf("%d games judged of %d played", judged, m.Played)
	}
	var n, sum, sq float64
	for _, p := range pairs {
		if len(p) == 2 {
			x := (p[0] + p[1]) / 2
			n, sum, sq = n+1, sum+x, sq+x*x
		}
	}
	test := ratings.SPRT{Elo0: 0, Elo1: 150, Alpha: 0.05, Beta: 0.05}
	if want := test.LLRScores(n, sum, sq); math.Abs(want-m.SPRT.LLR) > 1e-9 || int(n) != m.SPRT.Samples {
		t.Errorf("reported LLR %.6f over %d pairs, the stored analyses give %.6f over %.0f", m.SPRT.LLR, m.SPRT.Samples, want, n)
	}
	var text strings.Builder
	if err := rm.Show(context.Background(), &text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"on luck-adjusted pairs (", "accepted H1", "luck-adjusted Elo net - heur: "} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}

	// Forget one game's judgement: the next run judges it at its start and
	// plays nothing, the test being decided.
	if _, err := db.Exec(`DELETE FROM analysis_stats WHERE game_id = (SELECT MIN(game_id) FROM analyses)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM analyses WHERE game_id = (SELECT MIN(game_id) FROM analyses)`); err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	var after, analysed int
	if err := db.QueryRow(`SELECT COUNT(*) FROM games WHERE winner IS NOT NULL`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM analyses WHERE plies = 0`).Scan(&analysed); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(rm.LogPath())
	if after != m.Played || analysed != m.Played || !strings.Contains(string(log), "judged for the luck-adjusted SPRT") {
		t.Errorf("after the second run: %d games, %d analysed (want %d each); log:\n%s", after, analysed, m.Played, log)
	}
}

// The luck-adjusted test is refused where a game's luck-adjusted result is
// no score (money play) or the game has no analysis (Go), naming the line.
func TestLuckAdjustedSPRTRefused(t *testing.T) {
	dir := t.TempDir()
	money := strings.Replace(luckSPRTControl, "match_length = 1\n", "", 1)
	for name, c := range map[string]struct{ text, want string }{
		"money.toml": {money, "money.toml:18: matchups[0].sprt.luck_adjusted: matchup m: under its settings a game's luck-adjusted result is not a win-or-loss score"},
		"go.toml": {"competition_type = \"playoff\"\ngame = \"go\"\nboard_size = 5\nkomi = 0.5\nsprt = { elo0 = 0, elo1 = 50, luck_adjusted = true }\n" +
			"[players.a]\ncommand = \"a\"\n[players.b]\ncommand = \"b\"\n[[matchups]]\nplayers = [\"a\", \"b\"]\nnumber_of_games = 2\n",
			"go.toml:5: sprt.luck_adjusted: analysis not available for go"},
	} {
		rm, err := ringmaster.New(writeControl(t, dir, name, c.text), games.All()...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := quietRun(t, rm, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", name, err, c.want)
		}
	}
}

// TestSPRTReplay measures, on a played competition of paired matches
// judged with luck_adjust, how many pairs the sequential test needs on
// wins and on luck-adjusted results: it replays both tests on 2,000
// sequences of the matchup's pairs drawn with replacement (a bootstrap of
// the competition) and prints the average number of pairs each needed
// and how often each accepted H1. It runs when GAMEMILL_SPRT_REPLAY names
// the control file; GAMEMILL_SPRT_ELO0 and GAMEMILL_SPRT_ELO1 set the
// hypotheses (default 0 and 50).
func TestSPRTReplay(t *testing.T) {
	ctl := os.Getenv("GAMEMILL_SPRT_REPLAY")
	if ctl == "" {
		t.Skip("set GAMEMILL_SPRT_REPLAY=CONTROL.toml of a played competition with luck_adjust = true")
	}
	elo0, elo1 := 0.0, 50.0
	for name, dst := range map[string]*float64{"GAMEMILL_SPRT_ELO0": &elo0, "GAMEMILL_SPRT_ELO1": &elo1} {
		if v := os.Getenv(name); v != "" {
			var err error
			if *dst, err = strconv.ParseFloat(v, 64); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	ctx := context.Background()
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
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
	for _, m := range rm.Comp.Matchups {
		type game struct{ win, luck float64 }
		byPair := map[int][]game{}
		for _, res := range results {
			a := done[res.GameID]
			if res.MatchupID != m.ID || res.Winner == "" || a == nil {
				continue
			}
			seat := 0
			if res.PlayerA != m.PlayerA {
				seat = 1
			}
			g := game{luck: (1 + a.Figures["luck_adjusted_points"][seat]) / 2}
			if res.Winner == m.PlayerA {
				g.win = 1
			}
			byPair[res.Number/2] = append(byPair[res.Number/2], g)
		}
		var pairs [][2]game
		for _, p := range byPair {
			if len(p) == 2 {
				pairs = append(pairs, [2]game{p[0], p[1]})
			}
		}
		if len(pairs) < 20 {
			t.Fatalf("matchup %s: %d complete pairs judged", m.ID, len(pairs))
		}
		test := ratings.SPRT{Elo0: elo0, Elo1: elo1, Alpha: 0.05, Beta: 0.05}
		r := rand.New(rand.NewPCG(1, 2))
		const runs, most = 2000, 100000
		var rawPairs, luckPairs, rawH1, luckH1 int
		for range runs {
			var pent [5]float64
			var n, sum, sq float64
			rawDone, luckDone := false, false
			for k := 1; k <= most && !(rawDone && luckDone); k++ {
				p := pairs[r.IntN(len(pairs))]
				if !rawDone {
					pent[int(2*(p[0].win+p[1].win))]++
					if d := test.Decide(test.LLRPentanomial(pent)); d != ratings.Continue {
						rawDone, rawPairs = true, rawPairs+k
						if d == ratings.AcceptH1 {
							rawH1++
						}
					}
				}
				if !luckDone {
					x := (p[0].luck + p[1].luck) / 2
					n, sum, sq = n+1, sum+x, sq+x*x
					if d := test.Decide(test.LLRScores(n, sum, sq)); k >= ratings.MinScoreSamples && d != ratings.Continue {
						luckDone, luckPairs = true, luckPairs+k
						if d == ratings.AcceptH1 {
							luckH1++
						}
					}
				}
			}
		}
		t.Logf("matchup %s (%d pairs), SPRT [%g, %g] at 5%%: on wins %.1f pairs on average, H1 %.1f%%; luck-adjusted %.1f pairs, H1 %.1f%%; %.1f times fewer",
			m.ID, len(pairs), elo0, elo1, float64(rawPairs)/runs, 100*float64(rawH1)/runs, float64(luckPairs)/runs, 100*float64(luckH1)/runs,
			float64(rawPairs)/float64(luckPairs))
	}
}
