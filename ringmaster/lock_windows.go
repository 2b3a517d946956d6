package ringmaster

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// errLockBusy: another process holds the competition's lock.
var errLockBusy = errors.New("lock held by another process")

// tryLock locks one byte of f far beyond any data without waiting.
// Windows locks are mandatory, so the byte is one SQLite never reads or
// locks itself (its lock bytes sit at 1 GiB). Windows drops the lock when
// the process dies, as flock does.
func tryLock(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: 0x7fffffff}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLockBusy
	}
	return err
}
