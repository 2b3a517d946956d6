package player

import (
	"os/exec"
	"testing"
	"time"
)

// awaitExit returns once the child has exited, not before, and leaves it
// to be reaped: Wait still gets its exit status.
func TestAwaitExitLeavesTheChildToWait(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 0.3; exit 3")
	if err := cmd.Start(); err != nil {
		t.Skipf("no sh: %v", err)
	}
	returned := make(chan struct{})
	go func() {
		awaitExit(cmd.Process.Pid)
		close(returned)
	}()
	select {
	case <-returned:
		t.Fatal("awaitExit returned while the child runs")
	case <-time.After(100 * time.Millisecond):
	}
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("awaitExit did not return after the child exited")
	}
	err := cmd.Wait()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("wait after awaitExit: %v, state %v", err, cmd.ProcessState)
	}
}
