package ringmaster_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/games/gogame"
)

// fakeGoControl is a playoff between two fakego engines, black and white,
// with extra top-level settings, player flags (", ..." inside the
// command's list) and player keys for both.
func fakeGoControl(settings, blackFlags, whiteFlags string, size, n int, playerKeys ...string) string {
	return fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = %d
komi = 0.5
move_limit = 400
%s

[players.black]
command = [%q%s]
%s

[players.white]
command = [%q%s]
%s

[[matchups]]
id = "m"
players = ["black", "white"]
number_of_games = %d
`, size, settings, fakeGo, blackFlags, strings.Join(playerKeys, "\n"), fakeGo, whiteFlags, strings.Join(playerKeys, "\n"), n)
}

func runControl(t *testing.T, dir, name, text string, parallel int) (*ringmaster.Ringmaster, ringmaster.RunStatus, error) {
	t.Helper()
	rm, err := ringmaster.New(writeControl(t, dir, name, text), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var errs bytes.Buffer
	status, err := rm.Run(context.Background(), ringmaster.RunOptions{Parallel: parallel, MaxGames: -1, Quiet: true, MaxVoids: 1,
		Display: io.Discard, Errors: &errs})
	return rm, status, err
}

func readRecord(t *testing.T, text string) *sgf.GoRecord {
	t.Helper()
	rec, err := sgf.ReadGo(strings.NewReader(text))
	if err != nil {
		t.Fatalf("read SGF: %v\n%s", err, text)
	}
	return rec
}

// TestGoOpenings plays 8 SGF openings on 9x9 (examples/openings/9x9) as
// 16 games: game n starts from opening n/2 in file-name order, each
// opening once with each player as Black, and each record starts with its
// opening's moves, the last of them commented.
func TestGoOpenings(t *testing.T) {
	dir := t.TempDir()
	openingsDir, err := filepath.Abs("../examples/openings/9x9")
	if err != nil {
		t.Fatal(err)
	}
	openings, _, err := gogame.LoadOpenings(openingsDir, 9)
	if err != nil || len(openings) != 8 {
		t.Fatalf("%d openings, %v; want 8", len(openings), err)
	}
	text := fakeGoControl(fmt.Sprintf("openings = %q\nscorer = \"internal\"", openingsDir), "", "", 9, 16)
	rm, status, err := runControl(t, dir, "o.toml", text, 2)
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v", status, err)
	}
	results := readGoResults(t, rm.DBPath())
	if len(results) != 16 {
		t.Fatalf("%d results, want 16", len(results))
	}
	blackOf := map[int]map[string]bool{}
	for n := 0; n < 16; n++ {
		id := fmt.Sprintf("m_%02d", n)
		r, ok := results[id]
		if !ok {
			t.Fatalf("no game %s", id)
		}
		o := openings[n/2]
		rec := readRecord(t, r.sgf)
		if len(rec.Moves) < len(o.Moves) {
			t.Fatalf("%s: %d moves, shorter than its opening %s", id, len(rec.Moves), o.Name)
		}
		for i, m := range o.Moves {
			if rec.Moves[i].Color != m.Color || rec.Moves[i].Move != m.Move {
				t.Errorf("%s: move %d is %v %v, opening %s has %v %v", id, i+1, rec.Moves[i].Color, rec.Moves[i].Move, o.Name, m.Color, m.Move)
			}
		}
		last := rec.Moves[len(o.Moves)-1].Comment
		if !strings.Contains(last, fmt.Sprintf("opening %d of 8 (%s)", n/2+1, o.Name)) {
			t.Errorf("%s: the opening's last move has comment %q", id, last)
		}
		if blackOf[n/2] == nil {
			blackOf[n/2] = map[string]bool{}
		}
		blackOf[n/2][rec.Black] = true
		// The referee's board went on from the opening: the record
		// replays to the result it gives.
		if s := replay(t, r.sgf); s.String() != r.result {
			t.Errorf("%s: result %s, replay %s", id, r.result, s)
		}
	}
	for k, b := range blackOf {
		if !b["black"] || !b["white"] {
			t.Errorf("opening %d played with Black by %v, want both players", k+1, b)
		}
	}
	var report bytes.Buffer
	if err := rm.Report(context.Background(), &report); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report.String(), "8 openings") || !strings.Contains(report.String(), "complete pairs") {
		t.Errorf("the report does not show 8 openings played in pairs:\n%s", report.String())
	}
}

// TestGoOpeningErrors: bad openings are refused at load, naming the file,
// the line and what is wrong.
func TestGoOpeningErrors(t *testing.T) {
	dir := t.TempDir()
	lines := filepath.Join(dir, "lines.txt")
	if err := os.WriteFile(lines, []byte("# two openings\nE5 C3\n\nE5 E5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sgfDir := filepath.Join(dir, "sgfs")
	os.Mkdir(sgfDir, 0o755)
	os.WriteFile(filepath.Join(sgfDir, "a.sgf"), []byte("(;FF[4]GM[1]SZ[13];B[dd])"), 0o644)
	for _, tc := range []struct{ openings, settings, want string }{
		{lines, "", "lines.txt:4: move 2: white E5: point is occupied"},
		{sgfDir, "", "a.sgf: SZ[13]: the board size is 9"},
		{filepath.Join(dir, "none"), "", "no such file"},
		{lines, "handicap = 2", "not with a handicap"},
	} {
		_, err := ringmaster.New(writeControl(t, dir, "e.toml", fakeGoControl(fmt.Sprintf("openings = %q\n%s", tc.openings, tc.settings), "", "", 9, 2)), games.All()...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "openings") {
			t.Errorf("openings %s: got %v, want an error naming openings and %q", tc.openings, err, tc.want)
		}
	}
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("E5 C3 G7\n"), 0o644)
	_, err := ringmaster.New(writeControl(t, dir, "odd.toml", fakeGoControl(fmt.Sprintf("openings = %q", good), "", "", 9, 3)), games.All()...)
	if err == nil || !strings.Contains(err.Error(), "even number") {
		t.Errorf("3 games from openings: got %v, want a refusal (each opening is played with both colours)", err)
	}
}

// gnugoScore loads a record into GNU Go and asks its final_score, as the
// referee engine was asked.
func gnugoScore(t *testing.T, gnugo, record string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "g.sgf")
	if err := os.WriteFile(file, []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gnugo, "--mode", "gtp", "--chinese-rules", "--infile", file)
	cmd.Stdin = strings.NewReader("final_score\nquit\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gnugo: %v", err)
	}
	m := regexp.MustCompile(`= ([BW]\+[0-9.]+|0)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("gnugo final_score: %q", out)
	}
	return m[1]
}

