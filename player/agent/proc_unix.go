//go:build unix

package agent

import "syscall"

// sysProcAttr starts the agent in a process group of its own, which
// killGroup ends whole.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the process group pgid.
func killGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGKILL) }
