package ringmaster_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// goControl is a GNU Go playoff: level 0 against level 1 on 9x9, area
// scoring (--chinese-rules, so that the engines' final_score counts as
// ours does), alternating colours, a different seed per game.
func goControl(gnugo, extra string, games int) string {
	return fmt.Sprintf(`competition_type = "playoff"
game = "go"
seed = 11
board_size = 9
komi = 7.5
alternating = true
%s

[players.l0]
command = [%q, "--mode", "gtp", "--chinese-rules", "--level", "0", "--seed", "{seed}"]

[players.l1]
command = [%q, "--mode", "gtp", "--chinese-rules", "--level", "1", "--seed", "{seed}"]

[[matchups]]
id = "g"
players = ["l0", "l1"]
number_of_games = %d
`, extra, gnugo, gnugo, games)
}

type goRow struct {
	id, black, white, winner, result, ending, detail, sgf string
	moves                                                 int
}

func readGoResults(t *testing.T, dbPath string) map[string]goRow {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT g.game_id, g.player_a, g.player_b, COALESCE(g.winner, ''), g.result, g.ending, g.detail, g.moves,
		COALESCE(r.text, '') FROM games g LEFT JOIN records r ON r.game_id = g.game_id AND r.format = 'sgf' WHERE g.status = 'done'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]goRow{}
	for rows.Next() {
		var r goRow
		if err := rows.Scan(&r.id, &r.black, &r.white, &r.winner, &r.result, &r.ending, &r.detail, &r.moves, &r.sgf); err != nil {
			t.Fatal(err)
		}
		out[r.id] = r
	}
	return out
}

func runGo(t *testing.T, dir, name, text string) (*ringmaster.Ringmaster, map[string]goRow) {
	t.Helper()
	ctl := writeControl(t, dir, name, text)
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var errs strings.Builder
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 2, MaxGames: -1, Quiet: true, Display: io.Discard, Errors: &errs})
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run %s: %v %v\n%s", name, status, err, errs.String())
	}
	return rm, readGoResults(t, rm.DBPath())
}

// replay reads a game's SGF with our reader and plays it through the
// rules, returning the final position's area score.
func replay(t *testing.T, text string) rules.Score {
	t.Helper()
	rec, err := sgf.ReadGo(strings.NewReader(text))
	if err != nil {
		t.Fatalf("read our SGF: %v\n%s", err, text)
	}
	g, err := rec.Replay(false)
	if err != nil {
		t.Fatalf("our SGF does not replay: %v", err)
	}
	return g.AreaScore()
}

