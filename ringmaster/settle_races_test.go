package ringmaster_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/internal/rmtest"
)

// settleControl plays the example race suite between two bgbot
// subprocesses, money games with the cube; SETTLE and GAMES are filled in.
const settleControl = `competition_type = "playoff"
game = "backgammon"
seed = 17
cube = true
jacoby = true
settle_races = SETTLE
positions = "races.txt"

[players.net]
command = [BGBOT, "--seed", "1"]
restart = "never"

[players.noisy]
command = [BGBOT, "--noise", "0.3", "--seed", "2"]
restart = "never"

[[matchups]]
id = "r"
players = ["net", "noisy"]
number_of_games = GAMES
`

// settledGame is one finished game as the database holds it.
type settledGame struct {
	ending, typ string
	points      float64 // the matchup's first player's points
}

func settledGames(t *testing.T, dbPath string) map[int]settledGame {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT number, ending, CASE swapped WHEN 0 THEN points_a ELSE points_b END, typeof(points_a), points_a + points_b
		FROM games WHERE status = 'done'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int]settledGame{}
	for rows.Next() {
		var n int
		var g settledGame
		var sum float64
		if err := rows.Scan(&n, &g.ending, &g.points, &g.typ, &sum); err != nil {
			t.Fatal(err)
		}
		if sum != 0 {
			t.Errorf("game %d: the two sides' points sum to %v", n, sum)
		}
		out[n] = g
	}
	return out
}

