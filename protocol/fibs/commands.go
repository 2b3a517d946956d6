package fibs

import (
	"fmt"
	"strconv"
	"strings"
)

// ClipVersion is the CLIP version a client announces at login.
const ClipVersion = 1008

// LoginCommand is the CLIP login line: "login CLIENT 1008 USER PASSWORD".
// It holds the password: never log it.
func LoginCommand(client, user, password string) string {
	return fmt.Sprintf("login %s %d %s %s", client, ClipVersion, user, password)
}

// Commands a client sends, in FIBS syntax.
const (
	CmdRoll   = "roll"
	CmdDouble = "double"
	CmdAccept = "accept"
	CmdReject = "reject"
	CmdJoin   = "join"
	CmdLeave  = "leave"
	CmdBoard  = "board"
	CmdWho    = "rawwho"
	CmdBye    = "bye"
)

// MoveCommand is "move 8-4 6-4"; a move of no steps is not sent (FIBS
// moves for a player who cannot move).
func MoveCommand(steps []Step) string { return "move " + FormatSteps(steps) }

// ResignCommand offers to resign a normal (n), gammon (g) or backgammon
// (b) game: level 1, 2 or 3.
func ResignCommand(level int) string {
	return "resign " + string("ngb"[min(max(level, 1), 3)-1])
}

// InviteCommand invites a player to a match of length points (0: unlimited;
// negative: resume the saved match).
func InviteCommand(user string, length int) string {
	switch {
	case length < 0:
		return "invite " + user
	case length == Unlimited:
		return "invite " + user + " unlimited"
	}
	return "invite " + user + " " + strconv.Itoa(length)
}

// JoinCommand accepts the invitation of user ("" for the next game).
func JoinCommand(user string) string {
	if user == "" {
		return CmdJoin
	}
	return CmdJoin + " " + user
}

// ToggleCommand flips a toggle ("ready", "double", ...).
func ToggleCommand(name string) string { return "toggle " + name }

// SetCommand sets a variable: "set boardstyle 3".
func SetCommand(name, value string) string { return "set " + name + " " + value }

// Command is a command line as a server reads it: its verb (lower case)
// and arguments.
type Command struct {
	Verb string
	Args []string
}

// ParseCommand splits a client line into verb and arguments.
func ParseCommand(line string) Command {
	f := strings.Fields(strings.TrimRight(line, "\r\n"))
	if len(f) == 0 {
		return Command{}
	}
	return Command{Verb: strings.ToLower(f[0]), Args: f[1:]}
}
