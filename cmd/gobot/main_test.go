package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/internal/buildtest"
	"github.com/gamemill/gamemill/internal/peertest"
)

var binary string

func TestMain(m *testing.M) {
	buildtest.Main(m, map[string]*string{".": &binary})
}

// session runs gobot in-process on a script of commands and returns the
// responses, one per command.
func session(t *testing.T, args []string, cmds ...string) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	in := strings.NewReader(strings.Join(cmds, "\n") + "\n")
	if st := run(context.Background(), args, in, &out, &errOut); st != 0 {
		t.Fatalf("exit %d: %s", st, errOut.String())
	}
	resp := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	if len(resp) != len(cmds) {
		t.Fatalf("%d responses to %d commands:\n%s", len(resp), len(cmds), out.String())
	}
	return resp
}

func TestRequiredCommands(t *testing.T) {
	r := session(t, []string{"--playouts", "50"}, "list_commands")
	for _, c := range []string{"protocol_version", "name", "version", "known_command", "list_commands", "quit",
		"boardsize", "clear_board", "komi", "play", "genmove", "final_score", "final_status_list",
		"kgs-genmove_cleanup", "time_settings", "time_left", "fixed_handicap", "set_free_handicap", "undo",
		"place_free_handicap", "reg_genmove", "loadsgf", "printsgf", "gogui-analyze_commands", "lz-analyze", "kata-analyze"} {
		if !strings.Contains(r[0]+"\n", "\n"+c+"\n") && !strings.HasPrefix(r[0], "= "+c+"\n") {
			t.Errorf("list_commands lacks %s", c)
		}
	}
}

func TestSession(t *testing.T) {
	r := session(t, []string{"--playouts", "100", "--seed", "3"},
		"boardsize 4", "boardsize 26", "boardsize 5", "boardsize 19", "boardsize 9", "komi 6.5",
		"play b E5", "play w E5", "play b Z9", "genmove w", "undo", "genmove w",
		"time_settings 60 5 1", "time_left w 30 0", "genmove b", "final_status_list dead",
		"final_status_list bogus", "kgs-genmove_cleanup w", "fixed_handicap 2", "clear_board", "fixed_handicap 2", "genmove w")
	want := []string{"? unacceptable size", "? unacceptable size", "=", "=", "=", "=",
		"=", "? illegal move", "? invalid arguments", "= ", "=", "= ",
		"=", "=", "= ", "=", "? invalid arguments", "= ", "? ", "=", "= C3 G7", "= "}
	for i := range want {
		if !strings.HasPrefix(r[i], want[i]) {
			t.Errorf("response %d: %q, want it to start %q", i, r[i], want[i])
		}
	}
	// Each genmove answers a legal vertex of the 9x9 board.
	for _, i := range []int{9, 11, 14, 17, 21} {
		v := strings.TrimPrefix(r[i], "= ")
		if _, err := gogame.ParseVertex(v, 9); err != nil && v != "resign" {
			t.Errorf("response %d: %q is not a vertex: %v", i, r[i], err)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"--playouts", "-1"}, {"--threads", "0"}, {"--resign", "1"}, {"--bogus"}, {"extra"},
		{"--no-patterns", "--patterns", "x"}, {"--time", "NaN"}} {
		var out, errOut bytes.Buffer
		if st := run(context.Background(), args, strings.NewReader(""), &out, &errOut); st != 2 ||
			!strings.HasPrefix(errOut.String(), "gobot: --") && !strings.HasPrefix(errOut.String(), "gobot: unknown flag: --bogus\n") && !strings.HasPrefix(errOut.String(), "gobot: unexpected argument") ||
			!strings.Contains(errOut.String(), "\nusage: gobot [flags]\n") {
			t.Errorf("%v: exit %d, stderr %q; want 2, the error and the usage", args, st, errOut.String())
		}
	}
	var out bytes.Buffer
	if st := run(context.Background(), []string{"--help"}, strings.NewReader(""), &out, io.Discard); st != 0 || !strings.Contains(out.String(), "--playouts") {
		t.Errorf("--help: exit %d, %q", st, out.String())
	}
	var errOut bytes.Buffer
	if st := run(context.Background(), []string{"--patterns", t.TempDir()}, strings.NewReader(""), io.Discard, &errOut); st != 1 || !strings.Contains(errOut.String(), "no *.db pattern files") {
		t.Errorf("--patterns with an empty directory: exit %d, %q", st, errOut.String())
	}
}

// proc is a gobot process spoken to over pipes.
type proc struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
}

func startGobot(t *testing.T, args ...string) *proc {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, binary, args...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return &proc{t, in, bufio.NewReader(out)}
}

