//go:build unix

package player

import "syscall"

// killGroup sends SIGKILL to every process of the group pgid; an error
// wrapping syscall.ESRCH means none is left.
func killGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGKILL) }
