package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
)

// benchset writes a set that benchmark reads and scores; bad flags and a
// damaged set are errors with the right exit status.
func TestBenchsetAndBenchmark(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set.txt")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"benchset", "--positions", "3", "--trials", "36", "--workers", "2", "--out", set}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("benchset: exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(set)
	if err != nil {
		t.Fatal(err)
	}
	positions, err := benchset.Read(f)
	f.Close()
	if err != nil || len(positions) != 3 {
		t.Fatalf("read %d positions: %v", len(positions), err)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"benchmark", "--set", set, "--plies", "1"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("benchmark: exit %d: %s", code, stderr.String())
	}
	def, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "embedded weights at 1 ply") || !regexp.MustCompile(`(?m)^all +3 `).MatchString(stdout.String()) ||
		!regexp.MustCompile(fmt.Sprintf(`hidden units in use .*: contact \d+/%d`, def.Hidden)).MatchString(stdout.String()) ||
		!regexp.MustCompile(`(?m)^  doubles \d+\.\d\d \(\d+ wrong, \d+ missed\), takes .*, redoubles \d+\.\d\d$`).MatchString(stdout.String()) {
		t.Errorf("benchmark printed:\n%s", stdout.String())
	}
	if err := os.WriteFile(set, []byte("4HPwATDgc/ABMA 0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"benchmark", "--set", set}, 1, "set.txt: line 1: 2 fields"},
		{[]string{"benchmark", "--plies", "9"}, 2, "--plies must be within"},
		{[]string{"benchset", "--trials", "0"}, 2, "must be at least 1"},
	} {
		stderr.Reset()
		if code := run(context.Background(), c.args, nil, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}

// makepruner writes a pruner that bgbot reads; bad flags are usage errors.
func TestMakePruner(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.bgpr")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"makepruner", "--positions", "300", "--hidden", "4", "--epochs", "1", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("makepruner: exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bgbot.ParsePruner(data); err != nil || !strings.Contains(stdout.String(), "4 hidden units") {
		t.Errorf("pruner file: %v; printed %q", err, stdout.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"makepruner", "--hidden", "0"}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("--hidden 0: exit %d (%s)", code, stderr.String())
	}
}
