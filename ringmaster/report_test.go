package ringmaster

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
	"github.com/gamemill/gamemill/ringmaster/store"
)

var update = flag.Bool("update", false, "rewrite the golden report files in testdata/report")

// The golden reports are made from synthetic results, so that every figure
// and every column can be checked by eye against the generator below.
const goldenPlayoff = `
competition_type = "playoff"
game = "backgammon"
description = "golden report: every kind of matchup"
number_of_games = 12

[players.alpha]
command = "alpha"
[players.beta]
command = "beta"
[players.gamma]
command = "gamma"

[[matchups]]
id = "money"
players = ["alpha", "beta"]
dice = "paired"
sprt = { elo0 = 0, elo1 = 50 }

[[matchups]]
id = "match5"
players = ["beta", "gamma"]
match_length = 5
alternating = true

[[matchups]]
id = "limits"
players = ["gamma", "alpha"]
cube = false
max_moves = 40
number_of_games = 13

[[matchups]]
id = "idle"
players = ["alpha", "gamma"]
number_of_games = 0
`

const goldenAllPlayAll = `
competition_type = "allplayall"
game = "backgammon"
match_length = 3
rounds = 6
competitors = ["a", "b", "c"]

[players.a]
command = "a"
[players.b]
command = "b"
[players.c]
command = "c"
`

const goldenGauntlet = `
competition_type = "gauntlet"
game = "backgammon"
description = "golden report: two challengers against a field of three"
match_length = 3
number_of_games = 6
challengers = ["new", "old"]
opponents = ["r1", "r2", "r3"]

[players.new]
command = "new"
[players.old]
command = "old"
[players.r1]
command = "r1"
[players.r2]
command = "r2"
[players.r3]
command = "r3"
`

// synthetic makes n finished games of a matchup from the control file with
// outcomes drawn from a fixed seed. unknownEvery > 0 gives every such game
// no winner (a move limit); forfeitEvery > 0 makes that game a forfeit by
// the loser.
func synthetic(m *control.Matchup, n int, seed uint64, unknownEvery, forfeitEvery int) []store.GameResult {
	rng := rand.New(rand.NewPCG(seed, 1))
	bgs := m.Settings.(*backgammon.Settings)
	var out []store.GameResult
	for i := 0; i < n; i++ {
		a, b, swapped := m.PlayerA, m.PlayerB, false
		if m.Alternating && i%2 == 1 || m.Settings.PairedGames() && i%2 == 1 {
			a, b, swapped = b, a, true
		}
		r := store.GameResult{GameID: fmt.Sprintf("%s_%d", m.ID, i), MatchupID: m.ID, Number: i,
			PlayerA: a, PlayerB: b, Swapped: swapped, Moves: 30 + rng.IntN(40), Ending: "normal",
			Stats:      map[string][2]int{"games": {1, 1}},
			FinishedAt: time.Date(2026, 11, 22, 12, 0, i, 0, time.UTC)}
		// stat adds n to side (0 = A, 1 = B) of a statistic.
		stat := func(name string, side, n int) {
			v := r.Stats[name]
			v[side] += n
			r.Stats[name] = v
		}
		if rng.IntN(2) == 0 {
			r.FirstMover = a
		} else {
			r.FirstMover = b
		}
		r.A.Decisions, r.B.Decisions = 20+rng.IntN(10), 20+rng.IntN(10)
		r.A.CPU = time.Duration(r.A.Decisions) * time.Millisecond
		r.B.CPU = time.Duration(r.B.Decisions) * 3 * time.Millisecond / 2
		switch {
		case unknownEvery > 0 && i%unknownEvery == unknownEvery-1:
			r.Result, r.Detail, r.Ending = "unknown", "no result after 40 moves", "move_limit"
		default:
			aWins := rng.IntN(100) < 60
			win, lose := &r.A, &r.B
			w := 0
			r.Winner = a
			if !aWins {
				win, lose = lose, win
				w = 1
				r.Winner = b
			}
			pts := 1
			switch {
			case forfeitEvery > 0 && i%forfeitEvery == forfeitEvery-1:
				r.Result, r.Ending = "forfeit", "forfeit"
				if r.Winner == a {
					r.ForfeitBy = b
				} else {
					r.ForfeitBy = a
				}
				r.Detail = r.Winner + " wins: " + r.ForfeitBy + " forfeits (illegal move 8/3)"
			case bgs.MatchLength > 0:
				r.Result = "match"
				ws, ls := bgs.MatchLength, rng.IntN(bgs.MatchLength)
				stat("score", w, ws)
				stat("score", 1-w, ls)
				games := 2 + rng.IntN(4)
				r.Stats["games"] = [2]int{games, games}
				r.Detail = fmt.Sprintf("%s wins the match %d-%d", r.Winner, ws, ls)
			default:
				switch rng.IntN(6) {
				case 0:
					r.Result, pts = "gammon", 2
					r.Stats["level"] = [2]int{2, 2}
					stat("gammons", w, 1)
				case 1:
					r.Result, pts = "backgammon", 3
					r.Stats["level"] = [2]int{3, 3}
					stat("backgammons", w, 1)
				default:
					r.Result = "single"
					r.Stats["level"] = [2]int{1, 1}
				}
				if bgs.Cube && rng.IntN(3) == 0 {
					pts *= 2
					stat("doubles", 1-w, 1)
					stat("takes", w, 1)
				}
				r.Detail = fmt.Sprintf("%s wins %d point(s)", r.Winner, pts)
			}
			if bgs.MatchLength > 0 {
				pts = 1
			}
			win.Points, lose.Points = float64(pts), -float64(pts)
		}
		if bgs.Cube && rng.IntN(4) == 0 {
			stat("doubles", 0, 1)
			stat("drops", 1, 1)
		}
		out = append(out, r)
	}
	return out
}

