// Package online holds the rules an engine playing on a backgammon server
// follows whatever the server (a FIBS-style one through
// protocol/fibs/bridge, bgammon.org through protocol/bgammon): how the
// server's and the players' names become file names, and how a beaver
// meets a server that has no beavers.
package online

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// FileName makes s (a host, a host:port, a player's name) safe in a file
// name: letters, digits, '.', '-' and '_' are kept and anything else (the
// ':' of host:port, a '/') becomes '_'; an empty s is "unknown".
func FileName(s string) string {
	if s == "" {
		return "unknown"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// ErrBeaverTaken marks an engine's beaver that the rules refused and that
// was answered as a take.
var ErrBeaverTaken = errors.New("taken instead")

// BeaverAsTake reads an engine's answer to a double for a server that has
// no beavers: a beaver the rules refused (the answer Beaver with an
// error, as bgcmd.Client.DecideAnswer gives it) is a take, returned with
// the refusal marked ErrBeaverTaken for the log. Any other answer or
// error passes through.
func BeaverAsTake(a backgammon.Answer, err error) (backgammon.Answer, error) {
	if err != nil && a == backgammon.Beaver {
		return backgammon.Take, fmt.Errorf("%w (%w)", err, ErrBeaverTaken)
	}
	return a, err
}
