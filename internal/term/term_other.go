//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd || windows)

package term

// IsTerminal reports false: this system has no terminal support here.
func IsTerminal(uintptr) bool { return false }

// Size returns ErrNotTerminal.
func Size(uintptr) (cols, rows int, err error) { return 0, 0, ErrNotTerminal }

// Cbreak returns ErrNotTerminal.
func Cbreak(uintptr) (restore func() error, err error) { return nil, ErrNotTerminal }
