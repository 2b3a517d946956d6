package control_test

import (
	"errors"
	"fmt"
	"github.com/gamemill/gamemill/ringmaster/contests/allplayall"
	"github.com/gamemill/gamemill/ringmaster/contests/playoff"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/player"

	"github.com/gamemill/gamemill/competitions"
	. "github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
)

// parse and load read a control file for the game the tests use.
func parse(name string, data []byte) (*Competition, error) {
	return Parse(name, data, backgammon.New())
}
func load(path string) (*Competition, error) { return Load(path, backgammon.New()) }

// playoffHead is a valid playoff without matchups.
const playoffHead = `competition_type = "playoff"
game = "backgammon"
number_of_games = 10

[players.a]
command = "a.out"

[players.b]
command = ["b", "--x"]
`

// allPlayAllHead is a valid all-play-all without competitors or rounds.
const allPlayAllHead = `competition_type = "allplayall"
game = "backgammon"

[players.a]
command = "a.out"

[players.b]
command = "b"

[players.c]
command = "c"
`

const oneMatchup = `
[[matchups]]
players = ["a", "b"]
`

// withTop returns playoffHead with lines added at top level.
func withTop(lines string) string {
	return strings.Replace(playoffHead, "number_of_games = 10\n", "number_of_games = 10\n"+lines+"\n", 1)
}

// marker ends the line an expected error should name.
const marker = "#<"

// wantLine returns the 1-based line holding the last marker, or 0.
func wantLine(src string) int {
	n := 0
	for i, line := range strings.Split(src, "\n") {
		if strings.Contains(line, marker) {
			n = i + 1
		}
	}
	return n
}

