package control_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/control"
)

// spsaFile is a valid spsa competition; the tests change one line each.
const spsaFile = `competition_type = "spsa"
game = "backgammon"
seed = 4
opponent = "net"
iterations = 10
candidate_colour = "alternate"

[players.net]
kind = "builtin"
args = ["--level", "net"]

[candidate]
kind = "builtin"
args = ["--level", "net", "--noise", "{noise}", "--seed", "{seed}"]
startup_commands = ["set noise {noise}"]

[[parameters]]
code = "noise"
start = 0.25
min = 0.0
max = 1.0
c_end = 0.1
r_end = 0.05
`

// TestTunerErrorsNameTheKey checks that a tuning competition's mistakes
// are reported at the file, line and key they are on: the common keys, a
// placeholder naming no parameter, and a problem the tuner itself finds
// in a parameter table.
func TestTunerErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"unknown placeholder", `"{noise}", "--seed", "{seed}"]`, `"{nosie}", "--seed", "{seed}"] ` + marker, `candidate.args[3]: unknown placeholder {nosie} (the parameters are noise)`},
		{"start outside", "start = 0.25", "start = 1.5 " + marker, "parameters[0].start: must be within [min, max]"},
		{"c_end", "c_end = 0.1", "c_end = 0.0 " + marker, "parameters[0].c_end: must be greater than 0"},
		{"no opponent", `opponent = "net"`, "", "opponent: required: the code of the player the candidates meet"},
		{"unknown opponent", `opponent = "net"`, `opponent = "nett" ` + marker, `opponent: unknown player "nett"`},
		{"colour", `candidate_colour = "alternate"`, `candidate_colour = "red" ` + marker,
			`candidate_colour: must be "first", "second" or "alternate" (or gomill's "b", "w", "black", "white"), not "red"`},
		{"mc key in spsa", "iterations = 10", "iterations = 10\nexploration_coefficient = 1 " + marker, "exploration_coefficient: not allowed in a spsa competition"},
		{"parameter key", "r_end = 0.05", "r_end = 0.05\nsplit = 2 " + marker, "parameters[0].split: unknown key"},
		{"seed parameter", `code = "noise"`, `code = "seed" ` + marker, "parameters[0].code: a parameter cannot be coded \"seed\": {seed} is the game's seed"},
		{"no iterations", "iterations = 10", "", "iterations: required"},
		{"no candidate", "[candidate]", "[candidate_]", "candidate: required: a player definition whose strings hold {code} placeholders for the parameters"},
		{"mode", "iterations = 10", "iterations = 10\nmode = \"pairs\" " + marker, `mode: must be "pair" or "opponent", not "pairs"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(spsaFile, tt.old, tt.new, 1)
			want := "t.toml: " + tt.want
			if line := wantLine(src); line > 0 {
				want = fmt.Sprintf("t.toml:%d: %s", line, tt.want)
			}
			_, err := parse("t.toml", []byte(src))
			var list control.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v, want a list naming %s", err, want)
			}
			for _, e := range list {
				if e.Error() == want {
					return
				}
			}
			t.Errorf("errors:\n%v\nwant one to be:\n%s", err, want)
		})
	}
}

// TestCandidateFillsPlaceholders makes a candidate's player from the
// template: every placeholder filled, the template itself unchanged.
func TestCandidateFillsPlaceholders(t *testing.T) {
	c, err := parse("t.toml", []byte(spsaFile))
	if err != nil {
		t.Fatal(err)
	}
	if c.Proposer == nil || len(c.Matchups) != 0 {
		t.Fatalf("proposer %v, matchups %v: want a proposer and no matchups", c.Proposer, c.Matchups)
	}
	p, err := c.Candidate("i3+", map[string]string{"noise": "0.3"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Args, " "); got != "--level net --noise 0.3 --seed {seed}" || p.Code != "i3+" {
		t.Errorf("candidate %s args %q, want i3+ with --level net --noise 0.3 --seed {seed} (the game's seed, filled at launch)", p.Code, got)
	}
	if got := strings.Join(p.StartupCommands, ";"); got != "set noise 0.3" {
		t.Errorf("startup commands %q, want set noise 0.3", got)
	}
	q, err := c.Candidate("i3-", map[string]string{"noise": "0.2"})
	if err != nil {
		t.Fatal(err)
	}
	if q.Args[3] != "0.2" || p.Args[3] != "0.3" {
		t.Errorf("candidates share their arguments: %q and %q", p.Args, q.Args)
	}
	if p.Canonical() == q.Canonical() {
		t.Error("two candidates with different parameters have the same canonical definition")
	}
	if _, err := c.Candidate("x", map[string]string{"other": "1"}); err == nil {
		t.Error("a candidate without a value for {noise} was made")
	}
}
