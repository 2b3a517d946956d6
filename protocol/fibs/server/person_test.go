package server

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/server/servertest"
)

// The opening position seen by O (O moves from 24 to 1, home at the
// bottom right), after O rolled 3 1, in FIBS's layout.
const openingO = "board:You:bob:3:1:2:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"

func TestASCIIBoardStyles(t *testing.T) {
	b, err := fibsboard.Parse(openingO)
	if err != nil {
		t.Fatal(err)
	}
	style1 := `   +13-14-15-16-17-18-------19-20-21-22-23-24-+ X: bob - score: 2
   | O           X    |   |  X              O |
   | O           X    |   |  X              O |
   | O           X    |   |  X                |
   | O                |   |  X                |
   | O                |   |  X                |
  v|                  |BAR|                   |    3-point match - Cube: 1
   | X                |   |  O                |
   | X                |   |  O                |
   | X           O    |   |  O                |
   | X           O    |   |  O              X |
   | X           O    |   |  O              X |
   +12-11-10--9--8--7--------6--5--4--3--2--1-+ O: You - score: 1

   BAR: O-0 X-0   OFF: O-0 X-0   Cube: 1  You rolled 3 1.`
	if got := strings.Join(asciiBoard(b, 1), "\n"); got != style1 {
		t.Errorf("boardstyle 1:\n%s\nwant\n%s", got, style1)
	}
	style2 := `    13 14 15 16 17 18       19 20 21 22 23 24
   +------------------------------------------+ X: bob - score: 2
   | O           X    |   |  X              O |
   | O           X    |   |  X              O |
   | O           X    |   |  X                |
   | O                |   |  X                |
   | O                |   |  X                |
  v|                  |BAR|                   |    3-point match - Cube: 1
   | X                |   |  O                |
   | X                |   |  O                |
   | X           O    |   |  O                |
   | X           O    |   |  O              X |
   | X           O    |   |  O              X |
   +------------------------------------------+ O: You - score: 1
    12 11 10  9  8  7        6  5  4  3  2  1

   BAR: O-0 X-0   OFF: O-0 X-0   Cube: 1  You rolled 3 1.`
	if got := strings.Join(asciiBoard(b, 2), "\n"); got != style2 {
		t.Errorf("boardstyle 2:\n%s\nwant\n%s", got, style2)
	}
	// X's view of a later position: points 1-12 on top, 24-13 below, the
	// arrow on the right; six checkers on a point and three on the bar,
	// the cube owned by the opponent, the opponent's roll.
	var x fibsboard.Board = b
	x.Player, x.Opponent, x.Colour, x.Direction, x.Home, x.Bar = "You", "carol", -1, 1, 25, 0
	x.Points = [26]int{}
	x.Points[0], x.Points[2], x.Points[24] = 3, 6, -2 // O: 3 on the bar (point 0 is O's bar), 6 on 2; X: 2 on 24
	x.PlayerOnBar, x.OpponentOnBar = 0, 3
	x.PlayerHome, x.OpponentHome = 13, 6
	x.PlayerDice, x.OpponentDice = [2]int{}, [2]int{6, 5}
	x.Cube, x.PlayerMayDouble, x.OpponentMayDouble = 4, 0, 1
	x.MatchLength = fibsboard.Money
	want := `   +-1--2--3--4--5--6--------7--8--9-10-11-12-+ O: carol - score: 2
   |    O             | O |                   |
   |    O             | O |                   |
   |    O             | O |                   |
   |    O             |   |                   |
   |    6             |   |                   |
   |                  |BAR|                   |v    unlimited match
   |                  |   |                   |
   |                  |   |                   |
   |                  |   |                   |
   | X                |   |                   |
   | X                |   |                   |
   +24-23-22-21-20-19-------18-17-16-15-14-13-+ X: You - score: 1

   BAR: O-3 X-0   OFF: O-6 X-13   Cube: 4 (owned by carol)  carol rolled 6 5.`
	if got := strings.Join(asciiBoard(x, 1), "\n"); got != want {
		t.Errorf("X's view:\n%s\nwant\n%s", got, want)
	}
}

// person is someone at a telnet prompt who reads the ASCII boards; the
// test finds the move to type from the server's own position (and checks
// the board the person was shown against it).
type person struct {
	*servertest.Human
	ts *testServer
}

// boardLines is the last ASCII board among the lines the person saw: the
// lines from the top point strip to the summary line.
func (p *person) boardLines() []string {
	p.T.Helper()
	end := -1
	for i := len(p.Seen) - 1; i >= 0; i-- {
		if strings.HasPrefix(p.Seen[i], "   BAR: ") {
			end = i
			break
		}
	}
	for i := end; i >= 0; i-- {
		if strings.HasPrefix(p.Seen[i], "    13 14") || strings.HasPrefix(p.Seen[i], "     1  2") {
			return p.Seen[i : end+1]
		}
	}
	p.T.Fatalf("%s saw no boardstyle 2 board: %q", p.Name, servertest.Tail(p.Seen))
	return nil
}

// move types the first legal move of the person's match, after checking
// that the last board shown is the server's position.
func (p *person) move() {
	p.T.Helper()
	s := p.ts.srv
	s.mu.Lock()
	c := s.users[p.Name]
	m := c.match
	line := m.boardFor(c.seat)
	steps := fibs.FromMove(m.st().LegalMoves()[0], direction(m.colour[c.seat]))
	s.mu.Unlock()
	b, err := fibsboard.Parse(line)
	if err != nil {
		p.T.Fatal(err)
	}
	if got, want := strings.Join(p.boardLines(), "\n"), strings.Join(asciiBoard(b, 2), "\n"); got != want {
		p.T.Fatalf("%s was shown\n%s\nwhile the server's position is\n%s", p.Name, got, want)
	}
	p.Type(fibs.MoveCommand(steps))
}

