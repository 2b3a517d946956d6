//go:build !linux && !windows

package player

import (
	"errors"
	"syscall"
	"time"
)

// Elsewhere than Linux an engine gets its own process group and nothing
// more: no parent-death signal, no cgroup, no /proc to find its
// descendants or check a recorded process's identity.

const tokenVar = "GAMEMILL_ENGINE_TOKEN"

var errNoContainment = errors.New("not supported on this system")

func sysProcAttr(*cgroup) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

type cgroup struct{ path string }

func newCgroup(string) (*cgroup, error)         { return nil, errNoContainment }
func (c *cgroup) destroy(time.Duration) error   { return errNoContainment }
func destroyCgroup(string, time.Duration) error { return errNoContainment }
func removeEmptyCgroups()                       {}
func killTokenHolders(string) []int             { return nil }
func processStart(int) (uint64, error)          { return 0, errNoContainment }
func processCPU(int) (time.Duration, error)     { return 0, errNoContainment }
func bootID() string                            { return "" }