// TestGoAgainstGNUGo plays a 20-game 9x9 playoff between real GNU Go
// engines with two workers, scored by the players, and the same
// competition scored internally: GNU Go repeats itself for a given seed,
// so the games are the same move for move, and the two scorings are
// compared game by game. Every record loads into GNU Go and into our own
// reader, and replays to the position scored.
func TestGoAgainstGNUGo(t *testing.T) {
	gnugo := peertest.GnuGo(t)
	n := 20
	if testing.Short() {
		n = 6
	}
	dir := t.TempDir()
	_, byPlayers := runGo(t, dir, "players.toml", goControl(gnugo, "", n))
	_, internal := runGo(t, dir, "internal.toml", goControl(gnugo, `scorer = "internal"`, n))
	if len(byPlayers) != n || len(internal) != n {
		t.Fatalf("%d and %d results, want %d each", len(byPlayers), len(internal), n)
	}
	wins := map[string]int{}
	disagree := 0
	for id, p := range byPlayers {
		in := internal[id]
		if p.black != in.black || p.moves != in.moves {
			t.Errorf("game %s differs between the two runs: %+v / %+v", id, p, in)
			continue
		}
		if p.ending != "normal" || in.ending != "normal" || p.winner == "" {
			t.Errorf("game %s did not end normally: players %+v, internal %+v", id, p, in)
			continue
		}
		wins[p.winner]++
		score := replay(t, in.sgf)
		if in.result != score.String() {
			t.Errorf("game %s: internal result %s, but its record replays to %s", id, in.result, score)
		}
		if p.result != in.result {
			// GNU Go removes the stones it judges dead before counting; we
			// count every stone alive (gomill's internal scorer does too).
			disagree++
			t.Logf("game %s: players say %s, internal count %s (%s): GNU Go counted dead stones off the board", id, p.result, in.result, in.detail)
		}
		if i := strings.Index(p.sgf, "RE["); i < 0 || !strings.HasPrefix(p.sgf[i+3:], p.result+"]") {
			t.Errorf("game %s: the SGF's RE is not %s", id, p.result)
		}
	}
	t.Logf("%d games: wins %v; players' and internal scoring differ in %d", n, wins, disagree)
	if wins["l1"] <= wins["l0"] {
		t.Logf("level 1 did not beat level 0 this time: %v", wins)
	}
	// Every record loads into GNU Go.
	for id, r := range byPlayers {
		path := filepath.Join(dir, "players.games", id+".sgf")
		data, err := os.ReadFile(path)
		if err != nil || string(data) != r.sgf {
			t.Fatalf("record file %s: %v", path, err)
		}
		cmd := exec.Command(gnugo, "--mode", "gtp", "--infile", path, "--chinese-rules")
		cmd.Stdin = strings.NewReader("list_stones black\nlist_stones white\nquit\n")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "=") {
			t.Errorf("GNU Go cannot load %s: %v\n%s", path, err, out)
		}
	}
}

// TestGoHandicapGames plays fixed and free handicap games on 9x9 and 13x13
// with GNU Go, scored internally with full compensation: the records carry
// HA and AB, and replay to the result.
func TestGoHandicapGames(t *testing.T) {
	gnugo := peertest.GnuGo(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, extra string
		stones      int
	}{
		{"fixed9", "handicap = 4\nhandicap_style = \"fixed\"\nscorer = \"internal\"", 4},
		{"free9", "handicap = 3\nhandicap_style = \"free\"\nscorer = \"internal\"", 3},
		{"fixed13", "handicap = 5\nscorer = \"internal\"\ninternal_scorer_handicap_compensation = \"short\"", 5},
	} {
		text := goControl(gnugo, tc.extra, 2)
		if strings.HasSuffix(tc.name, "13") {
			text = strings.Replace(text, "board_size = 9", "board_size = 13", 1)
		}
		_, results := runGo(t, dir, tc.name+".toml", text)
		if len(results) != 2 {
			t.Fatalf("%s: %d results", tc.name, len(results))
		}
		for id, r := range results {
			if !strings.Contains(r.sgf, fmt.Sprintf("HA[%d]", tc.stones)) || strings.Count(r.sgf[strings.Index(r.sgf, "AB"):], "][")+1 < tc.stones {
				t.Errorf("%s %s: the record lacks the handicap:\n%s", tc.name, id, r.sgf)
			}
			if r.ending == "resignation" && r.winner != "" {
				continue
			}
			if r.ending != "normal" || r.winner == "" && r.result != "0" {
				t.Errorf("%s %s: %+v", tc.name, id, r)
			}
			score := replay(t, r.sgf)
			comp := float64(tc.stones)
			if tc.name == "fixed13" {
				comp--
			}
			score.Komi += comp
			if score.String() != r.result {
				t.Errorf("%s %s: result %s, the record replays to %s", tc.name, id, r.result, score)
			}
		}
	}
}

