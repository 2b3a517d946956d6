package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One engine exactly: two of --builtin, --gnubg and a command, or a depth
// gnubg does not have, are usage errors (exit 2) that name the flags.
func TestOneEngine(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--user", "bot", "--password-file", pw, "--state-dir", t.TempDir()}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--builtin", "--level heuristic", "--gnubg", "0"}, "give one engine"},
		{[]string{"--gnubg", "0", "--", "myengine"}, "give one engine"},
		{[]string{"--gnubg", "8"}, "--gnubg 8: want 0 to 7 plies"},
		{nil, "give an engine"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append(base, c.args...), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}
