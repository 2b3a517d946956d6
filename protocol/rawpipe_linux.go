package protocol

import (
	"io"
	"syscall"
	"unsafe"
)

// rawPipe reads from or writes to a non-blocking pipe through its
// syscall.RawConn with raw system calls, which never block on such a
// descriptor: the runtime's poller still does the waiting (and honours
// the file's deadlines), but a command's write and its response's read
// do not enter the scheduler's system-call path. That path wakes the
// runtime's monitor thread whenever the process was idle, which is every
// time it waits for an engine: one thread wake-up more per command.
type rawPipe struct {
	rc syscall.RawConn

	// the current call's buffer and result, so that the functions given
	// to rc (made once) capture nothing per call
	p      []byte
	n      int
	err    error
	readFn func(fd uintptr) bool
	wrFn   func(fd uintptr) bool
}

// rawPipeOf returns a reader and writer over f's raw descriptor, or f
// itself where it has none.
func rawPipeOf(f any) any {
	sc, ok := f.(interface {
		SyscallConn() (syscall.RawConn, error)
	})
	if !ok {
		return f
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return f
	}
	r := &rawPipe{rc: rc}
	r.readFn = r.readOnce
	r.wrFn = r.writeOnce
	return r
}

func (r *rawPipe) readOnce(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(unsafe.SliceData(r.p))), uintptr(len(r.p)))
		switch e {
		case 0:
			r.n = int(n)
			if n == 0 {
				r.err = io.EOF
			}
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait until readable
		}
		r.err = e
		return true
	}
}

// Read reads at most len(p) bytes, waiting until some are there.
func (r *rawPipe) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p, r.n, r.err = p, 0, nil
	err := r.rc.Read(r.readFn)
	n, rerr := r.n, r.err
	r.p = nil
	if err != nil {
		return n, err
	}
	return n, rerr
}

func (r *rawPipe) writeOnce(fd uintptr) bool {
	for len(r.p) > 0 {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(r.p))), uintptr(len(r.p)))
		switch e {
		case 0:
			r.n += int(n)
			r.p = r.p[n:]
			continue
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait until writable
		}
		r.err = e
		return true
	}
	return true
}

// Write writes all of p, waiting while the pipe is full.
func (r *rawPipe) Write(p []byte) (int, error) {
	r.p, r.n, r.err = p, 0, nil
	err := r.rc.Write(r.wrFn)
	n, werr := r.n, r.err
	r.p = nil
	if err != nil {
		return n, err
	}
	return n, werr
}