// TestSettleRacesEndToEnd: bgbot subprocesses play a suite of races with
// settle_races; the settled games are stored with fractional points and
// the adjudicated ending, the text and JSON reports give their mean and
// count, a second run on the reopened store keeps them and adds more, and
// compare pairs them with another competition's.
func TestSettleRacesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 12 games between bgbot subprocesses")
	}
	dir := t.TempDir()
	bgbot := filepath.Join(dir, "bgbot")
	if out, err := exec.Command("go", "build", "-o", bgbot, "../cmd/bgbot").CombinedOutput(); err != nil {
		t.Fatalf("go build bgbot: %v\n%s", err, out)
	}
	copySuite(t, dir, "races.txt")
	control := func(settle bool, games int) string {
		return strings.NewReplacer("SETTLE", strconv.FormatBool(settle), "GAMES", strconv.Itoa(games), "BGBOT", strconv.Quote(bgbot)).Replace(settleControl)
	}

	// Four games, then the same competition reopened for eight.
	runVariant(t, dir, "settled.toml", control(true, 4), false)
	first := settledGames(t, filepath.Join(dir, "settled.db"))
	a := runVariant(t, dir, "settled.toml", control(true, 8), false)
	stored := settledGames(t, a.DBPath())
	if len(first) != 4 || len(stored) != 8 {
		t.Fatalf("%d games after the first run and %d after the second, want 4 and 8", len(first), len(stored))
	}
	settled, fractional := 0, 0
	var sum float64
	for n, g := range stored {
		if n < 4 && g != first[n] {
			t.Errorf("game %d changed when the store was reopened: %+v, was %+v", n, g, first[n])
		}
		sum += g.points
		if g.ending != "adjudicated" {
			if g.points != math.Trunc(g.points) || g.typ != "integer" {
				t.Errorf("game %d ended %s with points %v (%s)", n, g.ending, g.points, g.typ)
			}
			continue
		}
		settled++
		if g.points != math.Trunc(g.points) {
			fractional++
			if g.typ != "real" {
				t.Errorf("game %d: fractional points stored as %s", n, g.typ)
			}
		}
	}
	// Games 0 and 1 start at a race the database holds, 4 and 5 at
	// another: they are settled at once.
	for _, n := range []int{0, 1, 4, 5} {
		if stored[n].ending != "adjudicated" {
			t.Errorf("game %d starts at a race in the database but ended %s", n, stored[n].ending)
		}
	}
	if fractional == 0 {
		t.Errorf("no settled game scored a fraction: %+v", stored)
	}
	mean := sum / 8

	var text strings.Builder
	if err := a.Report(context.Background(), &text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"races settled by the bearoff database: " + strconv.Itoa(settled) + " ",
		"points/game for net: " + fmt.Sprintf("%+.3f", mean) + ", 95% interval",
		"money game, Jacoby, races settled, 6 start positions, paired dice",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, text.String())
		}
	}
	var rep struct {
		Matchups []struct {
			PointsPerGame struct {
				Value float64 `json:"value"`
			} `json:"points_per_game"`
			Backgammon struct {
				RacesSettled int `json:"races_settled"`
			} `json:"backgammon"`
		} `json:"matchups"`
	}
	rmtest.ShowJSON(t, filepath.Join(dir, "settled.toml"), &rep)
	if len(rep.Matchups) != 1 || math.Abs(rep.Matchups[0].PointsPerGame.Value-mean) > 1e-9 || rep.Matchups[0].Backgammon.RacesSettled != settled {
		t.Errorf("show --json: %+v, want points per game %v and %d races settled", rep.Matchups, mean, settled)
	}

	// Another settled competition on the same seed, noisier: compare
	// pairs the games and their fractional points.
	b := runVariant(t, dir, "noisier.toml", strings.Replace(control(true, 4), `"0.3"`, `"0.6"`, 1), false)
	other := settledGames(t, b.DBPath())
	var diff, common float64
	for n, g := range other {
		diff += stored[n].points - g.points
		common += stored[n].points
	}
	c, err := ringmaster.Compare(context.Background(), a, b, ringmaster.CompareOptions{Plies: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Matchups) != 1 {
		t.Fatalf("compared %d matchups (skipped %v), want 1", len(c.Matchups), c.Skipped)
	}
	if m := c.Matchups[0]; m.Games != 4 || math.Abs(m.Points[0].Mean-common/4) > 1e-9 || math.Abs(m.Difference.Mean-diff/4) > 1e-9 {
		t.Errorf("compare: %d games, points %v, difference %v; want 4, %v, %v", m.Games, m.Points[0].Mean, m.Difference.Mean, common/4, diff/4)
	}

	// The same games played out: compare refuses the matchup, whose
	// settings differ, unless told to pair across settings; the
	// difference is then what settling the races changed, game by game.
	played := runVariant(t, dir, "played.toml", control(false, 8), false)
	c, err = ringmaster.Compare(context.Background(), a, played, ringmaster.CompareOptions{})
	if err != nil || len(c.Matchups) != 0 || len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0], "--across-settings compares them") {
		t.Fatalf("compare settled with played out: %v, %d matchups, skipped %q", err, len(c.Matchups), c.Skipped)
	}
	c, err = ringmaster.Compare(context.Background(), a, played, ringmaster.CompareOptions{AcrossSettings: true})
	if err != nil || len(c.Matchups) != 1 {
		t.Fatalf("compare --across-settings: %v, %d matchups, skipped %q", err, len(c.Matchups), c.Skipped)
	}
	out := settledGames(t, played.DBPath())
	diff = 0
	for n, g := range out {
		if g.ending == "adjudicated" {
			t.Errorf("game %d of the played-out competition was adjudicated", n)
		}
		diff += stored[n].points - g.points
	}
	m := c.Matchups[0]
	if m.Games != 8 || math.Abs(m.Difference.Mean-diff/8) > 1e-9 || !strings.Contains(m.Settings, "races settled") || strings.Contains(m.SettingsB, "races settled") {
		t.Errorf("compare --across-settings: %d games, difference %v, settings %q and %q; want 8 games, %v", m.Games, m.Difference.Mean, m.Settings, m.SettingsB, diff/8)
	}

	// Both judges judge every settled game, those settled at their start
	// position before any action included (their SGF record sets the
	// position up and nothing follows it), and count the same moves.
	t.Run("judges", func(t *testing.T) {
		peertest.Gnubg(t)
		unplayed := 0
		for n := range 8 {
			data, err := os.ReadFile(filepath.Join(dir, "settled.games", fmt.Sprintf("r_%d.mat", n)))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), "Game 1") {
				unplayed++
			}
		}
		if unplayed == 0 {
			t.Fatal("no game settled before any action: the suite does not test that case")
		}
		byGnubg, byBgbot := judgedByBoth(t, a, 8, 1)
		for side := range 2 {
			for _, fig := range []string{"total_moves", "unforced_moves", "result"} {
				g, b := byGnubg.Matchups[0].Sides[side].Figures[fig], byBgbot.Matchups[0].Sides[side].Figures[fig]
				if math.Abs(g-b) > 1e-9 {
					t.Errorf("side %d: %s %v by gnubg, %v by bgbot", side, fig, g, b)
				}
			}
		}
	})
}

// TestSettleRacesRefusedInMatchPlay: settle_races in match play is a
// control-file error naming the file, the line and the key (the
// matchup's, for a setting it inherits from the top level).
func TestSettleRacesRefusedInMatchPlay(t *testing.T) {
	head := "competition_type = \"playoff\"\ngame = \"backgammon\"\nmatch_length = 5\n" +
		"[players.a]\nkind = \"builtin\"\n[players.b]\nkind = \"builtin\"\n"
	for _, c := range []struct{ text, want string }{
		{head + "[[matchups]]\nplayers = [\"a\", \"b\"]\nnumber_of_games = 2\nsettle_races = true\n",
			"match.toml:11: matchups[0].settle_races: applies to money games only (match_length is 5)"},
		{"settle_races = true\n" + head + "[[matchups]]\nplayers = [\"a\", \"b\"]\nnumber_of_games = 2\n",
			"match.toml:9: matchups[0].settle_races: applies to money games only (match_length is 5)"},
	} {
		path := writeControl(t, t.TempDir(), "match.toml", c.text)
		_, err := ringmaster.New(path, games.All()...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want it to say %q", err, c.want)
		}
	}
}
