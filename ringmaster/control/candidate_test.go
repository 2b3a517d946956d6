package control_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/contests/tune"
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
			`candidate_colour: must be "first", "second", "alternate" or "random" (or gomill's "b", "w", "black", "white", "r"), not "red"`},
		{"mc key in spsa", "iterations = 10", "iterations = 10\nexploration_coefficient = 1 " + marker, "exploration_coefficient: not allowed in a spsa competition"},
		{"parameter key", "r_end = 0.05", "r_end = 0.05\nsplit = 2 " + marker, "parameters[0].split: unknown key"},
		{"game setting in parameters", "r_end = 0.05", "r_end = 0.05\nmatch_length = 3 " + marker,
			"parameters[0].match_length: not allowed here: a game or matchup setting belongs at the top level"},
		{"move limit in parameters", "r_end = 0.05", "r_end = 0.05\nmove_limit = 300 " + marker,
			"parameters[0].move_limit: not allowed here: a game or matchup setting belongs at the top level"},
		{"seed parameter", `code = "noise"`, `code = "seed" ` + marker, "parameters[0].code: a parameter cannot be coded \"seed\": {seed} is the game's seed"},
		{"no iterations", "iterations = 10", "", "iterations: required"},
		{"sprt", "iterations = 10", "iterations = 10\nsprt = { elo0 = 0, elo1 = 30 } " + marker,
			"sprt: not allowed in a tuning competition: the tuner decides which games to play and when to stop"},
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

// seatsOf plays a tuning competition's proposals to the end, every game
// a draw, and returns whether its candidate sat second in each game, with
// the game's pair.
func seatsOf(t *testing.T, c *control.Competition) (second []bool, pairs []int) {
	t.Helper()
	state, err := c.Proposer.Start()
	if err != nil {
		t.Fatal(err)
	}
	var pending []contest.Proposal
	for n := 0; n < 1000; {
		p, status := state.Next(n)
		switch status {
		case contest.Finish:
			return second, pairs
		case contest.Wait:
			if len(pending) == 0 {
				t.Fatalf("game %d: the tuner waits with no game in flight", n)
			}
			for _, q := range pending {
				if err := state.Record(q, 0.5); err != nil {
					t.Fatal(err)
				}
			}
			pending = nil
			continue
		}
		if err := state.Issued(p); err != nil {
			t.Fatal(err)
		}
		pending = append(pending, p)
		second = append(second, p.ASecond)
		pairs = append(pairs, p.Pair)
		n++
	}
	t.Fatal("the tuner proposed more than 1000 games")
	return nil, nil
}

// TestRandomCandidateColour: candidate_colour = "random" (gomill's, also
// "r") seats the candidate by a draw from the seed and the game's pair:
// both games of a pair alike, both seats over the run, the same draws
// after a restart, another seed other draws.
func TestRandomCandidateColour(t *testing.T) {
	load := func(colour string, seed int) []bool {
		src := strings.Replace(spsaFile, `candidate_colour = "alternate"`, `candidate_colour = "`+colour+`"`, 1)
		src = strings.Replace(src, "seed = 4", fmt.Sprintf("seed = %d", seed), 1)
		src = strings.Replace(src, "iterations = 10", "iterations = 40", 1)
		c, err := parse("t.toml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		second, pairs := seatsOf(t, c)
		if len(second) != 80 {
			t.Fatalf("%d games, want 80 (40 iterations of a pair)", len(second))
		}
		for i := range second {
			if pairs[i] < 0 || second[i] != tune.RandomSecond(int64(seed), pairs[i]) {
				t.Fatalf("game %d (pair %d): second %v, want the draw for its pair", i, pairs[i], second[i])
			}
			if i%2 == 1 && (pairs[i] != pairs[i-1] || second[i] != second[i-1]) {
				t.Errorf("games %d and %d of one pair seat the candidate apart", i-1, i)
			}
		}
		return second
	}
	a := load("random", 4)
	firsts, alternating := 0, true
	for i, s := range a {
		if !s {
			firsts++
		}
		if s != ((i/2)%2 == 1) {
			alternating = false
		}
	}
	if firsts < 20 || firsts > 60 || alternating {
		t.Errorf("random seats: %d of 80 first, alternating %v; want both seats, not alternating", firsts, alternating)
	}
	if b := load("r", 4); !slices.Equal(a, b) {
		t.Error(`"r" draws other seats than "random" under the same seed`)
	}
	if b := load("random", 4); !slices.Equal(a, b) {
		t.Error("a second start draws other seats")
	}
	if b := load("random", 5); slices.Equal(a, b) {
		t.Error("seeds 4 and 5 draw the same seats")
	}
}

// TestPlayerFromCanonical: a player rebuilt from its canonical definition
// (what a job and the store carry) is the player that was defined, every
// field kept; a changed field is named; a damaged text is refused.
func TestPlayerFromCanonical(t *testing.T) {
	src := `competition_type = "playoff"
game = "backgammon"
number_of_games = 2

[players.a]
command = ["./engine", "--depth", "3"]
cwd = "."
environ = { LEVEL = "3", SEED = "{seed}" }
startup_commands = ["set x 1"]
stderr_limit = 1000
timeout = 2.5
gtp_aliases = { genmove = "kgs-genmove" }
restart = "on_error"

[players.g]
kind = "gnubg"
plies = 2
noise = 0.25

[[matchups]]
players = ["a", "g"]
`
	c, err := parse("t.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for code, p := range c.Players {
		def := p.Canonical()
		back, err := control.PlayerFromCanonical(def)
		if err != nil {
			t.Fatalf("player %s: %v", code, err)
		}
		if got := back.Canonical(); got != def {
			t.Errorf("player %s rebuilt as\n%s\nwant\n%s", code, got, def)
		}
		if back.Timeout != p.Timeout || back.Environ["SEED"] != p.Environ["SEED"] || back.Plies != p.Plies {
			t.Errorf("player %s rebuilt as %+v, want %+v", code, back, p)
		}
	}
	changed := *c.Players["a"]
	changed.Command = []string{"./engine", "--depth", "4"}
	changed.Timeout *= 2
	if got := control.ChangedKeys(c.Players["a"].Canonical(), changed.Canonical()); !slices.Equal(got, []string{"Command", "Timeout"}) {
		t.Errorf("changed keys %q, want Command and Timeout", got)
	}
	if got := control.ChangedKeys(c.Players["a"].Canonical(), c.Players["a"].Canonical()); got != nil {
		t.Errorf("changed keys of the same definition: %q", got)
	}
	for _, bad := range []string{"", "{", `{"Code":"a"}`, `{"Code":"a","Kind":"protocol","Colour":"red"}`} {
		if _, err := control.PlayerFromCanonical(bad); err == nil {
			t.Errorf("definition %q accepted", bad)
		}
	}
}