// TestGoRefereeScorer: with scorer = "referee" a GNU Go engine scores each
// game after two passes, replayed into it. Players whose final_score
// disagree (each claims the win) leave "?" under scorer = "players" and
// get the referee's result; so do players that are not reliable scorers.
func TestGoRefereeScorer(t *testing.T) {
	gnugo := peertest.GnuGo(t)
	referee := fmt.Sprintf("\n[players.gnugo]\ncommand = [%q, \"--mode\", \"gtp\", \"--chinese-rules\"]\n", gnugo)
	for _, tc := range []struct{ name, flags, keys string }{
		{"players disagree", `, "--claim-score"`, ""},
		{"unreliable scorers", "", "is_reliable_scorer = false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			control := func(scorer string) string {
				return fakeGoControl(scorer, tc.flags, tc.flags, 7, 2, tc.keys) + referee
			}
			rm, status, err := runControl(t, dir, "players.toml", control(""), 1)
			if err != nil || status != ringmaster.Finished {
				t.Fatalf("run: %v %v", status, err)
			}
			byPlayers := readGoResults(t, rm.DBPath())
			rm, status, err = runControl(t, dir, "referee.toml", control(`scorer = "referee"`+"\nreferee = \"gnugo\""), 1)
			if err != nil || status != ringmaster.Finished {
				t.Fatalf("run: %v %v", status, err)
			}
			byReferee := readGoResults(t, rm.DBPath())
			if len(byPlayers) != 2 || len(byReferee) != 2 {
				t.Fatalf("%d and %d results, want 2 each", len(byPlayers), len(byReferee))
			}
			for id, p := range byPlayers {
				r := byReferee[id]
				if p.result != "?" {
					t.Errorf("%s scored by the players: %s, want ? (%s)", id, p.result, p.detail)
				}
				if p.moves != r.moves {
					t.Errorf("%s: %d and %d moves: not the same game", id, p.moves, r.moves)
				}
				want := gnugoScore(t, gnugo, r.sgf)
				if r.result != want || r.ending != "normal" || !strings.Contains(r.detail, "scored by the referee gnugo: "+want) {
					t.Errorf("%s scored by the referee: %s %s %q; GNU Go scores the record %s", id, r.result, r.ending, r.detail, want)
				}
				if !strings.Contains(r.sgf, "gnugo (referee): "+want) {
					t.Errorf("%s: the record's last comment lacks the referee's score:\n%s", id, r.sgf)
				}
			}
		})
	}
}

