package bgammon

import (
	"reflect"
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
)

// startRaw is the opening position as the server stores it: player 1
// positive from 24 down, player 2 negative.
const startRaw = `[0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0,0,0]`

var eventLines = map[string]Event{
	`hello Welcome to bgammon.org! Please log in by sending the 'login' command.`: Text{Line: `hello Welcome to bgammon.org! Please log in by sending the 'login' command.`},
	`ping 1700000000`: Ping{Message: "1700000000"},
	`{"Type":"welcome","Player":"","PlayerName":"bot_x","Clients":12,"Games":3}`:                                             Welcome{Player: "bot_x", Clients: 12, Games: 3},
	`{"Type":"ping","Player":"","Message":"1700000000"}`:                                                                     Ping{Message: "1700000000"},
	`{"Type":"notice","Player":"","Message":"Created match: x"}`:                                                             Notice{Message: "Created match: x"},
	`{"Type":"say","Player":"ann","Message":"hi there"}`:                                                                     Say{Player: "ann", Message: "hi there"},
	`{"Type":"joined","Player":"ann","GameID":7,"PlayerNumber":2}`:                                                           Joined{Player: "ann", GameID: 7, PlayerNumber: 2},
	`{"Type":"left","Player":"ann"}`:                                                                                         Left{Player: "ann"},
	`{"Type":"rolled","Player":"ann","Roll1":3,"Roll2":5,"Roll3":0,"Selected":false}`:                                        Rolled{Player: "ann", Roll1: 3, Roll2: 5},
	`{"Type":"moved","Player":"ann","Moves":[[1,4],[12,17]]}`:                                                                Moved{Player: "ann", Moves: [][2]int{{1, 4}, {12, 17}}},
	`{"Type":"failedmove","Player":"","From":0,"To":0,"Reason":"Illegal move."}`:                                             Failed{Type: "failedmove", Reason: "Illegal move."},
	`{"Type":"failedok","Player":"","Reason":"The following legal moves are available: 24/23"}`:                              Failed{Type: "failedok", Reason: "The following legal moves are available: 24/23"},
	`{"Type":"win","Player":"ann","Points":2,"Rating":1500,"Resigned":"bob"}`:                                                Win{Player: "ann", Points: 2, Rating: 1500, Resigned: "bob"},
	`{"Type":"list","Player":"","Games":[{"ID":4,"Password":false,"Points":5,"Players":1,"Rating":0,"Name":"ann's match"}]}`: List{Games: []Listing{{ID: 4, Points: 5, Players: 1, Name: "ann's match"}}},
	`{"Type":"settings","Player":"","AutoPlay":false}`:                                                                       Other{Type: "settings", Raw: `{"Type":"settings","Player":"","AutoPlay":false}`},
}

func TestParseEvent(t *testing.T) {
	for line, want := range eventLines {
		got, err := ParseEvent(line)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", line, got, want)
		}
	}
}

func TestParseBoardEvent(t *testing.T) {
	line := `{"Type":"board","Player":"","Started":0,"Ended":0,"Player1":{"Number":1,"Name":"bot","Rating":0,"Points":1,"Entered":true,"Inactive":0,"Icon":0},` +
		`"Player2":{"Number":2,"Name":"ann","Rating":0,"Points":0,"Entered":true,"Inactive":0,"Icon":0},"Variant":0,"Board":` + startRaw +
		`,"Turn":1,"Roll1":6,"Roll2":1,"Roll3":0,"Moves":[],"Winner":0,"Points":5,"Crawford":0,"DoubleValue":2,"DoublePlayer":2,"DoubleOffered":false,"Reroll":false,` +
		`"PlayerNumber":1,"Available":[[8,2],[13,7],[24,18]],"Forced":false,"Spectating":false}`
	ev, err := ParseEvent(line)
	if err != nil {
		t.Fatal(err)
	}
	st := ev.(BoardEvent).State
	if st.Player1.Name != "bot" || st.Player1.Points != 1 || st.Turn != 1 || st.Roll1 != 6 || st.Points != 5 || st.DoublePlayer != 2 || len(st.Available) != 3 {
		t.Fatalf("board: %+v", st)
	}
	es, ok := st.State()
	if !ok {
		t.Fatal("no state")
	}
	start := [25]int8{5: 5, 7: 3, 12: 5, 23: 2}
	if es.Move != 0 || es.Board[bg.OnRoll] != start || es.Board[bg.Opponent] != start || es.Dice != [2]int{6, 1} ||
		es.CubeValue != 2 || es.CubeOwner != 1 || es.Score != [2]int{1, 0} {
		t.Fatalf("state: %+v", es)
	}
	if len(es.LegalMoves()) == 0 {
		t.Fatal("no legal moves from the state")
	}
}

