package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/peertest"
)

// TestVerdictCommand has gnubg analyse the same record twice at 0 ply:
// both players appear with two records each, and a record judged twice
// gives the same rate with a zero-width interval.
func TestVerdictCommand(t *testing.T) {
	bin := peertest.Gnubg(t)
	f := "../../player/gnubg/verdict/testdata/gnubg-3pt-match.mat"
	stdout, stderr, code := runTool(t, "gnubg-verdict", "-q", "--plies", "0", "-j", "2", "--gnubg", bin, f, f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := regexp.MustCompile(`(?m)^(\S+)\s+2\s+(\d+)\s+([0-9.]+) \[\s*([0-9.]+),\s*([0-9.]+)\]`).FindAllStringSubmatch(stdout, -1)
	if len(rows) != 2 {
		t.Fatalf("want two player rows with 2 records each:\n%s", stdout)
	}
	for _, r := range rows {
		if r[3] != r[4] || r[3] != r[5] {
			t.Errorf("%s: rate %s with interval [%s, %s], want a zero-width interval", r[1], r[3], r[4], r[5])
		}
	}
	if _, stderr, code := runTool(t, "gnubg-verdict", "--plies", "9", f); code != 2 || !strings.Contains(stderr, "--plies") {
		t.Errorf("--plies 9: exit %d, %q", code, stderr)
	}
}