// ask sends a command that must succeed and returns the response text.
func (p *proc) ask(cmd string) string {
	p.t.Helper()
	fmt.Fprintln(p.in, cmd)
	var lines []string
	for {
		l, err := p.out.ReadString('\n')
		if err != nil {
			p.t.Fatalf("%s: %v", cmd, err)
		}
		if l == "\n" {
			break
		}
		lines = append(lines, strings.TrimRight(l, "\n"))
	}
	resp := strings.Join(lines, "\n")
	if !strings.HasPrefix(resp, "=") {
		p.t.Fatalf("%s: %s", cmd, resp)
	}
	return strings.TrimSpace(resp[1:])
}

// TestBinaryAnalysis: the program streams lz-analyze until the empty
// line Sabaki sends to stop it, and goes on serving.
func TestBinaryAnalysis(t *testing.T) {
	p := startGobot(t, "--playouts", "50")
	p.ask("boardsize 9")
	fmt.Fprintln(p.in, "lz-analyze B 5")
	for i := 0; i < 2; i++ {
		l, err := p.out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"=\n", "info move "}[i]; !strings.HasPrefix(l, want) {
			t.Fatalf("line %d of the analysis: %q, want %q...", i, l, want)
		}
	}
	fmt.Fprintln(p.in)
	for {
		l, err := p.out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if l == "\n" {
			break
		}
		if !strings.HasPrefix(l, "info move ") {
			t.Fatalf("analysis line %q", l)
		}
	}
	if got := p.ask("name"); got != "gobot" {
		t.Errorf("name: %q", got)
	}
}

// TestBinaryGame plays a whole 9x9 game between two gobot processes over
// pipes, as the ringmaster would, and checks every move with gogame.
func TestBinaryGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game")
	}
	players := [2]*proc{startGobot(t, "--playouts", "150", "--seed", "1"), startGobot(t, "--playouts", "150", "--seed", "2")}
	for _, p := range players {
		p.ask("boardsize 9")
		p.ask("clear_board")
		p.ask("komi 7.5")
	}
	g, _ := gogame.NewGame(gogame.Settings{Size: 9, Komi: 7.5, Superko: true})
	colours := [2]string{"b", "w"}
	for i := 0; i < 200 && !g.Over(); i++ {
		me, other := players[i%2], players[1-i%2]
		v := me.ask("genmove " + colours[i%2])
		if v == "resign" {
			return
		}
		m, err := gogame.ParseVertex(v, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(g.ToPlay(), m); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		other.ask("play " + colours[i%2] + " " + v)
	}
	if !g.Over() {
		t.Fatal("no end in 200 moves")
	}
	a, b := players[0].ask("final_score"), players[1].ask("final_score")
	if a != b {
		t.Logf("the two scorers differ: %s and %s", a, b)
	}
	if a == "" || (a[0] != 'B' && a[0] != 'W' && a != "0") {
		t.Errorf("final_score %q", a)
	}
}

// TestAgainstGnuGo plays a 9x9 game against GNU Go level 1: GNU Go must
// accept every gobot move and gobot every GNU Go move, the game must end,
// and both scorers must name a winner (they are compared in the log).
func TestAgainstGnuGo(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game against GNU Go")
	}
	gnu := peertest.StartGnuGo(t, "--chinese-rules", "--level", "1", "--seed", "3")
	bot := startGobot(t, "--playouts", "300", "--seed", "3", "--resign", "0")
	for _, c := range []string{"boardsize 9", "clear_board", "komi 7.5"} {
		gnu.Must("%s", c)
		bot.ask(c)
	}
	passes := 0
	for i := 0; i < 200 && passes < 2; i++ {
		var v string
		if i%2 == 0 {
			v = bot.ask("genmove b")
			if v == "resign" {
				t.Logf("gobot resigned at move %d", i)
				return
			}
			gnu.Must("play b %s", v)
		} else {
			v = gnu.Must("genmove w")
			if v == "resign" {
				t.Logf("GNU Go resigned at move %d", i)
				return
			}
			bot.ask("play w " + v)
		}
		if strings.EqualFold(v, "pass") {
			passes++
		} else {
			passes = 0
		}
	}
	if passes < 2 {
		t.Fatal("no end in 200 moves")
	}
	ours, theirs := bot.ask("final_score"), gnu.Must("final_score")
	t.Logf("final_score: gobot %s, GNU Go %s; dead: gobot [%s], GNU Go [%s]", ours, theirs,
		bot.ask("final_status_list dead"), gnu.Must("final_status_list dead"))
	for _, s := range []string{ours, theirs} {
		if s == "" || (s[0] != 'B' && s[0] != 'W' && s != "0") {
			t.Errorf("final_score %q", s)
		}
	}
}
