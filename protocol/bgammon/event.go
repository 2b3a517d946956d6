package bgammon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Event is one message from the server, parsed: one of the types below.
type Event interface{ event() }

// Welcome is sent after a login; Player is the name the server gave.
type Welcome struct {
	Player  string `json:"PlayerName"`
	Clients int
	Games   int
}

// Ping asks for a sign of life: any command, pong being the usual one.
type Ping struct{ Message string }

// Notice is a server message for a person to read.
type Notice struct{ Message string }

// Say is a chat line from Player.
type Say struct {
	Player  string
	Message string
}

// Listing is one match in a List.
type Listing struct {
	ID       int
	Password bool
	Points   int
	Players  int
	Rating   int
	Name     string
}

// List is the list of matches.
type List struct{ Games []Listing }

// Joined reports Player entering match GameID: the receiver itself or
// its opponent. A board follows.
type Joined struct {
	Player       string
	GameID       int
	PlayerNumber int
}

// Left reports Player leaving the match.
type Left struct{ Player string }

// BoardEvent carries the whole state of the receiver's match.
type BoardEvent struct{ State GameState }

// Rolled reports Player's dice. During the opening roll (Turn 0) Roll1 is
// the receiver's die and Roll2 the opponent's.
type Rolled struct {
	Player              string
	Roll1, Roll2, Roll3 int
}

// Moved reports Player's checker steps, each {from, to} in the receiver's
// orientation.
type Moved struct {
	Player string
	Moves  [][2]int
}

// Win reports the end of a game: Points (with the cube; 0 in a 1-point
// match) and, for a resignation or a declined double, the loser in
// Resigned.
type Win struct {
	Player   string
	Points   int
	Rating   int
	Resigned string
}

// Failed is a refused command: Type is failedcreate, failedjoin,
// failedleave, failedroll, failedmove or failedok.
type Failed struct {
	Type   string
	From   int // failedmove only
	To     int // failedmove only
	Reason string
}

// Other is an event this package does not interpret (settings, history,
// replay, achievements, a type added later): its type and the raw line.
type Other struct {
	Type string
	Raw  string
}

// Text is a line that is not JSON: the TCP banner ("hello ..."), and
// anything sent before JSON is switched on.
type Text struct{ Line string }

func (Welcome) event()    {}
func (Ping) event()       {}
func (Notice) event()     {}
func (Say) event()        {}
func (List) event()       {}
func (Joined) event()     {}
func (Left) event()       {}
func (BoardEvent) event() {}
func (Rolled) event()     {}
func (Moved) event()      {}
func (Win) event()        {}
func (Failed) event()     {}
func (Other) event()      {}
func (Text) event()       {}

// ParseEvent parses one line from the server. A JSON object becomes the
// typed event its "Type" names; a board is checked (ValidateView) so that
// what comes back can be trusted. A text line is a Text, or a Ping for
// "ping ...".
func ParseEvent(line string) (Event, error) {
	line = strings.TrimRight(line, "\r\n")
	trimmed := strings.TrimSpace(line)
	if !strings.HasPrefix(trimmed, "{") {
		if msg, ok := strings.CutPrefix(trimmed, "ping "); ok {
			return Ping{Message: msg}, nil
		}
		return Text{Line: line}, nil
	}
	var head struct {
		Type   string
		Player string
	}
	if err := json.Unmarshal([]byte(trimmed), &head); err != nil {
		return nil, fmt.Errorf("event %.60q: %w", trimmed, err)
	}
	decode := func(v any) error {
		dec := json.NewDecoder(bytes.NewReader([]byte(trimmed)))
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("%s event: %w", head.Type, err)
		}
		return nil
	}
	switch head.Type {
	case "welcome":
		var e Welcome
		return e, decode(&e)
	case "ping":
		var e Ping
		return e, decode(&e)
	case "notice":
		var e Notice
		return e, decode(&e)
	case "say":
		var e Say
		return e, decode(&e)
	case "list":
		var e List
		return e, decode(&e)
	case "joined":
		var e Joined
		return e, decode(&e)
	case "left":
		return Left{Player: head.Player}, nil
	case "board":
		var st GameState
		if err := decode(&st); err != nil {
			return nil, err
		}
		if err := st.ValidateView(); err != nil {
			return nil, fmt.Errorf("board event: %w", err)
		}
		return BoardEvent{State: st}, nil
	case "rolled":
		var e Rolled
		if err := decode(&e); err != nil {
			return nil, err
		}
		for _, d := range []int{e.Roll1, e.Roll2, e.Roll3} {
			if d < 0 || d > 6 {
				return nil, fmt.Errorf("rolled event: die %d out of range 0-6", d)
			}
		}
		return e, nil
	case "moved":
		var raw struct {
			Player string
			Moves  [][]int
		}
		if err := decode(&raw); err != nil {
			return nil, err
		}
		e := Moved{Player: raw.Player}
		for i, m := range raw.Moves {
			if len(m) != 2 || !validSpace(m[0]) || !validSpace(m[1]) {
				return nil, fmt.Errorf("moved event: move %d is %v, want [from, to] with spaces 0-27", i+1, m)
			}
			e.Moves = append(e.Moves, [2]int{m[0], m[1]})
		}
		return e, nil
	case "win":
		var e Win
		if err := decode(&e); err != nil {
			return nil, err
		}
		if e.Points < 0 {
			return nil, fmt.Errorf("win event: negative points %d", e.Points)
		}
		return e, nil
	case "failedcreate", "failedjoin", "failedleave", "failedroll", "failedmove", "failedok":
		e := Failed{Type: head.Type}
		var raw struct {
			From, To int
			Reason   string
		}
		if err := decode(&raw); err != nil {
			return nil, err
		}
		e.From, e.To, e.Reason = raw.From, raw.To, raw.Reason
		return e, nil
	case "":
		return nil, fmt.Errorf("event %.60q: no Type", trimmed)
	default:
		return Other{Type: head.Type, Raw: trimmed}, nil
	}
}

func validSpace(s int) bool { return s >= 0 && s < BoardSpaces }
