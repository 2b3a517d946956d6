package term

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// IsTerminal reports whether fd is a console.
func IsTerminal(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}

// Size returns the console window's width and height in characters.
func Size(fd uintptr) (cols, rows int, err error) {
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(windows.Handle(fd), &info); err != nil {
		return 0, 0, fmt.Errorf("terminal size: %w", ErrNotTerminal)
	}
	return int(info.Window.Right-info.Window.Left) + 1, int(info.Window.Bottom-info.Window.Top) + 1, nil
}

// Cbreak turns off the console's line input and echo, keeping Ctrl-C as a
// signal (processed input), so that each key typed can be read at once.
// restore puts the console back as it was.
func Cbreak(fd uintptr) (restore func() error, err error) {
	h := windows.Handle(fd)
	var old uint32
	if err := windows.GetConsoleMode(h, &old); err != nil {
		return nil, ErrNotTerminal
	}
	mode := old&^(windows.ENABLE_LINE_INPUT|windows.ENABLE_ECHO_INPUT) | windows.ENABLE_PROCESSED_INPUT
	if err := windows.SetConsoleMode(h, mode); err != nil {
		return nil, fmt.Errorf("console mode: %w", err)
	}
	return func() error { return windows.SetConsoleMode(h, old) }, nil
}