func TestParseErrors(t *testing.T) {
	po := func(s string) string { return playoffHead + s }
	pm := func(s string) string { return playoffHead + oneMatchup + s }
	apa := func(s string) string { return allPlayAllHead + s }
	player := func(s string) string { return pm("\n[players.c] " + marker + "\n" + s + "\n") }
	noNumber := strings.Replace(playoffHead, "number_of_games = 10\n", "", 1)

	tests := []struct {
		name string
		src  string
		want string // "key: message"; the file and the marked line are added
	}{
		// Syntax.
		{"syntax", "x = = 1 " + marker + "\n" + pm(""), "x: expected value but found '=' instead"},
		{"duplicate key", "seed = 1\nseed = 2 " + marker + "\n" + pm(""), "seed: Key 'seed' has already been defined."},

		// Top level.
		{"no type", strings.Replace(pm(""), `competition_type = "playoff"`, "", 1), `competition_type: required ("playoff", "allplayall", "gauntlet", "knockout", "mc_tuner", "ce_tuner" or "spsa")`},
		{"bad type", strings.Replace(pm(""), `"playoff"`, `"swiss" `+marker, 1), `competition_type: unknown competition type "swiss" (want "playoff", "allplayall", "gauntlet", "knockout", "mc_tuner", "ce_tuner" or "spsa")`},
		{"type not string", strings.Replace(pm(""), `"playoff"`, `3 `+marker, 1), `competition_type: must be a string, not an integer`},
		{"no game", strings.Replace(pm(""), `game = "backgammon"`, "", 1), `game: required ("backgammon")`},
		{"go", strings.Replace(pm(""), `"backgammon"`, `"go" `+marker, 1), `game: unknown game "go" (want "backgammon")`},
		{"chess", strings.Replace(pm(""), `"backgammon"`, `"chess" `+marker, 1), `game: unknown game "chess" (want "backgammon")`},
		{"unknown top key", "frobnicate = 1 " + marker + "\n" + pm(""), "frobnicate: unknown key"},
		{"rounds in playoff", "rounds = 2 " + marker + "\n" + pm(""), "rounds: not allowed in a playoff competition"},
		{"competitors in playoff", "competitors = [] " + marker + "\n" + pm(""), "competitors: not allowed in a playoff competition"},
		{"seed", "seed = \"x\" " + marker + "\n" + pm(""), "seed: must be an integer, not a string"},
		{"seed float", "seed = 1.5 " + marker + "\n" + pm(""), "seed: must be an integer, not a float"},
		{"description", "description = 1 " + marker + "\n" + pm(""), "description: must be a string, not an integer"},
		{"record_games", "record_games = \"yes\" " + marker + "\n" + pm(""), "record_games: must be true or false, not a string"},
		{"date", "seed = 1979-05-27 " + marker + "\n" + pm(""), "seed: must be an integer, not a date-time"},

		// Players.
		{"no players", "competition_type = \"playoff\"\ngame = \"backgammon\"\nnumber_of_games = 2\n" + oneMatchup,
			"players: required: define players in [players.CODE] tables"},
		{"players not table", "competition_type = \"playoff\"\ngame = \"backgammon\"\nnumber_of_games = 2\nplayers = 3 " + marker + "\n" + oneMatchup, "players: must be a table, not an integer"},
		{"empty players", "competition_type = \"playoff\"\ngame = \"backgammon\"\nnumber_of_games = 2\nplayers = {} " + marker + "\n" + oneMatchup, "players: no players defined"},
		{"bad code", pm("[players.\"a b\"] " + marker + "\ncommand = \"x\"\n"), `players."a b": invalid player code "a b": use at most 64 letters, digits and -!$%&*+.:;<=>?^_~`},
		{"player not table", strings.Replace(pm(""), "[players.a]", "[players]\nc = 3 "+marker+"\n[players.a]", 1), "players.c: must be a table, not an integer"},
		{"no command", player("cwd = \"/\""), `players.c.command: required for a player of kind "protocol"`},
		{"unknown kind", player("kind = \"remote\" " + marker), `players.c.kind: unknown player kind "remote" (want "protocol", "builtin", "gnubg" or "agent")`},
		{"kind not string", player("kind = 1 " + marker), `players.c.kind: must be a string, not an integer`},
		{"builtin command", player("kind = \"builtin\"\ncommand = \"x\" " + marker), `players.c.command: not allowed for a player of kind "builtin"`},
		{"builtin cwd", player("kind = \"builtin\"\ncwd = \"x\" " + marker), `players.c.cwd: not allowed for a player of kind "builtin"`},
		{"builtin environ", player("kind = \"builtin\"\nenviron = {} " + marker), `players.c.environ: not allowed for a player of kind "builtin"`},
		{"builtin plies", player("kind = \"builtin\"\nplies = 1 " + marker), `players.c.plies: not allowed for a player of kind "builtin"`},
		{"protocol plies", player("command = \"x\"\nplies = 1 " + marker), `players.c.plies: not allowed for a player of kind "protocol"`},
		{"protocol args", player("command = \"x\"\nargs = [] " + marker), `players.c.args: not allowed for a player of kind "protocol"`},
		{"gnubg args", player("kind = \"gnubg\"\nargs = [] " + marker), `players.c.args: not allowed for a player of kind "gnubg"`},
		{"gnubg startup", player("kind = \"gnubg\"\nstartup_commands = [] " + marker), `players.c.startup_commands: not allowed for a player of kind "gnubg"`},
		{"unknown player key", player("command = \"x\"\ncolour = 1 " + marker), "players.c.colour: unknown key"},
		{"empty command", player("command = \"  \" " + marker), "players.c.command: empty command"},
		{"empty command list", player("command = [] " + marker), "players.c.command: empty command"},
		{"empty program", player("command = [\"\", \"x\"] " + marker), "players.c.command: empty program name"},
		{"unterminated quote", player("command = \"x 'y\" " + marker), "players.c.command: split command: unterminated single quote at offset 2 in \"x 'y\""},
		{"command not strings", player("command = [\"x\",\n  2] " + marker), "players.c.command[1]: must be a string, not an integer"},
		{"command table", player("command = {x = 1} " + marker), "players.c.command: must be an array of strings, not a table"},
		{"empty cwd", player("command = \"x\"\ncwd = \"\" " + marker), "players.c.cwd: empty directory"},
		{"environ value", player("command = \"x\"\nenviron = {A = 1} " + marker), "players.c.environ.A: must be a string, not an integer"},
		{"environ name", player("command = \"x\"\n[players.c.environ]\n\"A=B\" = \"x\" " + marker), `players.c.environ."A=B": invalid environment variable name`},
		{"environ not table", player("command = \"x\"\nenviron = [] " + marker), "players.c.environ: must be a table, not an array"},
		{"startup empty", player("command = \"x\"\nstartup_commands = [\"ok\", \"\"] " + marker), "players.c.startup_commands[1]: empty command"},
		{"startup newline", player("command = \"x\"\nstartup_commands = [\"a\\nb\"] " + marker), "players.c.startup_commands[0]: command contains a line break"},
		{"startup string", player("command = \"x\"\nstartup_commands = \"x\" " + marker), "players.c.startup_commands: must be an array of strings, not a string"},
		{"discard_stderr", player("command = \"x\"\ndiscard_stderr = 1 " + marker), "players.c.discard_stderr: must be true or false, not an integer"},
		{"timeout word", player("command = \"x\"\ntimeout = \"fast\" " + marker), `players.c.timeout: must be a duration such as "30s" or a number of seconds, got "fast"`},
		{"timeout negative", player("command = \"x\"\ntimeout = -1 " + marker), "players.c.timeout: must be positive and at most 8760h0m0s, got -1"},
		{"timeout zero", player("command = \"x\"\ntimeout = \"0s\" " + marker), "players.c.timeout: must be positive and at most 8760h0m0s, got 0s"},
		{"timeout nan", player("command = \"x\"\ntimeout = nan " + marker), "players.c.timeout: must be positive and at most 8760h0m0s, got NaN"},
		{"timeout huge", player("command = \"x\"\ntimeout = 1e300 " + marker), "players.c.timeout: must be positive and at most 8760h0m0s, got 1e+300"},
		{"timeout bool", player("command = \"x\"\ntimeout = true " + marker), `players.c.timeout: must be a duration such as "30s" or a number of seconds, not a boolean`},
		{"plies negative", player("kind = \"gnubg\"\nplies = -1 " + marker), "players.c.plies: must be between 0 and 100, got -1"},
		{"noise negative", player("kind = \"gnubg\"\nnoise = -0.5 " + marker), "players.c.noise: must be a non-negative number, got -0.5"},
		{"noise string", player("kind = \"gnubg\"\nnoise = \"x\" " + marker), "players.c.noise: must be a number, not a string"},
		{"args string", player("kind = \"builtin\"\nargs = \"--x\" " + marker), "players.c.args: must be an array of strings, not a string"},

		// Playoff matchups.
		{"no matchups", po(""), "matchups: required: a playoff needs at least one [[matchups]] entry"},
		{"empty matchups", "matchups = [] " + marker + "\n" + po(""), "matchups: empty list: a playoff needs at least one matchup"},
		{"matchups not list", "matchups = 3 " + marker + "\n" + po(""), "matchups: must be an array of tables, not an integer"},
		{"matchup not table", "matchups = [{players = [\"a\", \"b\"]},\n 3] " + marker + "\n" + po(""), "matchups[1]: must be a table, not an integer"},
		{"no matchup players", po("[[matchups]] " + marker + "\nid = \"x\"\n"), "matchups[0].players: required: a list of two player codes"},
		{"one player", po("[[matchups]]\nplayers = [\"a\"] " + marker), "matchups[0].players: must list two player codes, got 1"},
		{"unknown player", pm("[[matchups]]\nplayers = [\"a\", \"x\"] " + marker), `matchups[1].players: unknown player "x"`},
		{"unknown player inline", "matchups = [\n  {players = [\"a\", \"b\"]},\n  {players = [\"x\", \"b\"]}, " + marker + "\n]\n" + po(""), `matchups[1].players: unknown player "x"`},
		{"duplicate id", po("[[matchups]]\nplayers = [\"a\", \"b\"]\nid = \"m\"\n[[matchups]]\nplayers = [\"a\", \"b\"]\nid = \"m\" " + marker), `matchups[1].id: duplicate matchup id "m" (also used by matchups[0])`},
		{"duplicate default id", po("[[matchups]]\nplayers = [\"a\", \"b\"]\nid = \"1\"\n[[matchups]] " + marker + "\nplayers = [\"a\", \"b\"]\n"), `matchups[1].id: duplicate matchup id "1" (also used by matchups[0])`},
		{"bad id", pm("[[matchups]]\nplayers = [\"a\", \"b\"]\nid = \"x y\" " + marker), `matchups[1].id: invalid matchup id "x y": use at most 64 letters, digits and -!$%&*+.:;<=>?^_~`},
		{"id not string", pm("[[matchups]]\nplayers = [\"a\", \"b\"]\nid = 3 " + marker), "matchups[1].id: must be a string, not an integer"},
		{"name not string", pm("[[matchups]]\nplayers = [\"a\", \"b\"]\nname = 3 " + marker), "matchups[1].name: must be a string, not an integer"},
		{"no number of games", noNumber + "\n[[matchups]] " + marker + "\nplayers = [\"a\", \"b\"]\n", "matchups[0].number_of_games: required: set it here or at top level"},
		{"negative games", pm("[[matchups]]\nplayers = [\"a\", \"b\"]\nnumber_of_games = -1 " + marker), "matchups[1].number_of_games: must be between 0 and 1000000000, got -1"},
		{"negative default games", strings.Replace(pm(""), "number_of_games = 10", "number_of_games = -2 "+marker, 1), "number_of_games: must be between 0 and 1000000000, got -2"},
		{"alternating", pm("[[matchups]]\nplayers = [\"a\", \"b\"]\nalternating = \"x\" " + marker), "matchups[1].alternating: must be true or false, not a string"},
		{"unknown matchup key", pm("[[matchups]]\nplayers = [\"a\", \"b\"]\nkomi = 7.5 " + marker), "matchups[1].komi: unknown key"},
		{"paired odd", pm("[[matchups]]\nplayers = [\"a\", \"b\"]\ndice = \"paired\"\nnumber_of_games = 7 " + marker), "matchups[1].number_of_games: paired games need an even number of games, got 7"},
		{"paired odd default", "dice = \"paired\"\n" + strings.Replace(playoffHead, "number_of_games = 10", "number_of_games = 5", 1) + "[[matchups]] " + marker + "\nplayers = [\"a\", \"b\"]\n[[matchups]]\nplayers = [\"a\", \"b\"]\nnumber_of_games = 4\n", "matchups[0].number_of_games: paired games need an even number of games, got 5"},

		// Game settings.
		{"match_length", pm("match_length = -1 " + marker), "matchups[0].match_length: must be between 0 and 1000, got -1"},
		{"top match_length", "match_length = \"7\" " + marker + "\n" + pm(""), "match_length: must be an integer, not a string"},
		{"max_moves", pm("max_moves = 0 " + marker), "matchups[0].max_moves: must be between 1 and 1000000, got 0"},
		{"variant", pm("variant = \"acey-deucey\" " + marker), `matchups[0].variant: unknown variant "acey-deucey" (want "standard", "nackgammon", "hypergammon1", "hypergammon2" or "hypergammon3")`},
		{"dice", pm("dice = \"loaded\" " + marker), `matchups[0].dice: unknown dice mode "loaded" (want "independent" or "paired")`},
		{"cube", pm("cube = \"no\" " + marker), "matchups[0].cube: must be true or false, not a string"},
		{"crawford", "crawford = 1 " + marker + "\n" + pm(""), "crawford: must be true or false, not an integer"},
		{"jacoby", pm("jacoby = 1 " + marker), "matchups[0].jacoby: must be true or false, not an integer"},
		{"beavers", pm("beavers = 1 " + marker), "matchups[0].beavers: must be true or false, not an integer"},
		{"skip_forced", pm("skip_forced = 1 " + marker), "matchups[0].skip_forced: must be true or false, not an integer"},
		{"max_cube range", pm("max_cube = 65536 " + marker), "matchups[0].max_cube: must be between 0 and 16384, got 65536"},
		{"max_cube power", pm("max_cube = 48 " + marker), "matchups[0].max_cube: 48 is not a power of two from 2 to 16384"},
		{"max_cube match", pm("match_length = 5\nmax_cube = 8 " + marker), "matchups[0].max_cube: applies to money games only (match_length is 5)"},
		{"max_cube cubeless", pm("cube = false\nmax_cube = 8 " + marker), "matchups[0].max_cube: needs the cube (cube = false)"},

		// All-play-all.
		{"no competitors", apa("rounds = 2\n"), "competitors: required: a list of player codes"},
		{"empty competitors", "competitors = [] " + marker + "\nrounds = 2\n" + apa(""), "competitors: an all-play-all needs at least two competitors, got 0"},
		{"competitors string", "competitors = \"a\" " + marker + "\nrounds = 2\n" + apa(""), "competitors: must be an array of strings, not a string"},
		{"unknown competitor", "competitors = [\"a\",\n \"x\"] " + marker + "\nrounds = 2\n" + apa(""), `competitors[1]: unknown player "x"`},
		{"duplicate competitor", "competitors = [\"a\", \"b\",\n \"a\"] " + marker + "\nrounds = 2\n" + apa(""), `competitors[2]: duplicate competitor "a"`},
		{"no rounds", "competitors = [\"a\", \"b\"]\n" + apa(""), "rounds: required: the number of games for each pair of competitors"},
		{"negative rounds", "competitors = [\"a\", \"b\"]\nrounds = -2 " + marker + "\n" + apa(""), "rounds: must be between 0 and 1000000000, got -2"},
		{"paired odd rounds", "dice = \"paired\"\ncompetitors = [\"a\", \"b\"]\nrounds = 3 " + marker + "\n" + apa(""), "rounds: paired games need an even number of rounds, got 3"},
		{"matchups in allplayall", "competitors = [\"a\", \"b\"]\nrounds = 2\n" + apa(oneMatchup[:1]+"[[matchups]] "+marker+oneMatchup[13:]), "matchups: not allowed in an allplayall competition"},
		{"number_of_games in allplayall", "number_of_games = 2 " + marker + "\ncompetitors = [\"a\", \"b\"]\nrounds = 2\n" + apa(""), "number_of_games: not allowed in an allplayall competition"},
		{"alternating in allplayall", "alternating = true " + marker + "\ncompetitors = [\"a\", \"b\"]\nrounds = 2\n" + apa(""), "alternating: not allowed in an allplayall competition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := "t.toml: " + tt.want
			if line := wantLine(tt.src); line > 0 {
				want = fmt.Sprintf("t.toml:%d: %s", line, tt.want)
			}
			c, err := parse("t.toml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; got %+v\nsource:\n%s", c, tt.src)
			}
			if c != nil {
				t.Errorf("got a competition with an error")
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error is %T, not ErrorList", err)
			}
			for _, e := range list {
				if e.Error() == want {
					return
				}
			}
			t.Errorf("errors:\n%v\nwant one to be:\n%s\nsource:\n%s", err, want, tt.src)
		})
	}
}

