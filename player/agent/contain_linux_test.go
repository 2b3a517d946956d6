package agent

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gamemill/gamemill/internal/proctest"
	"github.com/gamemill/gamemill/player"
)

// startLauncher runs this test binary as a stand-in ringmaster that
// launches the agent argv, and returns it and the agent's Record.
func startLauncher(t *testing.T, argv ...string) (*exec.Cmd, player.Record) {
	t.Helper()
	arg, err := json.Marshal(argv)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), launcherVar+"="+string(arg))
	var r player.Record
	proctest.StartLauncher(t, cmd, &r)
	proctest.KillAtEnd(t, r.PGID)
	return cmd, r
}

// An agent that never reads its input used to outlive a ringmaster killed
// with SIGKILL; started as an engine is, it dies with the ringmaster.
func TestKilledRingmasterTakesAgentAlong(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	cmd, r := startLauncher(t, sleep, "60")
	if r.PGID <= 0 || r.Token == "" {
		t.Fatalf("incomplete record %+v", r)
	}
	if proctest.Gone(r.PGID) {
		t.Fatal("agent not running before the kill")
	}
	proctest.KillLauncher(t, cmd)
	proctest.WaitGone(t, r.PGID)
	if r.Cgroup != "" {
		if _, err := player.StopStale([]player.Record{r}); err != nil {
			t.Errorf("StopStale: %v", err)
		}
	}
}

// What an agent started and took out of its process group (setsid)
// survives the ringmaster's death; the next run stops it from the agent's
// Record.
func TestStopStaleStopsAgentLeftovers(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	cmd, r := startLauncher(t, sh, "-c", `"$0" sleep 60 & echo $! > "$1"; exec sleep 60`, setsid, pidFile)
	child := proctest.ReadPid(t, pidFile)
	proctest.KillAtEnd(t, child)
	proctest.KillLauncher(t, cmd)
	proctest.WaitGone(t, r.PGID)
	time.Sleep(50 * time.Millisecond)
	if proctest.Gone(child) {
		t.Fatal("the setsid child died with the agent: nothing left to test")
	}
	if _, err := player.StopStale([]player.Record{r}); err != nil {
		t.Fatalf("StopStale: %v", err)
	}
	proctest.WaitGone(t, child)
}
