//go:build unix

package ringmaster

import (
	"errors"
	"os"
	"syscall"
)

// errLockBusy: another process holds the competition's lock.
var errLockBusy = errors.New("lock held by another process")

// tryLock takes an exclusive flock on f without waiting.
func tryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLockBusy
	}
	return err
}
