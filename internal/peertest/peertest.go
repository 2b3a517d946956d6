// Package peertest finds the real peer programs (gnubg, GNU Go) that
// integration tests talk to. A missing peer skips the test, unless
// GAMEMILL_REQUIRE_PEERS=1, when it fails it: CI installs the peers and must
// never pass by skipping.
package peertest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/internal/progpath"
)

// Gnubg returns the path of the gnubg binary or skips (or fails) the test.
func Gnubg(t testing.TB) string {
	return find(t, "gnubg")
}

// GnuGo returns the path of the gnugo binary or skips (or fails) the test.
func GnuGo(t testing.TB) string {
	return find(t, "gnugo")
}

// Python3 returns the path of python3 (the example agents' interpreter)
// or skips (or fails) the test.
func Python3(t testing.TB) string {
	return find(t, "python3")
}

// Script returns the path of script(1), which gives a program a terminal
// (gnubg prints rollouts only to one), or skips (or fails) the test.
func Script(t testing.TB) string {
	return findIn(t, "script", "bsdutils")
}

func find(t testing.TB, name string) string {
	t.Helper()
	return findIn(t, name, name)
}

// findIn finds the program name, which the Debian package pkg installs.
func findIn(t testing.TB, name, pkg string) string {
	t.Helper()
	if p, err := progpath.Find(name); err == nil {
		return p
	}
	if os.Getenv("GAMEMILL_REQUIRE_PEERS") == "1" {
		t.Fatalf("peer %s not found and GAMEMILL_REQUIRE_PEERS=1 (install it: apt-get install -y %s)", name, pkg)
	}
	t.Skipf("peer %s not found; install it (apt-get install -y %s) to run this test", name, pkg)
	return ""
}

// RunGnubg feeds a command script to gnubg in text mode (`gnubg -t -q -r`,
// in a fresh temporary directory) and returns everything it printed.
func RunGnubg(t testing.TB, script string) string {
	t.Helper()
	bin := Gnubg(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-t", "-q", "-r")
	cmd.Stdin = strings.NewReader(script)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gnubg: %v\n%s", err, out)
	}
	return string(out)
}
