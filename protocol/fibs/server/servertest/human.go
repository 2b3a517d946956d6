// Package servertest drives a FIBS-style server from tests the way a
// person at a telnet prompt does: plain lines over TCP, read until an
// expected one comes, with the first legal move typed at each "Please
// move". The server's own tests and the fibsd command's share it.
package servertest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// Wait is how long Until waits for a line before the test fails.
const Wait = 10 * time.Second

// Human is one telnet-style connection to the server.
type Human struct {
	T    testing.TB
	Conn net.Conn
	R    *bufio.Reader
	Name string
	// Seen holds every line read so far (a test may reset it).
	Seen []string
	// Telnet holds the telnet commands the server sent (WILL, WONT, DO or
	// DONT and the option), as a telnet program takes them out of the text.
	Telnet [][2]byte
}

// Dial connects to addr; the connection is closed when the test ends.
func Dial(t testing.TB, addr string) *Human {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &Human{T: t, Conn: c, R: bufio.NewReader(c)}
}

// Type sends one line.
func (h *Human) Type(line string) {
	h.T.Helper()
	if _, err := io.WriteString(h.Conn, line+"\r\n"); err != nil {
		h.T.Fatalf("%s types %q: %v", h.Name, line, err)
	}
}

// Until reads lines until one contains want and returns it. A prompt
// ("login: ", "password: ") counts as a line although no line ending
// follows it.
func (h *Human) Until(want string) string {
	h.T.Helper()
	h.Conn.SetReadDeadline(time.Now().Add(Wait))
	var buf []byte
	for {
		b, err := h.R.ReadByte()
		if err != nil {
			h.T.Fatalf("%s waiting for %q: %v (last lines %q)", h.Name, want, err, Tail(h.Seen))
		}
		if b == 0xFF {
			cmd, err1 := h.R.ReadByte()
			opt, err2 := h.R.ReadByte()
			if err1 != nil || err2 != nil || cmd < 251 {
				h.T.Fatalf("%s: a telnet command the test client does not know: %d %d", h.Name, cmd, opt)
			}
			h.Telnet = append(h.Telnet, [2]byte{cmd, opt})
			continue
		}
		buf = append(buf, b)
		line := string(buf)
		if b == '\n' || line == "login: " || line == "password: " || line == "> " {
			line = strings.TrimRight(line, "\r\n")
			buf = buf[:0]
			h.Seen = append(h.Seen, line)
			if strings.Contains(line, want) {
				return line
			}
		}
	}
}

// UntilLine reads lines until one equals want.
func (h *Human) UntilLine(want string) {
	h.T.Helper()
	for h.Until(want) != want {
	}
}

// Tail is the last 8 of lines, for failure messages.
func Tail(lines []string) []string {
	if len(lines) > 8 {
		return lines[len(lines)-8:]
	}
	return lines
}

// Login logs in with CLIP as name, whose password is "p"+name, and reads
// up to the end of the who list.
func (h *Human) Login(name string) {
	h.T.Helper()
	h.Name = name
	h.Until("login: ")
	h.Type(fibs.LoginCommand("telnet", name, "p"+name))
	h.Until("1 " + name + " ")
	h.UntilLine("6")
}

// Invite starts a match of length points between inviter and invitee,
// both logged in: the invitee becomes ready, the inviter invites, the
// invitee joins. It returns when the invitee has heard the match start.
func Invite(inviter, invitee *Human, length int) {
	inviter.T.Helper()
	invitee.Type("toggle ready")
	invitee.Until("** You're now ready to invite or join someone.")
	inviter.Type(fmt.Sprintf("invite %s %d", invitee.Name, length))
	invitee.Until(fmt.Sprintf("Type 'join %s' to accept.", inviter.Name))
	invitee.Type("join " + inviter.Name)
	invitee.Until("** You are now playing a")
}

// Play answers prompts until the match ends and returns the match-end
// line.
func (h *Human) Play() string {
	h.T.Helper()
	return h.PlayUntil(fibs.WinsMatch)
}

// PlayUntil answers the server as a person would (roll, join the next
// game, take every double, the first legal move of the last board) until
// a line of one of the kinds comes; it returns that line unanswered. An
// error line fails the test.
func (h *Human) PlayUntil(stop ...fibs.Kind) string {
	h.T.Helper()
	var board string
	for {
		line := h.Until("")
		m := fibs.Parse(line)
		if slices.Contains(stop, m.Kind) {
			return line
		}
		switch m.Kind {
		case fibs.Board:
			board = line
		case fibs.PleaseMove:
			h.Type(h.FirstLegal(board))
		case fibs.RollOrDouble:
			h.Type("roll")
		case fibs.JoinNextGame:
			h.Type("join")
		case fibs.Doubles:
			if m.Name != fibs.You {
				h.Type("accept")
			}
		case fibs.Error:
			h.T.Fatalf("%s got an error: %q", h.Name, line)
		}
	}
}

// FirstMove reads up to "Please move" and answers with the first legal
// move of the last board.
func (h *Human) FirstMove() {
	h.T.Helper()
	h.PlayUntil(fibs.PleaseMove)
	h.Type(h.FirstLegal(h.lastBoard()))
}

func (h *Human) lastBoard() string {
	for i := len(h.Seen) - 1; i >= 0; i-- {
		if fibs.Parse(h.Seen[i]).Kind == fibs.Board {
			return h.Seen[i]
		}
	}
	h.T.Fatalf("%s: no board before %q", h.Name, Tail(h.Seen))
	return ""
}

// FirstLegal is the move command of the first legal move on a CLIP board
// line.
func (h *Human) FirstLegal(board string) string {
	h.T.Helper()
	b, err := fibsboard.Parse(board)
	if err != nil {
		h.T.Fatalf("%s: board %q: %v", h.Name, board, err)
	}
	st, _, err := b.ToState(bg.Rules{Cube: true})
	if err != nil {
		h.T.Fatalf("%s: board %q: %v", h.Name, board, err)
	}
	return fibs.MoveCommand(fibs.FromMove(st.LegalMoves()[0], b.Direction))
}
