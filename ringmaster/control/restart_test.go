package control_test

import (
	"strings"
	"testing"

	. "github.com/gamemill/gamemill/ringmaster/control"
)

func TestRestartKey(t *testing.T) {
	c, err := parse("t.toml", []byte(playoffHead+"restart = \"never\"\n"+oneMatchup))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Players["a"].Restart; got != RestartPerGame {
		t.Errorf("default restart = %q, want %q", got, RestartPerGame)
	}
	if got := c.Players["b"].Restart; got != RestartNever {
		t.Errorf("restart = %q, want never", got)
	}
	for _, tc := range []struct{ src, want string }{
		{playoffHead + "restart = \"sometimes\"\n" + oneMatchup, `players.b.restart: unknown restart "sometimes" (want "per_game", "on_error" or "never")`},
		{playoffHead + "restart = 1\n" + oneMatchup, "players.b.restart"},
		{strings.Replace(playoffHead, `command = ["b", "--x"]`, `command = ["b", "--seed", "{seed}"]`, 1) + "restart = \"on_error\"\n" + oneMatchup,
			"players.b.restart: an engine kept between games would keep its first game's {seed}"},
		{playoffHead + "kind = \"builtin\"\nrestart = \"never\"\n" + oneMatchup, "players.b.restart"},
	} {
		_, err := parse("t.toml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}