func TestParseCollectsErrors(t *testing.T) {
	src := `competition_type = "playoff"
game = "backgammon"
number_of_games = 4
colour = "red"

[players.a]
command = "a"
timeout = "soon"

[players.b]
kind = "builtin"
cwd = "/"

[[matchups]]
players = ["a", "x"]
variant = "plakoto"
`
	_, err := parse("dir/many.toml", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	want := []string{
		`dir/many.toml:4: colour: unknown key`,
		`dir/many.toml:8: players.a.timeout: must be a duration such as "30s" or a number of seconds, got "soon"`,
		`dir/many.toml:12: players.b.cwd: not allowed for a player of kind "builtin"`,
		`dir/many.toml:15: matchups[0].players: unknown player "x"`,
		`dir/many.toml:16: matchups[0].variant: unknown variant "plakoto" (want "standard", "nackgammon", "hypergammon1", "hypergammon2" or "hypergammon3")`,
	}
	if got := strings.Split(err.Error(), "\n"); !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var one *Error
	if !errors.As(err, &one) || one.Line != 4 || one.Key != "colour" || one.File != "dir/many.toml" {
		t.Errorf("errors.As gave %+v", one)
	}
}

const fullExample = `# A complete playoff.
competition_type = "playoff"
game = "backgammon"
description = """
  Net against gnubg.
"""
seed = 42
record_games = false
number_of_games = 100
alternating = true
match_length = 7
crawford = false
max_moves = 500
dice = "paired"

[players.net]
kind = "builtin"
args = ["--level", "net", "--plies", "0"]
startup_commands = ["set_option x 1"]
timeout = "1m30s"

[players.gnubg0]
kind = "gnubg"
plies = 2
noise = 0.05
timeout = 5

[players.gnubg-custom]
kind = "gnubg"
command = "/opt/gnubg/bin/gnubg -t"
noise = 1

[players.eng]
command = "./bin/engine --depth 'two words' \"x y\""
cwd = "work"
environ = { LC_ALL = "C", "SEED" = "7" }
startup_commands = ["name", "version"]
discard_stderr = true
stderr_limit = 5000
timeout = 2.5

[players."x.y"]
command = ["bgbot", "--level", "x"]
cwd = "/"

[[matchups]]
players = ["net", "gnubg0"]

[[matchups]]
id = "cubeless"
name = "  cubeless money  "
players = ["eng", "x.y"]
number_of_games = 10
alternating = false
match_length = 0
cube = false
jacoby = false
beavers = true
variant = "nackgammon"
dice = "independent"
skip_forced = false

[[matchups]]
players = ["net", "net"]
number_of_games = 0
max_moves = 1
variant = "hypergammon3"
`

func TestParseFullExample(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "full.ctl")
	if err := os.WriteFile(path, []byte(fullExample), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := load(path)
	if err != nil {
		t.Fatal(err)
	}
	top := &backgammon.Settings{MatchLength: 7, Crawford: false, Jacoby: true, Beavers: false, Cube: true,
		Variant: "standard", Dice: "paired", SkipForced: true}
	hyper := *top
	hyper.Variant = "hypergammon3"
	net := &Player{Code: "net", Kind: KindBuiltin, Timeout: 90 * time.Second, StderrLimit: DefaultStderrLimit, ReliableScorer: true,
		Args: []string{"--level", "net", "--plies", "0"}, StartupCommands: []string{"set_option x 1"}}
	net2 := *net
	net2.Code = "net#2"
	want := &Competition{
		Path:        path,
		Code:        "full",
		Dir:         dir,
		Type:        "playoff",
		Contest:     playoff.Type{},
		Game:        "backgammon",
		Warnings:    c.Warnings,
		KeyLines:    c.KeyLines,
		Description: "Net against gnubg.",
		Seed:        42,
		RecordGames: false,
		Players: map[string]*Player{
			"net":    net,
			"net#2":  &net2,
			"gnubg0": {Code: "gnubg0", Kind: KindGnubg, Plies: 2, Noise: 0.05, Timeout: 5 * time.Second, StderrLimit: DefaultStderrLimit, ReliableScorer: true},
			"gnubg-custom": {Code: "gnubg-custom", Kind: KindGnubg, Noise: 1, Timeout: DefaultTimeout, StderrLimit: DefaultStderrLimit, ReliableScorer: true,
				Command: []string{"/opt/gnubg/bin/gnubg", "-t"}},
			"eng": {Code: "eng", Kind: KindProtocol,
				Command:         []string{filepath.Join(dir, "bin/engine"), "--depth", "two words", "x y"},
				Cwd:             filepath.Join(dir, "work"),
				Environ:         map[string]string{"LC_ALL": "C", "SEED": "7"},
				StartupCommands: []string{"name", "version"},
				DiscardStderr:   true,
				StderrLimit:     5000,
				ReliableScorer:  true,
				Timeout:         2500 * time.Millisecond},
			"x.y": {Code: "x.y", Kind: KindProtocol, Command: []string{"bgbot", "--level", "x"}, Cwd: "/", Timeout: DefaultTimeout, StderrLimit: DefaultStderrLimit, ReliableScorer: true},
		},
		Matchups: []*Matchup{
			{Path: "matchups[0]", ID: "0", Name: "net v gnubg0", PlayerA: "net", PlayerB: "gnubg0", NumberOfGames: 100, Alternating: true, MoveLimit: 500, Settings: top},
			{Path: "matchups[1]", ID: "cubeless", Name: "cubeless money", PlayerA: "eng", PlayerB: "x.y", NumberOfGames: 10, Alternating: false, MoveLimit: 500,
				Settings: &backgammon.Settings{MatchLength: 0, Crawford: false, Jacoby: false, Beavers: true, Cube: false,
					Variant: "nackgammon", Dice: "independent", SkipForced: false}},
			{Path: "matchups[2]", ID: "2", Name: "net v net#2", PlayerA: "net", PlayerB: "net#2", NumberOfGames: 0, Alternating: true, MoveLimit: 1,
				Settings: &hyper},
		},
	}
	for _, p := range want.Players {
		p.Restart = RestartPerGame // every player's default
	}
	if !reflect.DeepEqual(c, want) {
		for code, p := range c.Players {
			if !reflect.DeepEqual(p, want.Players[code]) {
				t.Errorf("player %s:\n got %+v\nwant %+v", code, p, want.Players[code])
			}
		}
		for i, m := range c.Matchups {
			if i < len(want.Matchups) && !reflect.DeepEqual(m, want.Matchups[i]) {
				t.Errorf("matchup %d:\n got %+v\nwant %+v", i, m, want.Matchups[i])
			}
		}
		c.Players, c.Matchups, want.Players, want.Matchups = nil, nil, nil, nil
		if !reflect.DeepEqual(c, want) {
			t.Errorf("competition:\n got %+v\nwant %+v", c, want)
		}
	}

	plans := c.Plans()
	wantPlans := []competitions.MatchupPlan{
		{ID: "0", PlayerA: "net", PlayerB: "gnubg0", NumberOfGames: 100, Alternating: true, Paired: true},
		{ID: "cubeless", PlayerA: "eng", PlayerB: "x.y", NumberOfGames: 10},
		{ID: "2", PlayerA: "net", PlayerB: "net#2", NumberOfGames: 0, Alternating: true, Paired: true},
	}
	if !reflect.DeepEqual(plans, wantPlans) {
		t.Errorf("Plans() = %+v\nwant %+v", plans, wantPlans)
	}
	if _, err := competitions.NewScheduler(c.Seed, plans, nil, nil); err != nil {
		t.Errorf("NewScheduler: %v", err)
	}
}

func TestParseDefaults(t *testing.T) {
	c, err := parse("/x/min.toml", []byte(playoffHead+oneMatchup))
	if err != nil {
		t.Fatal(err)
	}
	if c.Seed != 0 || !c.RecordGames || c.Description != "" || c.Code != "min" || c.Dir != "/x" {
		t.Errorf("competition defaults: %+v", c)
	}
	m := c.Matchups[0]
	if m.ID != "0" || m.Name != "a v b" || m.Alternating || m.NumberOfGames != 10 || m.MoveLimit != 1000 || m.SPRT != nil ||
		!reflect.DeepEqual(m.Settings, backgammon.DefaultSettings()) {
		t.Errorf("matchup defaults: %+v", m)
	}
	want := &backgammon.Settings{MatchLength: 0, Crawford: true, Jacoby: true, Beavers: false, Cube: true,
		Variant: "standard", Dice: "independent", SkipForced: true}
	if !reflect.DeepEqual(backgammon.DefaultSettings(), want) {
		t.Errorf("DefaultSettings() = %+v", backgammon.DefaultSettings())
	}
	a := c.Players["a"]
	if a.Kind != KindProtocol || a.Timeout != 60*time.Second || !slices.Equal(a.Command, []string{"a.out"}) || a.Cwd != "" {
		t.Errorf("player defaults: %+v", a)
	}
	if len(c.Players) != 2 {
		t.Errorf("players: %v", c.Players)
	}
}

func TestAllPlayAll(t *testing.T) {
	src := `competition_type = "allplayall"
game = "backgammon"
competitors = ["t1", "t2", "t3", "t4"]
rounds = 6
match_length = 3
dice = "paired"

[players.t1]
command = "e1"
[players.t2]
command = "e2"
[players.t3]
command = "e3"
[players.t4]
command = "e4"
[players.unused]
command = "e5"
`
	c, err := parse("apa.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Competitors, []string{"t1", "t2", "t3", "t4"}) {
		t.Errorf("competitors %v", c.Competitors)
	}
	settings := backgammon.DefaultSettings()
	settings.MatchLength = 3
	settings.Dice = backgammon.DicePaired
	var got []string
	for _, m := range c.Matchups {
		got = append(got, fmt.Sprintf("%s:%s:%s:%s", m.ID, m.Name, m.PlayerA, m.PlayerB))
		if m.NumberOfGames != 6 || !m.Alternating || !reflect.DeepEqual(m.Settings, settings) {
			t.Errorf("matchup %s: %+v", m.ID, m)
		}
	}
	want := []string{
		"AvB:t1 v t2:t1:t2", "AvC:t1 v t3:t1:t3", "AvD:t1 v t4:t1:t4",
		"BvC:t2 v t3:t2:t3", "BvD:t2 v t4:t2:t4", "CvD:t3 v t4:t3:t4",
	}
	if !slices.Equal(got, want) {
		t.Errorf("matchups:\n%v\nwant\n%v", got, want)
	}
	if id := competitions.GameID(c.Matchups[0].ID, c.Matchups[0].NumberOfGames, 4); id != "AvB_4" {
		t.Errorf("game id %s", id)
	}
}

func TestTooManyCompetitors(t *testing.T) {
	var b strings.Builder
	b.WriteString("competition_type = \"allplayall\"\ngame = \"backgammon\"\nrounds = 1\ncompetitors = [")
	for i := range allplayall.MaxCompetitors + 1 {
		fmt.Fprintf(&b, "\"p%d\",", i)
	}
	b.WriteString("]\n")
	for i := range allplayall.MaxCompetitors + 1 {
		fmt.Fprintf(&b, "[players.p%d]\ncommand = \"x\"\n", i)
	}
	_, err := parse("big.toml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "big.toml:4: competitors: too many competitors: 703 (at most 702)") {
		t.Errorf("error %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if _, err := load(filepath.Join(dir, "missing.toml")); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing file: %v", err)
	}
	// SQLite's side files among them: "ringmaster run q.db-wal" used to
	// take q.db for the database, and SQLite then deleted the control file.
	for _, ext := range []string{".db", ".log", ".cmd", ".report", ".games", ".void", ".protocol", ".db-wal", ".db-shm", ".db-journal", ".lock"} {
		path := filepath.Join(dir, "c"+ext)
		if err := os.WriteFile(path, []byte(playoffHead+oneMatchup), 0o666); err != nil {
			t.Fatal(err)
		}
		_, err := load(path)
		if want := fmt.Sprintf("%s: forbidden control file extension %q (the ringmaster writes files ending so)", path, ext); err == nil || err.Error() != want {
			t.Errorf("Load(%s) error %v, want %s", path, err, want)
		}
		if _, err := parse("c"+ext, []byte(playoffHead+oneMatchup)); err == nil {
			t.Errorf("Parse accepted extension %s", ext)
		}
	}
	for _, name := range []string{"plain", "a.b.toml", "x.ctl"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(playoffHead+oneMatchup), 0o666); err != nil {
			t.Fatal(err)
		}
		c, err := load(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSuffix(name, filepath.Ext(name)); c.Code != want || c.Dir != dir || c.Path != path {
			t.Errorf("Load(%s): code %q dir %q path %q", name, c.Code, c.Dir, c.Path)
		}
	}
}

func TestResolvePaths(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	src := playoffHead + oneMatchup + `
[players.c]
command = "~/bin/eng"
cwd = "~"
[players.d]
command = "../eng"
cwd = "."
[players.e]
command = "/usr/bin/eng"
cwd = "/tmp/../var"
`
	c, err := parse("/comp/dir/x.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	check := func(code, cmd, cwd string) {
		p := c.Players[code]
		if p.Command[0] != cmd || p.Cwd != cwd {
			t.Errorf("player %s: command %q cwd %q, want %q %q", code, p.Command[0], p.Cwd, cmd, cwd)
		}
	}
	check("c", filepath.Join(home, "bin/eng"), home)
	check("d", "/comp/eng", "/comp/dir")
	check("e", "/usr/bin/eng", "/var")
	check("a", "a.out", "")
}

func TestTimeouts(t *testing.T) {
	for v, want := range map[string]time.Duration{
		`"30s"`:    30 * time.Second,
		`"1m"`:     time.Minute,
		`"250ms"`:  250 * time.Millisecond,
		`"10"`:     10 * time.Second,
		`10`:       10 * time.Second,
		`0.5`:      500 * time.Millisecond,
		`" 2h "`:   2 * time.Hour,
		`"1.5"`:    1500 * time.Millisecond,
		`31536000`: 365 * 24 * time.Hour,
	} {
		src := playoffHead + oneMatchup + "[players.c]\ncommand = \"x\"\ntimeout = " + v + "\n"
		c, err := parse("t.toml", []byte(src))
		if err != nil {
			t.Errorf("timeout = %s: %v", v, err)
			continue
		}
		if got := c.Players["c"].Timeout; got != want {
			t.Errorf("timeout = %s: got %v, want %v", v, got, want)
		}
	}
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"   ", nil, ""},
		{"gnugo --mode gtp", []string{"gnugo", "--mode", "gtp"}, ""},
		{"  a\t b\n c  ", []string{"a", "b", "c"}, ""},
		{`a 'b c' d`, []string{"a", "b c", "d"}, ""},
		{`a "b c" d`, []string{"a", "b c", "d"}, ""},
		{`a'b'"c"d`, []string{"abcd"}, ""},
		{`''`, []string{""}, ""},
		{`a "" b`, []string{"a", "", "b"}, ""},
		{`'a\b'`, []string{`a\b`}, ""},
		{`"a\"b\\c\$d\e"`, []string{`a"b\c$d\e`}, ""},
		{`a\ b`, []string{"a b"}, ""},
		{`a\'b`, []string{"a'b"}, ""},
		{"a\\\nb", []string{"ab"}, ""},
		{`"it's"`, []string{"it's"}, ""},
		{`'say "hi"'`, []string{`say "hi"`}, ""},
		{`$HOME *.c`, []string{"$HOME", "*.c"}, ""},
		{`a 'b`, nil, "unterminated single quote"},
		{`a "b`, nil, "unterminated double quote"},
		{`a "b\"`, nil, "unterminated double quote"},
		{`a\`, nil, "trailing backslash"},
	}
	for _, tt := range tests {
		got, err := player.SplitCommand(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("splitWords(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSPRTSettings(t *testing.T) {
	base := "competition_type = \"playoff\"\ngame = \"backgammon\"\nnumber_of_games = 100\nsprt = { elo0 = 0, elo1 = 30 }\n\n[players.a]\ncommand = \"a\"\n\n[players.b]\ncommand = \"b\"\n\n[[matchups]]\nplayers = [\"a\", \"b\"]\n"
	c, err := parse("s.toml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Matchups[0].SPRT; got == nil || *got != (SPRT{Elo0: 0, Elo1: 30, Alpha: 0.05, Beta: 0.05}) {
		t.Errorf("sprt %+v", got)
	}
	lc, err := parse("s.toml", []byte(strings.Replace(base, "elo1 = 30", "elo1 = 30, luck_adjusted = true", 1)))
	if err != nil || !lc.Matchups[0].SPRT.LuckAdjusted || !lc.JudgesGames(lc.Matchups[0]) || c.JudgesGames(c.Matchups[0]) {
		t.Errorf("luck_adjusted not read (%v)", err)
	}
	bad := []struct{ text, want string }{
		{strings.Replace(base, "elo1 = 30", "elo1 = 30, luck_adjusted = 1", 1), "s.toml:4: sprt.luck_adjusted: must be"},
		{strings.Replace(base, "elo1 = 30", "elo1 = -5", 1), "s.toml:4: sprt.elo1: must be greater than elo0"},
		{strings.Replace(base, "elo1 = 30", "elo1 = 30, alpha = 0.7", 1), "s.toml:4: sprt.alpha: must be between 0 and 0.5"},
		{strings.Replace(base, "elo1 = 30", "elo1 = 30, gamma = 1", 1), "sprt.gamma"},
		{strings.Replace(base, ", elo1 = 30", "", 1), "sprt.elo1: required"},
		{base + "sprt = { elo0 = \"x\", elo1 = 5 }\n", "matchups[0].sprt.elo0: must be a number"},
	}
	for _, b := range bad {
		_, err := parse("s.toml", []byte(b.text))
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("error %v, want %q", err, b.want)
		}
	}
}

// TestLoadChecksFiles covers what Load checks on the file system and
// Parse cannot: a cwd that does not exist used to fail at launch as
// "fork/exec BINARY: no such file or directory", blaming the binary.
func TestLoadChecksFiles(t *testing.T) {
	dir := t.TempDir()
	src := playoffHead + oneMatchup + "\n[players.c]\ncommand = \"c\"\ncwd = \"nowhere\"\n"
	path := filepath.Join(dir, "cwd.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := load(path)
	want := fmt.Sprintf("players.c.cwd: directory %s: no such file or directory", filepath.Join(dir, "nowhere"))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load: %v, want %q", err, want)
	}
	if _, err := parse(path, []byte(src)); err != nil {
		t.Errorf("Parse (no file checks): %v", err)
	}
}

// TestLongIdentifiers: ids become file names (ID_N.sgf, ID_N-ATTEMPT.sgf),
// so a 300-character id used to fail every record write.
func TestLongIdentifiers(t *testing.T) {
	long := strings.Repeat("x", MaxIdentifier+1)
	ok := strings.Repeat("y", MaxIdentifier)
	for _, tc := range []struct{ src, want string }{
		{playoffHead + "[players." + long + "]\ncommand = \"z\"\n" + oneMatchup, "invalid player code"},
		{playoffHead + oneMatchup + "id = \"" + long + "\"\n", "invalid matchup id"},
	} {
		if _, err := parse("t.toml", []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
	if _, err := parse("t.toml", []byte(playoffHead+oneMatchup+"id = \""+ok+"\"\n")); err != nil {
		t.Errorf("a %d-character id: %v", MaxIdentifier, err)
	}
}

// TestNonFiniteNumbers: sprt = { elo0 = nan } used to be accepted and the
// test never decided; no number in a control file may be NaN or infinite.
func TestNonFiniteNumbers(t *testing.T) {
	for _, v := range []string{"nan", "inf", "-inf", "+inf"} {
		src := withTop("sprt = { elo0 = "+v+", elo1 = 5 }") + oneMatchup
		if _, err := parse("t.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "sprt.elo0: must be a finite number") {
			t.Errorf("elo0 = %s: %v", v, err)
		}
		src = playoffHead + oneMatchup + "\n[players.g]\nkind = \"gnubg\"\nnoise = " + v + "\n"
		if _, err := parse("t.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "noise: must be a finite number") {
			t.Errorf("noise = %s: %v", v, err)
		}
	}
}

func TestAllPlayAllNeedsTwo(t *testing.T) {
	src := "competition_type = \"allplayall\"\ngame = \"backgammon\"\nrounds = 2\ncompetitors = [\"a\"]\n[players.a]\ncommand = \"a\"\n"
	if _, err := parse("t.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "at least two competitors, got 1") {
		t.Errorf("one competitor: %v", err)
	}
}

func TestMaxMovesDeprecated(t *testing.T) {
	c, err := parse("t.toml", []byte(withTop("max_moves = 50")+oneMatchup))
	if err != nil {
		t.Fatal(err)
	}
	if c.Matchups[0].MoveLimit != 50 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "max_moves: deprecated: use move_limit") {
		t.Errorf("move limit %d, warnings %q", c.Matchups[0].MoveLimit, c.Warnings)
	}
	if _, err := parse("t.toml", []byte(withTop("max_moves = 50\nmove_limit = 40")+oneMatchup)); err == nil {
		t.Error("both max_moves and move_limit accepted")
	}
}

// TestGameOnlyPlayerKeys: a player key that only another game gives a
// meaning is an error naming the game.
func TestGameOnlyPlayerKeys(t *testing.T) {
	src := playoffHead + "is_reliable_scorer = false\n" + oneMatchup
	if _, err := parse("t.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "players.b.is_reliable_scorer: not allowed in a backgammon competition") {
		t.Errorf("is_reliable_scorer in backgammon: %v", err)
	}
	src = playoffHead + "gtp_aliases = { genmove = \"kgs-genmove_cleanup\" }\n" + oneMatchup
	c, err := parse("t.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Players["b"].GTPAliases["genmove"]; got != "kgs-genmove_cleanup" {
		t.Errorf("gtp_aliases: %v", c.Players["b"].GTPAliases)
	}
}
