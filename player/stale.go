package player

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
)

// Record names a running engine well enough for a later run to find and
// stop what is left of it after this run died without closing it (killed
// with SIGKILL, say). The ringmaster stores each engine's Record while the
// engine runs and hands the records of a dead run to StopStale. It
// marshals to JSON.
type Record struct {
	PGID   int    `json:"pgid"`             // the engine's process id, which is also its process group id
	Start  uint64 `json:"start"`            // its start time in clock ticks since boot (0: unknown)
	Boot   string `json:"boot"`             // the boot the start time counts from
	Token  string `json:"token"`            // GAMEMILL_ENGINE_TOKEN, inherited by its descendants
	Cgroup string `json:"cgroup,omitempty"` // its cgroup v2 directory, if it had one
}

// cgroupPrefix starts the name of every engine's cgroup; StopStale removes
// no other directory.
const cgroupPrefix = "gamemill-engine-"

// Record returns what a later run needs to stop this engine's leftovers.
func (p *Process) Record() Record {
	r := Record{PGID: p.pid, Start: p.startTicks, Boot: p.boot, Token: p.token}
	if p.cg != nil {
		r.Cgroup = p.cg.path
	}
	return r
}

// StopStale stops what is left of engines recorded by a run that died. For
// each record it empties and removes the engine's cgroup, kills the
// engine's process group when the engine still runs (only when its pid
// still names the same process: the same boot and start time, so a reused
// pid is never signalled), and kills every process that inherited the
// engine's token (children that left the group with setsid). Last it
// removes every empty engine cgroup beside its own, which runs that died
// left behind. It returns how many processes it signalled, not counting
// those in cgroups, and an error for the records it could not clear.
func StopStale(records []Record) (int, error) {
	defer removeEmptyCgroups()
	var errs []error
	n := 0
	boot := bootID()
	for _, r := range records {
		if r.Cgroup != "" {
			if !strings.HasPrefix(filepath.Base(r.Cgroup), cgroupPrefix) || filepath.Clean(r.Cgroup) != r.Cgroup {
				errs = append(errs, fmt.Errorf("engine %d: %q is not an engine's cgroup", r.PGID, r.Cgroup))
			} else if err := destroyCgroup(r.Cgroup, killWait); err != nil {
				errs = append(errs, fmt.Errorf("engine %d: %w", r.PGID, err))
			}
		}
		if r.PGID > 1 && r.Start != 0 && r.Boot != "" && r.Boot == boot {
			if start, err := processStart(r.PGID); err == nil && start == r.Start {
				if err := killGroup(r.PGID); err == nil {
					n++
				} else if !errors.Is(err, syscall.ESRCH) {
					errs = append(errs, fmt.Errorf("engine %d: kill process group: %w", r.PGID, err))
				}
			}
		}
		n += len(killTokenHolders(r.Token))
	}
	return n, errors.Join(errs...)
}