func goldenCompetition(t *testing.T, name, text string) *Ringmaster {
	t.Helper()
	game := backgammon.New()
	comp, err := control.Parse(name, []byte(text), game)
	if err != nil {
		t.Fatal(err)
	}
	return &Ringmaster{Comp: comp, Game: game}
}

func playoffData(t *testing.T, r *Ringmaster) reportData {
	byID := map[string]*control.Matchup{}
	for _, m := range r.Comp.Matchups {
		byID[m.ID] = m
	}
	var d reportData
	d.results = append(d.results, synthetic(byID["money"], 12, 1, 0, 0)...)
	d.results = append(d.results, synthetic(byID["match5"], 9, 2, 0, 4)...)
	d.results = append(d.results, synthetic(byID["limits"], 13, 3, 3, 5)...)
	// A matchup since removed from the control file keeps its results.
	gone := &control.Matchup{ID: "gone", PlayerA: "beta", PlayerB: "alpha", Settings: backgammon.DefaultSettings()}
	d.results = append(d.results, synthetic(gone, 3, 4, 0, 0)...)
	d.voids = []store.VoidGame{
		{GameID: "money_3", At: "2026-11-22T12:00:00Z", Reason: "void: player beta: engine exited\nwith status 2"},
		{GameID: "money_3", At: "2026-11-22T12:00:01Z", Reason: "void: player beta: engine exited"},
		{GameID: "limits_2", At: "2026-11-22T12:00:02Z", Reason: "error starting player gamma: no such file"},
		{GameID: "limits_2", At: "2026-11-22T12:00:03Z", Reason: "error starting player gamma: no such file"},
	}
	d.engines = map[string]string{"alpha": "Alpha 1.0", "beta": "Beta 2", "gamma": "Gamma 0.3"}
	return d
}

func allPlayAllData(t *testing.T, r *Ringmaster) reportData {
	var d reportData
	for i, m := range r.Comp.Matchups {
		d.results = append(d.results, synthetic(m, 6, uint64(10+i), 0, 0)...)
	}
	d.engines = map[string]string{"a": "A", "b": "B", "c": "C"}
	return d
}

// checkGolden compares got with testdata/report/name, or rewrites it under
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "report", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it after a deliberate change)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

func TestReportGolden(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		data             func(*testing.T, *Ringmaster) reportData
	}{
		{"playoff", "golden.toml", goldenPlayoff, playoffData},
		{"allplayall", "grid.toml", goldenAllPlayAll, allPlayAllData},
		{"gauntlet", "gauntlet.toml", goldenGauntlet, allPlayAllData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := goldenCompetition(t, tc.file, tc.text)
			d := tc.data(t, r)
			var full, short bytes.Buffer
			r.writeFullReport(&full, d)
			r.writeShortReport(&short, d)
			checkGolden(t, tc.name+".full", full.Bytes())
			checkGolden(t, tc.name+".short", short.Bytes())
			js, err := json.MarshalIndent(r.jsonReport(d), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name+".json", append(js, '\n'))
		})
	}
}

// TestWinsByFirstMover: a player's wins split exactly into those when it
// moved first and those when the other did. "other moved first: won" used
// to be games minus the other's wins, so games with no winner (the move
// limit) counted as wins.
func TestWinsByFirstMover(t *testing.T) {
	r := goldenCompetition(t, "golden.toml", goldenPlayoff)
	for _, s := range r.gather(playoffData(t, r)) {
		for i := 0; i < 2; i++ {
			if got := float64(s.firstWins[i] + s.otherFirstWins[i]); got != s.wins[i] {
				t.Errorf("matchup %s, %s: %v wins moving first + %v when the other did = %v, want %v",
					s.m.ID, [2]string{s.m.PlayerA, s.m.PlayerB}[i], s.firstWins[i], s.otherFirstWins[i], got, s.wins[i])
			}
		}
		if s.m.ID == "limits" && s.unknown == 0 {
			t.Error("the limits matchup has no games without a winner: the test checks nothing")
		}
	}
}
