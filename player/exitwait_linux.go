package player

import (
	"os"

	"golang.org/x/sys/unix"
)

// awaitExit returns once the child process pid has exited, without
// reaping it, having waited on the runtime's poller through a pidfd. A
// goroutine blocked in wait(2) instead holds its processor in a system
// call, and for the first 10 ms of such a call the runtime's monitor
// thread wakes every 20 µs and more to check on it, at every engine
// start (docs/results/2026-11-28-ringmaster-overhead.md). Without pidfds
// (Linux before 5.10) it returns at once and the caller's wait blocks as
// before.
func awaitExit(pid int) {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// A pidfd reads as ready once its process has exited. rc.Read waits
	// on the poller while the function says it is not (and returns an
	// error at once where the poller cannot watch the descriptor).
	rc.Read(func(fd uintptr) bool {
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, 0)
		return err != nil && err != unix.EINTR || n > 0
	})
}