// A person's telnet session: the plain FIBS login (name at the login
// prompt, then the password), boardstyle 2, the board, help, wrong moves
// answered in FIBS's words, and a whole 1-point match against a scripted
// CLIP client; at its end both ratings moved by the FIBS formula, and the
// person's who and rating say so.
func TestPersonPlaysOnePointMatchOverTelnet(t *testing.T) {
	// Dice in a fixed order, repeated: an odd die makes a (the inviter) O,
	// then the opening roll, 3 for a and 1 for b, then the rest of the match.
	seq := []int{3, 3, 1, 6, 5, 4, 2, 5, 5, 2, 1, 6, 6, 4, 3, 1, 1, 5, 2, 6, 4, 3, 3, 2, 2, 6, 1, 5, 3, 4, 4}
	var dmu sync.Mutex
	i := 0
	ts := startServer(t, Config{Dice: func() int {
		dmu.Lock()
		defer dmu.Unlock()
		d := seq[i%len(seq)]
		i++
		return d
	}})
	p := &person{Human: servertest.Dial(t, ts.addr), ts: ts}
	p.Name = "a"
	p.Until("login: ")
	p.Type("a")
	p.Until("password: ")
	p.Type("pa")
	p.Until("Welcome a. This is your first login.")
	p.Until("Your rating is 1500.00, your experience 0. Type 'help' for a list of commands.")
	p.Type("help")
	p.Until("Commands (type 'help COMMAND' for more):")
	p.Until("boardstyle")
	p.Type("help move")
	p.Until("USAGE: move FROM-TO ...")
	p.Type("set boardstyle 2")
	p.Until("Value of 'boardstyle' set to 2.")

	bot := servertest.Dial(t, ts.addr)
	bot.Login("b")
	p.Until("b logs in.")
	bot.Type("toggle ready")
	bot.Until("ready to invite")
	p.Type("invite b 1")
	p.Until("** You invited b to a 1 point match.")
	bot.Until("Type 'join a' to accept.")
	bot.Type("join a")
	p.Until("** Player b has joined you for a 1 point match.")
	botEnd := make(chan string, 1)
	go func() { botEnd <- bot.Play() }()

	p.Until("You rolled 3, b rolled 1")
	p.Until("It's your turn to move.")
	p.Until("Please move 2 pieces.")
	p.Type("board")
	p.Until("   BAR: O-0 X-0   OFF: O-0 X-0   Cube: 1  You rolled 3 1.")
	for _, bad := range []struct{ move, answer string }{
		{"move 8-5", "** You must give 2 moves."},
		{"move 8-5 6-5 4-3", "** Please don't give more than 2 moves."},
		{"move 8-3 6-5", "** You can't move 5 points in your first move."},
		{"move 7-4 6-5", "** You can't move from 7 in your first move."},
		{"move 8 five", "** Usage: move FROM-TO ..."},
	} {
		p.Type(bad.move)
		p.Until(bad.answer)
	}
	p.move()
	var end string
	for end == "" {
		line := p.Until("")
		switch m := fibs.Parse(line); {
		case m.Kind == fibs.WinsMatch:
			end = line
		case m.Kind == fibs.PleaseMove:
			p.move()
		case m.Kind == fibs.RollOrDouble:
			p.Type("roll")
		case m.Kind == fibs.Error:
			t.Fatalf("the person got an error: %q", line)
		case strings.HasPrefix(line, "board:"):
			t.Fatalf("the person got a CLIP board in boardstyle 2: %q", line)
		}
	}
	if !strings.Contains(end, "1 point match 1-0") || !strings.Contains(<-botEnd, "1 point match 1-0") {
		t.Fatalf("match end: %q", end)
	}
	aWon := strings.HasPrefix(end, "You win")
	winA, loseB := fibsFormula(1500, 1500, 0, 0, 1)
	ra, rb := winA, loseB
	if !aWon {
		rb, ra = fibsFormula(1500, 1500, 0, 0, 1)
	}
	p.Type("rating")
	if got, want := p.Until("rating of a:"), fmt.Sprintf("rating of a: %.2f  experience: 1", ra); got != want {
		t.Fatalf("rating: %q, want %q", got, want)
	}
	p.Type("rating b")
	if got, want := p.Until("rating of b:"), fmt.Sprintf("rating of b: %.2f  experience: 1", rb); got != want {
		t.Fatalf("rating b: %q, want %q", got, want)
	}
	p.Type("who")
	row := p.Until(" b ")
	if f := strings.Fields(row); len(f) < 4 || f[2] != fmt.Sprintf("%.2f", rb) || f[3] != "1" {
		t.Fatalf("who row for b: %q, want rating %.2f and experience 1", row, rb)
	}
	bot.Type("rawwho")
	w := fibs.Parse(bot.Until("5 a "))
	if w.Kind != fibs.WhoInfo || math.Abs(w.Who.Rating-ra) > 0.005 || w.Who.Experience != 1 {
		t.Fatalf("CLIP who line for a: %+v, want rating %.2f experience 1", w.Who, ra)
	}
	t.Logf("a %s; ratings a %.2f, b %.2f", end, ra, rb)
}
