//go:build !unix

package agent

import (
	"os"
	"syscall"
)

// sysProcAttr: no process group of its own where there are none.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the process pid.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Kill()
}
