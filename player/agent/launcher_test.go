package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// launcherVar, set in the environment of this test binary, makes it a
// stand-in ringmaster: it launches the agent whose command line the
// variable holds (JSON), prints the agent's Record as a JSON line and
// waits to be killed, never closing the agent.
const launcherVar = "GAMEMILL_AGENT_TEST_LAUNCHER"

func TestMain(m *testing.M) {
	if argv := os.Getenv(launcherVar); argv != "" {
		os.Exit(runLauncher(argv))
	}
	os.Exit(m.Run())
}

func runLauncher(argvJSON string) int {
	var argv []string
	if err := json.Unmarshal([]byte(argvJSON), &argv); err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		return 2
	}
	p, err := Launch(context.Background(), Options{Argv: argv, Stderr: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(p.Record()); err != nil {
		return 1
	}
	select {}
}
