package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/buildtest"
)

var update = flag.Bool("update", false, "rewrite testdata/transcript.golden")

var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	buildtest.Main(m, map[string]*string{".": &binary})
}

// script builds the conformance script: every command of the backgammon
// set, the built-in GTP commands, and errors for each.
func script(t *testing.T) []string {
	money := backgammon.Rules{Variant: backgammon.Standard, Cube: true, Jacoby: true, Beavers: true}
	s := backgammon.NewMatch(money)
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	openPos, openMatch := gnubgid.Encode(s)
	m, err := s.ParseMove("8/5 6/5")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Play(m); err != nil {
		t.Fatal(err)
	}
	cubePos, cubeMatch := gnubgid.Encode(s)
	if err := s.Double(); err != nil {
		t.Fatal(err)
	}
	takePos, takeMatch := gnubgid.Encode(s)

	// On the bar against a closed board: no legal move.
	c := backgammon.NewMatch(money)
	if err := c.StartGame(0, 6, 5); err != nil {
		t.Fatal(err)
	}
	var b backgammon.Board
	b[backgammon.OnRoll][backgammon.BarIndex] = 1
	b[backgammon.OnRoll][5] = 14
	for i := 0; i < 6; i++ {
		b[backgammon.Opponent][i] = 2
	}
	b[backgammon.Opponent][23] = 3
	c.Board = b
	closedPos, closedMatch := gnubgid.Encode(c)

	// A race the player on roll cannot win (5 checkers left against 1):
	// it resigns a single, which the other side accepts.
	rs := backgammon.NewMatch(money)
	if err := rs.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	if err := rs.Play(m); err != nil {
		t.Fatal(err)
	}
	rs.Board = backgammon.Board{}
	rs.Board[backgammon.OnRoll][5] = 5
	rs.Board[backgammon.Opponent][0] = 1
	resignPos, resignMatch := gnubgid.Encode(rs)
	if err := rs.Resign(backgammon.Single); err != nil {
		t.Fatal(err)
	}
	acceptPos, acceptMatch := gnubgid.Encode(rs)

	mt := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard, Cube: true, MatchLength: 5, Crawford: true})
	mt.Score = [2]int{2, 3}
	if err := mt.StartGame(1, 6, 4); err != nil {
		t.Fatal(err)
	}
	matchPos, matchID := gnubgid.Encode(mt)

	return []string{
		"protocol_version",
		"1 name",
		"version",
		"known_command genmove",
		"known_command evaluate",
		"known_command fly",
		"list_commands",
		"genmove",
		"gencube",
		"gentake",
		"evaluate",
		"set_game",
		"set_game chess 0",
		"set_game standard -1",
		"set_game standard 0 crawford",
		"set_game standard 0 jacoby beavers",
		"set_position",
		"set_position " + openPos,
		"set_position AAAAAAAAAAAAAA cAkAAAAAAAAA",
		"set_position " + openPos + " notamatchid",
		"set_position " + openPos + " " + openMatch,
		"gencube",
		"gentake",
		"2 genmove",
		"genmove extra",
		"evaluate",
		"set_position " + cubePos + " " + cubeMatch,
		"genmove",
		"gencube",
		"set_position " + takePos + " " + takeMatch,
		"gencube",
		"gentake",
		"set_position " + closedPos + " " + closedMatch,
		"genmove",
		"known_command genresign",
		"genresign",
		"set_position " + resignPos + " " + resignMatch,
		"genresign",
		"genaccept",
		"set_position " + acceptPos + " " + acceptMatch,
		"genaccept",
		"genresign",
		"genresign now",
		"set_position " + openPos + " " + openMatch,
		"genresign",
		"set_position " + matchPos + " " + matchID,
		"set_game standard 5 crawford",
		"set_position " + matchPos + " " + matchID,
		"genmove",
		"gencube",
		"set_game hypergammon3 0 cubeless",
		"genmove",
		"fly",
		"# a comment line",
		"quit",
	}
}

