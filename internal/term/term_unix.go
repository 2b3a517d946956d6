//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package term

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// IsTerminal reports whether fd is a terminal.
func IsTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
	return err == nil
}

// Size returns the terminal's width and height in characters.
func Size(fd uintptr) (cols, rows int, err error) {
	ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	if err != nil {
		return 0, 0, fmt.Errorf("terminal size: %w", ErrNotTerminal)
	}
	return int(ws.Col), int(ws.Row), nil
}

// Cbreak puts the terminal fd into character-at-a-time mode without echo,
// keeping Ctrl-C and Ctrl-Z as signals, so that each key typed can be read
// at once. restore puts the terminal back as it was.
func Cbreak(fd uintptr) (restore func() error, err error) {
	old, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
	if err != nil {
		return nil, ErrNotTerminal
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO
	raw.Cc[unix.VMIN] = 1
	raw.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(int(fd), ioctlSetTermios, &raw); err != nil {
		return nil, fmt.Errorf("terminal mode: %w", err)
	}
	return func() error { return unix.IoctlSetTermios(int(fd), ioctlSetTermios, old) }, nil
}