// TestGoRefereeRules plays one scripted engine (Black) against a good one
// (White) on 5x5 for every forfeit, void, claim, resignation, move limit
// and scoring rule of the Go referee.
func TestGoRefereeRules(t *testing.T) {
	for _, tc := range []struct {
		name, bad, good, settings string
		// the stored outcome of the one game
		winner, result, ending, detail string
		void                           bool
	}{
		{name: "occupied", bad: `"--mode", "occupied", "--after", "2"`, winner: "good", result: "W+F", ending: "forfeit", detail: "forfeit by bad: attempted illegal move"},
		{name: "reject", bad: `"--mode", "reject"`, winner: "good", result: "W+F", ending: "forfeit", detail: "forfeit by bad: rejected the legal move w"},
		{name: "fail", bad: `"--mode", "fail", "--after", "1"`, winner: "good", result: "W+F", ending: "forfeit", detail: "forfeit by bad: genmove"},
		{name: "garbage", bad: `"--mode", "garbage"`, winner: "good", result: "W+F", ending: "forfeit", detail: `attempted ill-formed move "over there"`},
		{name: "hang", bad: `"--mode", "hang", "--after", "1"`, settings: "timeout = \"300ms\"", winner: "good", result: "W+F", ending: "forfeit", detail: "forfeit by bad"},
		{name: "crash", bad: `"--mode", "crash", "--after", "1"`, void: true},
		{name: "resign", bad: `"--mode", "resign", "--after", "2"`, winner: "good", result: "W+R", ending: "resignation", detail: "bad resigned"},
		{name: "claim", bad: `"--mode", "claim", "--after", "2"`, settings: "allow_claim = true", winner: "bad", result: "B+", ending: "claim", detail: "bad claims the win"},
		{name: "claim not allowed", bad: `"--mode", "claim", "--after", "2"`, winner: "bad", ending: "normal"},
		{name: "move limit", bad: `"--mode", "never-pass"`, good: `"--mode", "never-pass"`, winner: "", result: "Void", ending: "move_limit", detail: "hit move limit"},
		{name: "scorers disagree", bad: `"--score", "B+5"`, good: `"--score", "W+3"`, winner: "", result: "?", ending: "unknown", detail: "players disagreed"},
		{name: "unreliable scorer", bad: `"--score", "B+5"`, good: `"--score", "W+3"`, settings: "is_reliable_scorer = false", winner: "good", result: "W+3", ending: "normal"},
		{name: "same winner, margins differ", bad: `"--score", "B+5"`, good: `"--score", "B+7"`, winner: "bad", result: "B+", ending: "normal", detail: "unknown margin"},
		{name: "jigo", bad: `"--score", "0"`, good: `"--score", "0"`, winner: "", result: "0", ending: "normal", detail: "jigo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			good := tc.good
			if good != "" {
				good = ", " + good
			}
			text := fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 5
komi = 0.5
move_limit = 400
number_of_games = 1

[players.bad]
command = [%q, %s]
%s

[players.good]
command = [%q%s]

[[matchups]]
id = "m"
players = ["bad", "good"]
`, fakeGo, tc.bad, tc.settings, fakeGo, good)
			if tc.name == "move limit" {
				text = strings.Replace(text, "move_limit = 400", "move_limit = 40", 1)
			}
			ctl := writeControl(t, dir, "r.toml", text)
			rm, err := ringmaster.New(ctl, games.All()...)
			if err != nil {
				t.Fatal(err)
			}
			status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: 1, MaxGames: -1, Quiet: true, MaxVoids: 1,
				Display: io.Discard, Errors: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			results := readGoResults(t, rm.DBPath())
			if tc.void {
				if status != ringmaster.Incomplete || len(results) != 0 {
					t.Errorf("status %v, %d results; want a void game left unplayed", status, len(results))
				}
				// What was played before the crash is kept, with the reason.
				data, err := os.ReadFile(filepath.Join(rm.VoidDir(), "m_0-1.sgf"))
				if err != nil || !strings.Contains(string(data), "RE[Void]") || !strings.Contains(string(data), "void: ") {
					t.Errorf("void record: %v\n%s", err, data)
				}
				return
			}
			r, ok := results["m_0"]
			if !ok {
				t.Fatalf("no result (status %v)", status)
			}
			if r.winner != tc.winner || tc.result != "" && r.result != tc.result || r.ending != tc.ending || !strings.Contains(r.detail, tc.detail) {
				t.Errorf("got winner %q result %q ending %q detail %q\nwant winner %q result %q ending %q detail containing %q",
					r.winner, r.result, r.ending, r.detail, tc.winner, tc.result, tc.ending, tc.detail)
			}
			if !strings.Contains(r.sgf, "RE["+r.result+"]") {
				t.Errorf("the record's RE is not %s:\n%s", r.result, r.sgf)
			}
		})
	}
}

// TestGoKillAndResume kills the ringmaster with SIGKILL several times in
// the middle of a GNU Go playoff, then lets a run finish: every game is
// recorded once, and the results equal those of a run never killed (GNU Go
// with {seed} plays each game the same way whenever it is played).
func TestGoKillAndResume(t *testing.T) {
	gnugo := peertest.GnuGo(t)
	n, kills := 12, 6
	if testing.Short() {
		n, kills = 6, 3
	}
	dir := t.TempDir()
	killed := writeControl(t, dir, "killed.toml", goControl(gnugo, "", n))
	landed := killRuns(t, killed, kills)
	_, whole := runGo(t, dir, "whole.toml", goControl(gnugo, "", n))
	got := readGoResults(t, filepath.Join(dir, "killed.db"))
	t.Logf("%d of %d kills landed while the run was going", landed, kills)
	if len(got) != n || len(whole) != n {
		t.Fatalf("%d results after the kills and %d in the run never killed, want %d", len(got), len(whole), n)
	}
	for id, w := range whole {
		g := got[id]
		if g.black != w.black || g.result != w.result || g.moves != w.moves || g.winner != w.winner {
			t.Errorf("game %s: after kills %+v\nnever killed %+v", id, g, w)
		}
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "killed.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows, distinct int
	db.QueryRow("SELECT COUNT(*), COUNT(DISTINCT game_id) FROM games").Scan(&rows, &distinct)
	if rows != n || distinct != n {
		t.Errorf("games table: %d rows, %d distinct ids; want %d", rows, distinct, n)
	}
}

// TestGoAllPlayAllAndSPRT: the generic competition types work for Go: an
// all-play-all of three engines gives its grid, and an SPRT playoff stops
// once decided.
func TestGoAllPlayAllAndSPRT(t *testing.T) {
	dir := t.TempDir()
	apa := fmt.Sprintf(`competition_type = "allplayall"
game = "go"
board_size = 5
komi = 0.5
rounds = 2
competitors = ["a", "b", "c"]

[players.a]
command = [%q]
[players.b]
command = [%q, "--mode", "resign", "--after", "3"]
[players.c]
command = [%q, "--mode", "occupied", "--after", "2"]
`, fakeGo, fakeGo, fakeGo)
	rm, _ := runGo(t, dir, "apa.toml", apa)
	var out strings.Builder
	if err := rm.Show(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"6 games played", "A a ", "Bradley-Terry ratings", "board size: 5   komi: 0.5", "as black: won"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("all-play-all report lacks %q:\n%s", want, out.String())
		}
	}
	sprt := fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 5
komi = 0.5
alternating = true
sprt = { elo0 = 0, elo1 = 200 }

[players.good]
command = [%q]
[players.bad]
command = [%q, "--mode", "resign"]

[[matchups]]
id = "s"
players = ["good", "bad"]
number_of_games = 200
`, fakeGo, fakeGo)
	rm, results := runGo(t, dir, "sprt.toml", sprt)
	if n := len(results); n >= 200 || n < 4 {
		t.Errorf("the SPRT playoff played %d of 200 games", n)
	}
	out.Reset()
	rm.Show(context.Background(), &out)
	if !strings.Contains(out.String(), "accepted H1 (good - bad = 200 Elo)") {
		t.Errorf("the SPRT did not decide for the stronger player:\n%s", out.String())
	}
}
