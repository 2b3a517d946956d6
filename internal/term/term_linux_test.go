package term

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the terminal side is what a
// program run in a terminal window sees.
func openPTY(t *testing.T) (master, terminal *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pty number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

func TestIsTerminal(t *testing.T) {
	_, tty := openPTY(t)
	if !IsTerminal(tty.Fd()) {
		t.Error("a pseudo-terminal is not a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, file := range map[string]*os.File{"a file": f, "a pipe": w} {
		if IsTerminal(file.Fd()) {
			t.Errorf("%s is a terminal", name)
		}
		if _, _, err := Size(file.Fd()); err == nil {
			t.Errorf("%s has a terminal size", name)
		}
		if _, err := Cbreak(file.Fd()); err == nil {
			t.Errorf("%s went into cbreak mode", name)
		}
	}
}

func TestSize(t *testing.T) {
	_, tty := openPTY(t)
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: 80, Row: 24}); err != nil {
		t.Fatal(err)
	}
	if cols, rows, err := Size(tty.Fd()); cols != 80 || rows != 24 || err != nil {
		t.Errorf("Size = %d, %d, %v; want 80, 24", cols, rows, err)
	}
}

// TestCbreak: a key typed reaches the reader at once, without a newline
// and without being echoed; Ctrl-C stays a signal; restore brings the
// line discipline back.
func TestCbreak(t *testing.T) {
	master, tty := openPTY(t)
	restore, err := Cbreak(tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if tio.Lflag&(unix.ICANON|unix.ECHO) != 0 || tio.Lflag&unix.ISIG == 0 {
		t.Errorf("cbreak lflag %#x: want ICANON and ECHO off, ISIG on", tio.Lflag)
	}
	if _, err := master.Write([]byte{0x18}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := tty.Read(buf); err != nil || n != 1 || buf[0] != 0x18 {
		t.Errorf("read %q, %v; want the one Ctrl-X", buf[:n], err)
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if tio, err = unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS); err != nil || tio.Lflag&unix.ICANON == 0 {
		t.Errorf("after restore: lflag %#x, %v; want ICANON back", tio.Lflag, err)
	}
}
