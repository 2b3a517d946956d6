package gnubg

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr starts gnubg in a process group of its own, so that a
// Ctrl-C typed at the console does not reach it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup kills the process pid (Windows has no process groups to
// signal); an error wrapping syscall.ESRCH means it is gone.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return syscall.ESRCH
	}
	defer p.Release()
	if err := p.Kill(); err != nil {
		if errors.Is(err, os.ErrProcessDone) {
			return syscall.ESRCH
		}
		return err
	}
	return nil
}