// TestTranscript drives the built binary through the conformance script
// and compares the exchange with testdata/transcript.golden.
func TestTranscript(t *testing.T) {
	lines := script(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "--level", "heuristic")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bgbot: %v\nstderr: %s", err, stderr.String())
	}
	responses := strings.SplitAfter(stdout.String(), "\n\n")
	var got strings.Builder
	k := 0
	for _, l := range lines {
		fmt.Fprintf(&got, "> %s\n", l)
		if strings.HasPrefix(l, "#") {
			continue
		}
		if k >= len(responses) {
			t.Fatalf("no response to %q; output:\n%s", l, stdout.String())
		}
		got.WriteString(responses[k])
		k++
	}
	if k < len(responses) && strings.TrimSpace(strings.Join(responses[k:], "")) != "" {
		t.Errorf("extra output: %q", responses[k:])
	}
	golden := filepath.Join("testdata", "transcript.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("transcript differs from %s (run with -update to accept):\n%s", golden, got.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// TestNetLevelSubprocess checks the default (net) level answers a legal
// opening move and that bad flags exit with status 2.
func TestNetLevelSubprocess(t *testing.T) {
	s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard, Cube: true})
	if err := s.StartGame(1, 6, 5); err != nil {
		t.Fatal(err)
	}
	pos, match := gnubgid.Encode(s)
	cmd := exec.Command(binary)
	cmd.Stdin = strings.NewReader("set_position " + pos + " " + match + "\ngenmove\nquit\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(out), "\n\n")
	if len(parts) < 2 || !strings.HasPrefix(parts[1], "= ") {
		t.Fatalf("output %q", out)
	}
	if _, err := s.ParseMove(strings.TrimPrefix(parts[1], "= ")); err != nil {
		t.Errorf("net move: %v", err)
	}
	err = exec.Command(binary, "--level", "grandmaster").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("bad flag: %v", err)
	}
	if err := exec.Command(binary, "--help").Run(); err != nil {
		t.Errorf("--help: %v", err)
	}
}

// TestExitStatus runs the command in process: 0 for --help (usage on
// stdout), 2 for bad flags and values (non-finite noise included), 1 when
// serving fails.
func TestExitStatus(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--level", "grandmaster"}, 2, "grandmaster"},
		{[]string{"--bogus"}, 2, "bgbot: unknown flag: --bogus\n\nusage: bgbot [flags]\n"},
		{[]string{"--plies", "9"}, 2, "--plies 9"},
		{[]string{"--noise", "nan"}, 2, "--noise"},
		{[]string{"--noise", "inf"}, 2, "--noise"},
		{[]string{"stray"}, 2, `unexpected argument "stray"`},
		{[]string{"--weights", filepath.Join(t.TempDir(), "missing.bgnet")}, 1, "missing.bgnet"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader("quit\n"), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("bgbot %q: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "usage: bgbot") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"--level", "random"}, strings.NewReader("name\nquit\n"), &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "= bgbot") {
		t.Errorf("serving: exit %d, stdout %q", code, stdout.String())
	}
}

// TestWidenedWeights serves with a widened weights file: the default
// network widened to the newest layout and 16 more hidden units computes what the
// default does, so its answers must be the same.
func TestWidenedWeights(t *testing.T) {
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	wide, err := def.Widen(bgbot.LayoutLast, def.Hidden+16, bgbot.SeededRand(1))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v2.bgnet")
	var buf bytes.Buffer
	if _, err := wide.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	in := "set_position 4HPwATDgc/ABMA MIEFAAAAAAAA\nevaluate\ngenmove\nquit\n"
	answers := func(args ...string) string {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(in), &stdout, &stderr); code != 0 {
			t.Fatalf("bgbot %q: exit %d, %s", args, code, stderr.String())
		}
		return stdout.String()
	}
	a, b := answers(), answers("--weights", path)
	if a != b || !strings.Contains(a, "= 0.") {
		t.Errorf("default weights answer\n%s\nthe widened layout-2 file\n%s", a, b)
	}
}
