package player

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// What Linux offers to keep an engine and everything it starts on a leash:
//
//   - Setpgid puts the engine in its own process group, which Close kills
//     (every child that stays in the group goes with it).
//   - Pdeathsig has the kernel SIGKILL the engine when the thread that
//     started it dies, so a ringmaster killed with SIGKILL takes its engines
//     along even when they ignore the end of their input.
//   - A cgroup v2 per engine, where the ringmaster may create one, holds
//     every descendant however it detaches (setsid, double fork); Close
//     empties it with cgroup.kill.
//   - Without a cgroup, the engine's environment carries a token
//     (GAMEMILL_ENGINE_TOKEN) that its descendants inherit; Close, and
//     StopStale in a later run, kill every process whose initial
//     environment holds it.

// tokenVar names the environment variable that marks an engine's
// descendants.
const tokenVar = "GAMEMILL_ENGINE_TOKEN"

// sysProcAttr returns the attributes of the engine process: its own
// process group, the parent-death signal and, when cg is set, its cgroup.
//
// Pdeathsig fires when the *thread* that forked the child exits, not the
// process. Launch therefore starts the engine from a goroutine locked to
// its OS thread that stays locked until the engine has been reaped, so the
// signal can only come from the death of the whole ringmaster.
func sysProcAttr(cg *cgroup) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if cg != nil {
		a.UseCgroupFD, a.CgroupFD = true, cg.dirFD
	}
	return a
}

// cgroup is one engine's cgroup v2 directory.
type cgroup struct {
	path  string
	dirFD int // the directory, open for CLONE_INTO_CGROUP
}

// closeDir closes the directory opened for CLONE_INTO_CGROUP.
func (c *cgroup) closeDir() { syscall.Close(c.dirFD) }

// newCgroup creates a cgroup for one engine below the ringmaster's own
// cgroup v2, or returns an error when there is no writable cgroup v2 (no
// cgroup2 mount, a v1-only system, no permission): the caller then runs
// without one.
func newCgroup(name string) (*cgroup, error) {
	base, err := ownCgroupDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(base, name)
	if err := os.Mkdir(path, 0o755); err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	// A plain open: os.Open would also try to register the directory
	// with the runtime's poller, four system calls more at each launch.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("cgroup: %w", &os.PathError{Op: "open", Path: path, Err: err})
	}
	return &cgroup{path: path, dirFD: fd}, nil
}

// cgroup2MountOnce is where the cgroup v2 hierarchy is mounted, looked up
// once: mountinfo is slow to read and the mount does not move while an
// engine runs, whereas the process's own cgroup is read at each launch.
var cgroup2MountOnce = sync.OnceValues(cgroup2Mount)

// ownCgroupDir returns the directory of this process's cgroup v2.
func ownCgroupDir() (string, error) {
	mount, err := cgroup2MountOnce()
	if err != nil {
		return "", err
	}
	data, err := readProcFile("/proc/self/cgroup")
	if err != nil {
		return "", fmt.Errorf("cgroup: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rel, ok := strings.CutPrefix(line, "0::"); ok {
			return filepath.Join(mount, filepath.Clean("/"+rel)), nil
		}
	}
	return "", errors.New("cgroup: this process is in no cgroup v2")
}

// cgroup2Mount finds where the cgroup v2 hierarchy is mounted.
func cgroup2Mount() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", fmt.Errorf("cgroup: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS...] - FSTYPE SOURCE SUPER
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, fs := strings.Fields(pre), strings.Fields(post)
		if ok && len(fields) >= 5 && len(fs) >= 1 && fs[0] == "cgroup2" {
			return unescapeMount(fields[4]), nil
		}
	}
	return "", errors.New("cgroup: no cgroup2 file system mounted")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// destroy kills every process in the cgroup and removes it, waiting up to
// wait for the processes to go.
func (c *cgroup) destroy(wait time.Duration) error {
	c.closeDir()
	// Mostly the engine and its children are gone already and the cgroup
	// is empty: removing it is then all there is to do. The kernel
	// refuses to remove a cgroup that still holds a process (EBUSY).
	if err := syscall.Rmdir(c.path); err == nil || errors.Is(err, syscall.ENOENT) {
		return nil
	}
	return destroyCgroup(c.path, wait)
}