// TestGoClockFlagFall: under time_settings the referee sends
// time_settings and time_left, keeps each engine's clock by the wall time
// of its answers, and an engine that thinks past its time and margin loses
// on time (W+T), ending "time". The report gives the thinking times.
func TestGoClockFlagFall(t *testing.T) {
	dir := t.TempDir()
	// 3 seconds absolute, margin 0.5 s: black's third answer takes 4 s.
	// (The margins are wide so that a loaded machine cannot make another
	// answer overrun first.)
	text := fakeGoControl("time_settings = {main = 3, margin = 0.5}", `, "--sleep", "4s", "--after", "2", "--gomill"`, `, "--gomill"`, 5, 1)
	rm, status, err := runControl(t, dir, "t.toml", text, 1)
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v", status, err)
	}
	r := readGoResults(t, rm.DBPath())["m_0"]
	if r.winner != "white" || r.result != "W+T" || r.ending != "time" || !strings.Contains(r.detail, "black lost on time") {
		t.Fatalf("got %+v, want white to win on time", r)
	}
	rec := readRecord(t, r.sgf)
	if rec.Result != "W+T" {
		t.Errorf("RE %q, want W+T", rec.Result)
	}
	// Black's second move was asked after time_left with main time left
	// (stones 0), as the engine's own comment shows.
	if len(rec.Moves) < 3 || !strings.Contains(rec.Moves[2].Comment, "time_left b ") || !strings.HasSuffix(rec.Moves[2].Comment, " 0)") {
		t.Errorf("moves %+v: want black's second move to follow time_left b N 0", rec.Moves)
	}
	var report bytes.Buffer
	if err := rm.Report(context.Background(), &report); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`thinking time \(wall clock of genmove\): black average [0-9.]+s, longest [4-9]\.[0-9][0-9]s`).MatchString(report.String()) {
		t.Errorf("the report lacks black's thinking time (longest at least 4 s):\n%s", report.String())
	}
}

// TestGoClockOvertimeKeepsPlaying: an engine inside its byo-yomi never
// loses on time, and hears time_left with the overtime's stones.
func TestGoClockOvertimeKeepsPlaying(t *testing.T) {
	dir := t.TempDir()
	text := fakeGoControl("time_settings = {main = 0, byo_yomi = 30, stones = 5}", `, "--gomill"`, `, "--gomill"`, 5, 1)
	rm, status, err := runControl(t, dir, "t.toml", text, 1)
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v", status, err)
	}
	r := readGoResults(t, rm.DBPath())["m_0"]
	if r.ending == "time" {
		t.Fatalf("lost on time: %+v", r)
	}
	rec := readRecord(t, r.sgf)
	// Black's first three moves are asked with 5, 4 and 3 stones left of
	// the period.
	for i, stones := range []int{5, 4, 3} {
		if c := rec.Moves[2*i].Comment; !strings.HasSuffix(c, fmt.Sprintf(" %d)", stones)) {
			t.Errorf("black's move %d comment %q: want time_left with %d stones", i+1, c, stones)
		}
	}
}

