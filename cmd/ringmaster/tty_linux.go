package main

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := getTermios(f.Fd())
	return err == nil
}

func getTermios(fd uintptr) (*syscall.Termios, error) {
	var t syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t))); errno != 0 {
		return nil, errno
	}
	return &t, nil
}

func setTermios(fd uintptr, t *syscall.Termios) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(t))); errno != 0 {
		return errno
	}
	return nil
}

// watchCtrlX puts the terminal into non-canonical mode (keeping Ctrl-C as a
// signal) and reports each Ctrl-X typed. It does nothing when stdin is not
// a terminal. restore puts the terminal back; it is safe to call twice.
func watchCtrlX(stdin *os.File) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	old, err := getTermios(stdin.Fd())
	if err != nil {
		return ch, func() {}
	}
	raw := *old
	raw.Lflag &^= syscall.ICANON | syscall.ECHO
	raw.Cc[syscall.VMIN] = 1
	raw.Cc[syscall.VTIME] = 0
	if err := setTermios(stdin.Fd(), &raw); err != nil {
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
			setTermios(stdin.Fd(), old)
		}
	}
}