func destroyCgroup(path string, wait time.Duration) error {
	if _, err := os.Stat(filepath.Join(path, "cgroup.procs")); err != nil {
		if os.IsNotExist(err) {
			return nil // gone already
		}
		return fmt.Errorf("cgroup %s: %w", path, err)
	}
	if err := os.WriteFile(filepath.Join(path, "cgroup.kill"), []byte("1"), 0); err != nil {
		// Before Linux 5.14 there is no cgroup.kill: kill what is listed.
		killListed(path)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Rmdir(path)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s: still busy %v after the kill: %w", path, wait, err)
		}
		killListed(path)
		time.Sleep(5 * time.Millisecond)
	}
}

// removeEmptyCgroups removes the empty engine cgroups beside this
// process's own, which engines of runs that died leave behind. The kernel
// refuses to remove a cgroup that holds a process, so a live engine's is
// kept; one that is empty but still owned by a live Process (made and not
// yet entered, or emptied and not yet closed) may go, which its Launch
// and Close take in their stride.
func removeEmptyCgroups() {
	base, err := ownCgroupDir()
	if err != nil {
		return
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), cgroupPrefix) {
			_ = os.Remove(filepath.Join(base, e.Name()))
		}
	}
}

// killListed SIGKILLs every process listed in the cgroup.
func killListed(path string) {
	data, _ := os.ReadFile(filepath.Join(path, "cgroup.procs"))
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// killTokenHolders SIGKILLs every process (but this one) whose initial
// environment holds tokenVar=token, and returns their pids. Processes of
// other users, whose environment cannot be read, are skipped.
func killTokenHolders(token string) []int {
	if token == "" {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(tokenVar + "=" + token)
	self := os.Getpid()
	var killed []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed = append(killed, pid)
				}
				break
			}
		}
	}
	return killed
}

// processStart returns the start time of pid in clock ticks since boot
// (field 22 of /proc/PID/stat), which with the boot id names a process
// for good: a pid can be reused, a (boot, pid, start) triple cannot.
func processStart(pid int) (uint64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may hold anything.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	fields := strings.Fields(string(data[i+1:]))
	// fields[0] is field 3 (the state); field 22 is fields[19].
	if len(fields) < 20 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(fields)+2)
	}
	if fields[0] == "Z" || fields[0] == "X" {
		return 0, fmt.Errorf("process %d: %w", pid, syscall.ESRCH)
	}
	return strconv.ParseUint(fields[19], 10, 64)
}

// bootID identifies the current boot of the machine, read once per
// process: it cannot change while the process runs.
var bootID = sync.OnceValue(readBootID)

func readBootID() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// userHZ is the unit of the CPU times in /proc/PID/stat: USER_HZ, 100 on
// every Linux the kernel's ABI allows.
const userHZ = 100

// processCPU returns the CPU time (user plus system, with that of the
// children it has waited for, as wait4 counts it) that the running
// process pid has used so far, from /proc/PID/stat, to 1/userHZ s.
func processCPU(pid int) (time.Duration, error) {
	data, err := readProcFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStatCPU(data)
}

// readProcFile reads a /proc file with plain system calls: os.ReadFile
// would also try, and fail, to put the file in the runtime's poller, four
// calls more at each engine's launch and at the end of each of its games.
func readProcFile(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// parseStatCPU reads fields 14 to 17 (utime, stime, cutime, cstime) of a
// /proc/PID/stat line.
func parseStatCPU(data []byte) (time.Duration, error) {
	// The command name, field 2, is in parentheses and may hold anything.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, errors.New("stat: no command name")
	}
	fields := strings.Fields(string(data[i+1:]))
	// fields[0] is field 3; field 14 is fields[11].
	if len(fields) < 15 {
		return 0, fmt.Errorf("stat: %d fields", len(fields)+2)
	}
	var ticks uint64
	for _, f := range fields[11:15] {
		n, err := strconv.ParseUint(f, 10, 41)
		if err != nil {
			return 0, fmt.Errorf("stat: cpu time %q: %w", f, err)
		}
		if ticks += n; ticks > 1<<40 { // centuries: not a real figure
			return 0, errors.New("stat: cpu time out of range")
		}
	}
	return time.Duration(ticks/userHZ)*time.Second + time.Duration(ticks%userHZ)*(time.Second/userHZ), nil
}
