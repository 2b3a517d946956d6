package ringmaster_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/gym"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/player/agent"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// python3 finds the interpreter the agents need, or skips (fails under
// GAMEMILL_REQUIRE_PEERS=1).
func python3(t *testing.T) string {
	t.Helper()
	return peertest.Python3(t)
}

// agentResults runs a competition, parallel games at once, and returns
// its results.
func agentResults(t *testing.T, ctl string, parallel int) []store.GameResult {
	t.Helper()
	rm, err := ringmaster.New(ctl, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, parallel); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	results, err := st.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

// TestAgentExamplePlays runs examples/agent-random.toml's players (the
// random Python agent against bgbot) for a few games: every game ends
// with a winner and none by a forfeit. docs/agents.md has the 100 games.
func TestAgentExamplePlays(t *testing.T) {
	python3(t)
	dir := t.TempDir()
	example, err := os.ReadFile("../examples/agent-random.toml")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../examples/agent_random.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agent_random.py"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	games := 4
	if testing.Short() {
		games = 2
	}
	text := strings.Replace(string(example), "number_of_games = 100", "number_of_games = "+strconv.Itoa(games), 1)
	results := agentResults(t, writeControl(t, dir, "agent-random.toml", text), 2)
	if len(results) != games {
		t.Fatalf("%d games played, want %d", len(results), games)
	}
	for _, r := range results {
		if r.Winner == "" || r.ForfeitBy != "" {
			t.Errorf("game %s: winner %q, forfeit by %q (%s)", r.GameID, r.Winner, r.ForfeitBy, r.Detail)
		}
	}
}

// TestAgentIllegalActionForfeits: an agent that answers with an action
// outside its mask loses the game by forfeit, as a protocol engine's
// illegal move does, and the detail says why.
func TestAgentIllegalActionForfeits(t *testing.T) {
	py := python3(t)
	dir := t.TempDir()
	agentPath, _ := filepath.Abs("testdata/agents/illegal_agent.py")
	ctl := writeControl(t, dir, "illegal.toml", `competition_type = "playoff"
game = "backgammon"
seed = 7
cube = false

[players.bad]
kind = "agent"
command = ["`+py+`", "`+agentPath+`"]

[players.bgbot]
kind = "builtin"
args = ["--level", "net", "--plies", "0"]

[[matchups]]
players = ["bad", "bgbot"]
number_of_games = 2
`)
	results := agentResults(t, ctl, 2)
	if len(results) != 2 {
		t.Fatalf("%d games", len(results))
	}
	for _, r := range results {
		if r.ForfeitBy != "bad" || r.Winner != "bgbot" || !strings.Contains(r.Detail, "not in the action mask") {
			t.Errorf("game %s: winner %q, forfeit by %q, detail %q", r.GameID, r.Winner, r.ForfeitBy, r.Detail)
		}
	}
}

// TestAgentReceivesGymEncoding logs every request an agent received in a
// few games and checks each against formats/gym computed afresh from the
// position and match IDs sent with it: the observation is PettingZoo's
// for that board, the mask lists exactly
// gym.LegalActions, the second request of doubles is for the board after
// the first action, and the actions make up the moves the game recorded.
func TestAgentReceivesGymEncoding(t *testing.T) {
	py := python3(t)
	dir := t.TempDir()
	agentPath, _ := filepath.Abs("testdata/agents/logging_agent.py")
	logs := [2]string{filepath.Join(dir, "white.jsonl"), filepath.Join(dir, "black.jsonl")}
	ctl := writeControl(t, dir, "logged.toml", `competition_type = "playoff"
game = "backgammon"
seed = 11
cube = true
match_length = 3

[players.one]
kind = "agent"
command = ["`+py+`", "`+agentPath+`", "`+logs[0]+`", "1"]

[players.two]
kind = "agent"
command = ["`+py+`", "`+agentPath+`", "`+logs[1]+`", "2"]

[[matchups]]
players = ["one", "two"]
number_of_games = 2
`)
	// One game at a time: each player's agents append to one log, and
	// the second request of doubles is checked against the line before.
	for _, r := range agentResults(t, ctl, 1) {
		if r.Winner == "" || r.ForfeitBy != "" {
			t.Errorf("game %s: winner %q, forfeit by %q (%s)", r.GameID, r.Winner, r.ForfeitBy, r.Detail)
		}
	}
	requests, doubles := 0, 0
	for _, path := range logs {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		var prev struct {
			Request agent.Request `json:"request"`
			Action  int           `json:"action"`
		}
		for sc.Scan() {
			var got struct {
				Request agent.Request `json:"request"`
				Action  int           `json:"action"`
			}
			if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			req := got.Request
			requests++
			s, err := gnubgid.DecodeState(req.PositionID, req.MatchID, backgammon.Rules{Variant: backgammon.Standard, MatchLength: 3, Cube: true, Crawford: true})
			if err != nil {
				t.Fatalf("%s:%s: %v", req.PositionID, req.MatchID, err)
			}
			colour := gym.White
			if s.Move == 1 {
				colour = gym.Black
			}
			board := s.Board
			if req.Step == 1 {
				doubles++
				if prev.Request.PositionID != req.PositionID || prev.Request.Step != 0 || req.Dice[0] != req.Dice[1] {
					t.Fatalf("second request of doubles without the first: %+v after %+v", req, prev.Request)
				}
				m, err := gym.DecodeAction(prev.Action, req.Dice[0], req.Dice[1], colour)
				if err != nil {
					t.Fatal(err)
				}
				board = board.Apply(m)
			}
			if req.Dice != s.Dice || req.Player != s.Move || req.Colour != colour.String() {
				t.Errorf("%s:%s: dice %v, player %d, colour %s; the IDs say %v, %d, %s", req.PositionID, req.MatchID,
					req.Dice, req.Player, req.Colour, s.Dice, s.Move, colour)
			}
			want := gym.EncodeTurn(board, colour, gym.Black)
			if !slices.Equal(req.Observation, want[:]) {
				t.Errorf("%s:%s step %d: observation differs from gym.EncodeTurn", req.PositionID, req.MatchID, req.Step)
			}
			var mask []int
			for a, ok := range req.ActionMask {
				if ok == 1 {
					mask = append(mask, a)
				} else if ok != 0 {
					t.Fatalf("mask entry %d is %d", a, ok)
				}
			}
			if legal := gym.LegalActions(board, req.Dice[0], req.Dice[1], colour); !slices.Equal(mask, legal) || len(req.ActionMask) != gym.NumActions {
				t.Errorf("%s:%s step %d: mask %v, gym.LegalActions %v", req.PositionID, req.MatchID, req.Step, mask, legal)
			}
			prev = got
		}
		f.Close()
	}
	t.Logf("%d requests checked, %d of them second actions of doubles", requests, doubles)
	if requests < 50 || doubles == 0 {
		t.Errorf("only %d requests, %d for doubles", requests, doubles)
	}
}

// An agent player needs its command; a Go competition offers no agents.
func TestAgentControlErrors(t *testing.T) {
	dir := t.TempDir()
	base := "competition_type = \"playoff\"\ngame = \"GAME\"\n\n[players.a]\nkind = \"agent\"\nAGENT\n[players.b]\nkind = \"protocol\"\ncommand = \"b\"\n\n[[matchups]]\nplayers = [\"a\", \"b\"]\nnumber_of_games = 1\n"
	for _, tc := range []struct{ game, agent, want string }{
		{"backgammon", "", `agent.toml:4: players.a.command: required for a player of kind "agent"`},
		{"go", `command = "x"`, `player kind "agent" is not offered for game "go"`},
	} {
		text := strings.NewReplacer("GAME", tc.game, "AGENT", tc.agent).Replace(base)
		_, err := ringmaster.New(writeControl(t, dir, "agent.toml", text), games.All()...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.game, err, tc.want)
		}
	}
}
