// Package term answers the few questions Gamemill's programs ask of a
// terminal: is this file descriptor one, how large is it, and can it hand
// over each key as it is typed. It builds on Linux, the BSDs and macOS
// (termios ioctls) and Windows (console modes); elsewhere nothing is a
// terminal.
package term

import "errors"

// ErrNotTerminal is returned for a file descriptor that is no terminal,
// and for every descriptor on a system without terminal support.
var ErrNotTerminal = errors.New("not a terminal")