func TestParseEventRefuses(t *testing.T) {
	for _, line := range []string{
		`{"Type":`,
		`{"Player":"ann"}`,
		`{"Type":"board","Board":[0,1,2]}`,
		`{"Type":"board","Board":[0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,3,0,0,0]}`,
		`{"Type":"board","Board":` + startRaw + `,"Turn":3}`,
		`{"Type":"board","Board":[-1,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-4,0,0,0,0,2,0,0,0]}`,
		`{"Type":"rolled","Player":"ann","Roll1":7,"Roll2":1}`,
		`{"Type":"moved","Player":"ann","Moves":[[1,2,3]]}`,
		`{"Type":"moved","Player":"ann","Moves":[[1,40]]}`,
		`{"Type":"win","Player":"ann","Points":-1}`,
	} {
		if ev, err := ParseEvent(line); err == nil {
			t.Errorf("%s: parsed as %#v", line, ev)
		}
	}
}

// The second player's raw view, flipped, is what the server sends it:
// its checkers positive from its own 24 down, its bar at 26, its home 0.
func TestCanonicalFlipsTheSecondPlayersView(t *testing.T) {
	raw := GameState{PlayerNumber: 2, Turn: 2, Roll1: 4, Roll2: 2, DoublePlayer: 1, Winner: 0,
		Player1: Player{Number: 1, Name: "ann", Points: 2}, Player2: Player{Number: 2, Name: "bot", Points: 1},
		Moves: [][]int{{1, 5}, {SpaceBarOpponent, 3}}}
	// Player 1 (ann): one checker on its bar, 14 on its 6 point.
	// Player 2 (bot): one borne off, 12 on its 24 point (raw space 1), 2 on its 1 point (raw 24).
	raw.Board = make([]int, BoardSpaces)
	raw.Board[SpaceBar] = 1
	raw.Board[6] = 14
	raw.Board[SpaceHomeOpponent] = -1
	raw.Board[1] = -12
	raw.Board[24] = -2
	if err := raw.ValidateView(); err != nil {
		t.Fatal(err)
	}
	c := raw.Canonical()
	if c.PlayerNumber != 1 || c.Player1.Name != "bot" || c.Player2.Name != "ann" || c.Turn != 1 || c.DoublePlayer != 2 {
		t.Fatalf("canonical: %+v", c)
	}
	if c.Board[SpaceHome] != 1 || c.Board[24] != 12 || c.Board[1] != 2 || c.Board[SpaceBarOpponent] != -1 || c.Board[19] != -14 {
		t.Fatalf("canonical board %v", c.Board)
	}
	if !reflect.DeepEqual(c.Moves, [][]int{{24, 20}, {SpaceBar, 22}}) {
		t.Fatalf("canonical moves %v", c.Moves)
	}
	if err := c.ValidateView(); err != nil {
		t.Fatal(err)
	}
	me, opp := c.Sides()
	if me[23] != 12 || me[0] != 2 || opp[24] != 1 || opp[5] != 14 {
		t.Fatalf("sides %v %v", me, opp)
	}
	if back := BoardView(me, opp); !reflect.DeepEqual(back, c.Board) {
		t.Fatalf("BoardView(Sides()) = %v, want %v", back, c.Board)
	}
	if again := c.Flipped(); !reflect.DeepEqual(again, raw) {
		t.Fatalf("flipping twice:\n got %+v\nwant %+v", again, raw)
	}
	if c.Canonical().PlayerNumber != 1 || !reflect.DeepEqual(c.Canonical(), c) {
		t.Fatal("a canonical view changed when made canonical")
	}
	// During the opening roll the dice are the receiver's and the
	// opponent's, so they swap too.
	open := raw
	open.Turn, open.Roll1, open.Roll2 = 0, 5, 0
	if c := open.Canonical(); c.Roll1 != 0 || c.Roll2 != 5 {
		t.Fatalf("opening dice %d %d", c.Roll1, c.Roll2)
	}
}

func TestMoveCommand(t *testing.T) {
	m := bg.Move{N: 3, Steps: [4]bg.Step{{From: 25, To: 22}, {From: 8, To: 4}, {From: 3, To: 0}}}
	cmd := MoveCommand(m)
	if cmd != "move bar/22 8/4 3/off" {
		t.Fatalf("MoveCommand = %q", cmd)
	}
	steps, err := ParseSteps(strings.Fields(cmd)[1:])
	if err != nil || !reflect.DeepEqual(steps, m.StepList()) {
		t.Fatalf("ParseSteps = %v, %v", steps, err)
	}
	if steps, err := ParseSteps([]string{"b/20", "6/h", "5/o"}); err != nil || steps[0].From != 25 || steps[1].To != 0 || steps[2].To != 0 {
		t.Fatalf("aliases: %v %v", steps, err)
	}
	for _, bad := range []string{"25/20", "8-4", "0/3", "x/3", "+8/4", "08/4"} {
		if _, err := ParseSteps([]string{bad}); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if got := LoginCommand("c/en", "bot", "two words"); got != "loginjson c/en bot two_words" {
		t.Errorf("LoginCommand = %q", got)
	}
}