// TestGoGomillExtensions: an engine offering gomill's extensions gets its
// move comments (gomill-explain_last_move) on its moves, its description
// (gomill-describe_engine, which shows GOMILL_GAME_ID and GOMILL_SLOT as
// it saw them) in the game comment, and its gomill-cpu_time as its CPU.
func TestGoGomillExtensions(t *testing.T) {
	dir := t.TempDir()
	rm, status, err := runControl(t, dir, "g.toml", fakeGoControl(`scorer = "internal"`, `, "--gomill"`, "", 5, 1), 1)
	if err != nil || status != ringmaster.Finished {
		t.Fatalf("run: %v %v", status, err)
	}
	r := readGoResults(t, rm.DBPath())["m_0"]
	rec := readRecord(t, r.sgf)
	if !strings.Contains(rec.Comment, "black: fakego, a scripted test engine (GOMILL_GAME_ID=m_0 GOMILL_SLOT=0)") {
		t.Errorf("game comment %q lacks black's description", rec.Comment)
	}
	blackMoves := 0
	for i, m := range rec.Moves {
		switch {
		case m.Color == rules.Black:
			blackMoves++
			if want := fmt.Sprintf("fakego move %d ", blackMoves); !strings.HasPrefix(m.Comment, want) {
				t.Errorf("move %d: comment %q, want %q...", i+1, m.Comment, want)
			}
		case m.Comment != "":
			t.Errorf("move %d by white, which offers no comments: %q", i+1, m.Comment)
		}
	}
	db, err := sql.Open("sqlite", rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var cpuA float64
	var decisionsA int
	if err := db.QueryRow(`SELECT cpu_a, decisions_a FROM games WHERE game_id = 'm_0'`).Scan(&cpuA, &decisionsA); err != nil {
		t.Fatal(err)
	}
	// fakego reports a quarter of a second per genmove answered.
	if want := 0.25 * float64(decisionsA); cpuA != want {
		t.Errorf("black's CPU %v, want its gomill-cpu_time %v (%d moves)", cpuA, want, decisionsA)
	}
}

// TestGoStartupCheckCommands: a competition that needs a command an engine
// lacks is refused at the startup check, before any game, with one line
// naming the player and the command.
func TestGoStartupCheckCommands(t *testing.T) {
	for _, tc := range []struct{ name, settings, flags, keys, want string }{
		{"free handicap", "handicap = 2\nhandicap_style = \"free\"", "", "", "player black failed startup check: it does not know place_free_handicap, which the competition needs"},
		{"clock", "time_settings = {main = 10}", `, "--no-time"`, "", "player black failed startup check: it does not know time_left, which the competition needs"},
		{"claim", "", `, "--no-claim-command"`, "allow_claim = true", "player black failed startup check: it does not know gomill-genmove_ex, which the competition needs"},
		{"unknown referee", "scorer = \"referee\"\nreferee = \"nobody\"", "", "", `unknown player "nobody"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			text := fakeGoControl(tc.settings, tc.flags, tc.flags, 9, 2, tc.keys)
			rm, _, err := runControl(t, dir, "s.toml", text, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a refusal containing %q", err, tc.want)
			}
			if first, _, _ := strings.Cut(err.Error(), "\n"); !strings.Contains(first, tc.want) {
				t.Errorf("the refusal's first line %q does not name the player and the command", first)
			}
			if n := len(readGoResults(t, rm.DBPath())); n != 0 {
				t.Errorf("%d games played; want none", n)
			}
		})
	}
}
