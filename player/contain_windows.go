package player

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// On Windows an engine is not contained: it gets a process group of its
// own only so that a Ctrl-C typed at the console does not reach it, and
// closing it kills the engine process alone. Processes the engine started
// itself are not killed with it, and nothing is recorded to find a
// crashed run's engines later (StopStale does nothing).

const tokenVar = "GAMEMILL_ENGINE_TOKEN"

var errNoContainment = errors.New("not supported on this system")

func sysProcAttr(*cgroup) *syscall.SysProcAttr {
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

type cgroup struct{ path string }

func newCgroup(string) (*cgroup, error)         { return nil, errNoContainment }
func (c *cgroup) destroy(time.Duration) error   { return errNoContainment }
func destroyCgroup(string, time.Duration) error { return errNoContainment }
func removeEmptyCgroups()                       {}
func killTokenHolders(string) []int             { return nil }
func processStart(int) (uint64, error)          { return 0, errNoContainment }
func processCPU(int) (time.Duration, error)     { return 0, errNoContainment }
func bootID() string                            { return "" }
