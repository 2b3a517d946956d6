//go:build unix

package gnubg

import "syscall"

// sysProcAttr starts gnubg in a process group of its own, which kill
// ends whole.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the process group pgid; an error wrapping
// syscall.ESRCH means none is left.
func killGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGKILL) }
