package gauntlet_test

import (
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/games/backgammon"
)

const players = `
[players.new]
kind = "builtin"
args = ["--level", "net"]
[players.old]
kind = "builtin"
args = ["--level", "heuristic"]
[players.r1]
kind = "builtin"
args = ["--level", "random"]
[players.r2]
kind = "builtin"
args = ["--level", "random", "--seed", "{seed}"]
`

func parse(t *testing.T, top string) (*control.Competition, error) {
	t.Helper()
	return control.Parse("g.toml", []byte("competition_type = \"gauntlet\"\ngame = \"backgammon\"\n"+top+players), backgammon.New())
}

func TestMatchupsEachChallengerAgainstTheField(t *testing.T) {
	c, err := parse(t, `challengers = ["new", "old"]
opponents = ["r1", "r2"]
number_of_games = 4
dice = "paired"
`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range c.Matchups {
		got = append(got, m.ID+"="+m.PlayerA+","+m.PlayerB)
		if m.NumberOfGames != 4 || !m.Alternating || !m.Settings.PairedGames() {
			t.Errorf("matchup %s: %d games, alternating %v, paired %v", m.ID, m.NumberOfGames, m.Alternating, m.Settings.PairedGames())
		}
	}
	want := "new~r1=new,r1 new~r2=new,r2 old~r1=old,r1 old~r2=old,r2"
	if strings.Join(got, " ") != want {
		t.Errorf("matchups %q, want %q", strings.Join(got, " "), want)
	}
	if strings.Join(c.Competitors, " ") != "new old r1 r2" {
		t.Errorf("competitors %v", c.Competitors)
	}
}

func TestErrorsNameFileLineAndKey(t *testing.T) {
	cases := []struct{ top, want string }{
		{"opponents = [\"r1\"]\nnumber_of_games = 2\n", "g.toml: challengers: required: a list of player codes"},
		{"challengers = [\"new\"]\nopponents = [\"r1\", \"zz\"]\nnumber_of_games = 2\n", `g.toml:4: opponents[1]: unknown player "zz"`},
		{"challengers = [\"new\", \"r1\"]\nopponents = [\"r1\"]\nnumber_of_games = 2\n", `g.toml:3: challengers[1]: "r1" is also an opponent`},
		{"challengers = [\"new\"]\nopponents = [\"r1\"]\n", "g.toml: number_of_games: required"},
		{"challengers = [\"new\"]\nopponents = [\"r1\"]\nnumber_of_games = 3\ndice = \"paired\"\n", "g.toml:5: number_of_games: paired games need an even number of games, got 3"},
		{"challengers = [\"new\"]\nopponents = [\"r1\"]\nnumber_of_games = 2\nrounds = 2\n", "g.toml:6: rounds: not allowed in a gauntlet competition"},
	}
	for _, tc := range cases {
		_, err := parse(t, tc.top)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.top, err, tc.want)
		}
	}
}
