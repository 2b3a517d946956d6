//go:build unix

package ringmaster_test

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkOverheadFloor is the least a round trip can cost a controller
// on this machine: the genmove round trips of BenchmarkOverheadRoundTrip
// to the same fakego engine, written and read with plain blocking system
// calls on the pipes (no runtime poller, no controller, no parsing beyond
// finding the response's end). Beside BenchmarkOverheadRoundTrip it shows
// how much of a round trip is the ringmaster's and how much the kernel's
// (putting the waiting thread to sleep and waking it), which any referee
// pays.
//
// "syscall" blocks through syscall.Read and syscall.Write, which tell the
// Go scheduler about the blocking call (its monitor thread then hands the
// processor on); "raw" makes the same calls with syscall.RawSyscall, which
// the scheduler never sees: the thread just sleeps in the kernel, as a C
// program's does. Raw blocking is fine for a measurement and wrong for a
// program (the processor it holds cannot run anything else, nor stop for
// the garbage collector, until the engine answers).
func BenchmarkOverheadFloor(b *testing.B) {
	b.Run("syscall", func(b *testing.B) { benchFloor(b, syscall.Read, syscall.Write) })
	b.Run("raw", func(b *testing.B) { benchFloor(b, rawRead, rawWrite) })
}

func rawRead(fd int, p []byte) (int, error) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if e != 0 {
		return int(n), e
	}
	return int(n), nil
}

func rawWrite(fd int, p []byte) (int, error) {
	n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if e != 0 {
		return int(n), e
	}
	return int(n), nil
}

// benchFloor plays b.N genmove round trips to a fakego engine with read
// and write on its pipes' blocking descriptors.
func benchFloor(b *testing.B, read, write func(fd int, p []byte) (int, error)) {
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(fakeGo)
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	inR.Close()
	outW.Close()
	defer func() {
		inW.Close()
		cmd.Wait()
		outR.Close()
	}()
	// Fd puts the descriptors in blocking mode: reads and writes block in
	// the kernel, as a C or Python controller's do.
	in, out := int(inW.Fd()), int(outR.Fd())
	buf := make([]byte, 64<<10)
	roundTrip := func(line []byte) {
		for len(line) > 0 {
			n, err := write(in, line)
			if err != nil {
				b.Fatalf("write: %v", err)
			}
			line = line[n:]
		}
		got := 0
		for got < 2 || !bytes.HasSuffix(buf[:got], []byte("\n\n")) {
			n, err := read(out, buf[got:])
			if err != nil || n == 0 {
				b.Fatalf("read: %d %v", n, err)
			}
			got += n
		}
		if buf[0] != '=' {
			b.Fatalf("engine: %q", buf[:got])
		}
	}
	clear := []byte("clear_board\n")
	genmove := [2][]byte{[]byte("genmove b\n"), []byte("genmove w\n")}
	roundTrip([]byte("boardsize 9\n"))
	self0, _ := cpuTimes()
	b.ResetTimer()
	for i := range b.N {
		if i%100 == 0 {
			roundTrip(clear)
		}
		roundTrip(genmove[i%2])
	}
	b.StopTimer()
	self1, _ := cpuTimes()
	runtime.KeepAlive(inW)
	runtime.KeepAlive(outR)
	b.ReportMetric(float64(self1-self0)/float64(time.Microsecond)/float64(b.N), "floor-µs/roundtrip")
}
