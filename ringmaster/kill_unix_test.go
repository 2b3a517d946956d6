package ringmaster_test

import (
	"math/rand/v2"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// killRuns starts the ringmaster on ctl again and again, killing it with
// SIGKILL after a random delay n times, then lets a last run finish.
// It returns how many kills landed while the process was still running.
func killRuns(t *testing.T, ctl string, n int) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(2026, 11))
	landed := 0
	for i := 0; i < n; i++ {
		cmd := exec.Command(ringmasterBin, "run", ctl, "-q", "-j", "2")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		delay := time.Duration(30+rng.IntN(400)) * time.Millisecond
		select {
		case <-done:
			// Finished before the kill: nothing more to test in this round.
		case <-time.After(delay):
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			landed++
		}
	}
	out, err := exec.Command(ringmasterBin, "run", ctl, "-q", "-j", "2").CombinedOutput()
	if err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	return landed
}
