package main

import (
	"io"
	"os"

	"github.com/gamemill/gamemill/internal/term"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// watchCtrlX puts the terminal into character-at-a-time mode without echo
// (keeping Ctrl-C as a signal) and reports each Ctrl-X typed. Where stdin
// is not a terminal (a pipe, a file, a system without terminal support)
// there are no live keys: it reports nothing. restore puts the terminal
// back; it is safe to call twice.
func watchCtrlX(stdin *os.File) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	restoreTerm, err := term.Cbreak(stdin.Fd())
	if err != nil {
		return ch, func() {}
	}
	go func() {
		buf := make([]byte, 16)
		for {
			n, err := stdin.Read(buf)
			if err != nil {
				return
			}
			for _, b := range buf[:n] {
				if b == 0x18 { // Ctrl-X
					select {
					case ch <- struct{}{}:
					default:
					}
				}
			}
		}
	}()
	restored := false
	return ch, func() {
		if !restored {
			restored = true
			restoreTerm()
		}
	}
}
