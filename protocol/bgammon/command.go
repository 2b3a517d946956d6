package bgammon

import (
	"fmt"
	"strings"

	bg "github.com/gamemill/gamemill/engine/backgammon"
)

// LoginCommand logs in and switches JSON on. The server reads spaces in a
// password as underscores, so they are sent as underscores.
func LoginCommand(client, user, password string) string {
	return fmt.Sprintf("loginjson %s %s %s", client, user, strings.ReplaceAll(password, " ", "_"))
}

// CreateCommand creates a public standard-backgammon match of points.
func CreateCommand(points int, name string) string {
	c := fmt.Sprintf("create public %d 0", points)
	if name != "" {
		c += " " + name
	}
	return c
}

// JoinCommand joins match id.
func JoinCommand(id int) string { return fmt.Sprintf("join %d", id) }

// Commands without arguments.
const (
	CmdList   = "list"
	CmdRoll   = "roll"
	CmdOK     = "ok" // ends the turn, or accepts a double
	CmdDouble = "double"
	CmdResign = "resign" // declines a double on offer, else resigns the game
	CmdReset  = "reset"  // takes back this turn's steps
	CmdLeave  = "leave"
	CmdBoard  = "board"
)

// PongCommand answers a ping.
func PongCommand(msg string) string {
	if msg == "" {
		msg = "x"
	}
	return "pong " + msg
}

// MoveCommand writes a move in the server's slash notation, one FROM/TO
// per checker step, in the order played: "move 8/4 6/4", "move bar/22",
// "move 3/off". Points are the mover's own, as engine/backgammon counts
// them.
func MoveCommand(m bg.Move) string {
	var b strings.Builder
	b.WriteString("move")
	for _, s := range m.StepList() {
		b.WriteByte(' ')
		b.WriteString(formatSpace(int(s.From)))
		b.WriteByte('/')
		b.WriteString(formatSpace(int(s.To)))
	}
	return b.String()
}

func formatSpace(p int) string {
	switch p {
	case bg.BarIndex + 1:
		return "bar"
	case 0:
		return "off"
	}
	return fmt.Sprint(p)
}

// ParseSpace reads one end of a step in slash notation, from the mover's
// view: a point 1-24, bar/b (25, engine/backgammon's bar) or
// off/o/home/h (0).
func ParseSpace(s string) (int, error) {
	switch strings.ToLower(s) {
	case "bar", "b":
		return bg.BarIndex + 1, nil
	case "off", "o", "home", "h":
		return 0, nil
	}
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s || n < 1 || n > 24 {
		return 0, fmt.Errorf("space %q: want 1-24, bar or off", s)
	}
	return n, nil
}

// ParseSteps reads the arguments of a move command ("24/18 13/11") as
// steps from the mover's view.
func ParseSteps(args []string) ([]bg.Step, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("move: no steps")
	}
	var steps []bg.Step
	for _, a := range args {
		from, to, ok := strings.Cut(a, "/")
		if !ok {
			return nil, fmt.Errorf("step %q: want FROM/TO", a)
		}
		f, err := ParseSpace(from)
		if err != nil {
			return nil, fmt.Errorf("step %q: %w", a, err)
		}
		t, err := ParseSpace(to)
		if err != nil {
			return nil, fmt.Errorf("step %q: %w", a, err)
		}
		steps = append(steps, bg.Step{From: int8(f), To: int8(t)})
	}
	return steps, nil
}
