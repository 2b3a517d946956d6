package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/bgbot"
)

func TestTrainResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "n.bgnet")
	var stdout, stderr bytes.Buffer
	ctx := context.Background()
	if code := run(ctx, []string{"train", "--games", "20", "--hidden", "8", "--parallel", "2", "--sync", "5", "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if code := run(ctx, []string{"train", "--games", "10", "--resume", out, "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := bgbot.ParseWeights(data)
	if err != nil {
		t.Fatal(err)
	}
	if w.Games != 30 || w.Hidden != 8 {
		t.Errorf("games %d hidden %d, want 30 and 8", w.Games, w.Hidden)
	}
	if !strings.Contains(stdout.String(), "resuming") {
		t.Errorf("output: %s", stdout.String())
	}
	if code := run(ctx, []string{"train", "--resume", filepath.Join(t.TempDir(), "missing")}, nil, &stdout, &stderr); code != 1 {
		t.Errorf("missing checkpoint: exit %d, want 1", code)
	}
}

// --widen grows a checkpoint to layout 2 and more hidden units, --crashed
// gives it a crashed network, and the result trains and reads back.
func TestTrainWiden(t *testing.T) {
	dir := t.TempDir()
	small, wide := filepath.Join(dir, "s.bgnet"), filepath.Join(dir, "w.bgnet")
	var stdout, stderr bytes.Buffer
	ctx := context.Background()
	if code := run(ctx, []string{"train", "--games", "10", "--hidden", "8", "--workers", "1", "--out", small}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if code := run(ctx, []string{"train", "--games", "10", "--resume", small, "--widen", "--layout", "2", "--hidden", "12", "--crashed", "--workers", "1", "--out", wide}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	data, err := os.ReadFile(wide)
	if err != nil {
		t.Fatal(err)
	}
	w, err := bgbot.ParseWeights(data)
	if err != nil {
		t.Fatal(err)
	}
	if w.Layout != bgbot.LayoutV2 || w.Hidden != 12 || w.Games != 20 || w.Classes() != bgbot.ClassCrashed+1 {
		t.Errorf("layout %d hidden %d games %d classes %d, want 2, 12, 20, %d", w.Layout, w.Hidden, w.Games, w.Classes(), bgbot.ClassCrashed+1)
	}
	for _, args := range [][]string{
		{"train", "--widen", "--layout", "2"},                                   // no --resume
		{"train", "--layout", "5", "--games", "2"},                              // unknown layout
		{"train", "--resume", wide, "--widen", "--hidden", "4", "--games", "2"}, // narrowing
	} {
		if code := run(ctx, args, nil, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestDuelCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"duel", "--a", "heuristic", "--b", "random", "--games", "20"}, nil, &stdout, &stderr); code != 0 {
		t.Fatal(code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "20 games (10 duplicate pairs)") || !strings.Contains(stdout.String(), "95% interval") {
		t.Errorf("output: %s", stdout.String())
	}
}

// TestExitStatus checks the one convention: 2 for usage errors (bad
// flags, bad values, non-finite numbers), 1 for failures at run time, 0
// for --help.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.bgnet")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: bgtrain"},
		{[]string{"fly"}, 2, `unknown command "fly"`},
		{[]string{"train", "--bogus"}, 2, "unknown flag: --bogus\n\nusage: bgtrain train [flags]"},
		{[]string{"duel", "-j", "0"}, 2, "duel: --parallel must be at least 1"},
		{[]string{"duel", "--workers", "0"}, 2, "duel: --parallel must be at least 1"},
		{[]string{"train", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"train", "--games", "0"}, 2, "at least 1"},
		{[]string{"train", "--lambda", "1.5"}, 2, "--lambda"},
		{[]string{"train", "--alpha", "0"}, 2, "--alpha > 0"},
		{[]string{"train", "--input-rate", "0"}, 2, "--input-rate in (0, 1]"},
		{[]string{"train", "--revive"}, 2, "--revive needs --resume"},
		{[]string{"train", "--input-rate", "1.5"}, 2, "--input-rate in (0, 1]"},
		{[]string{"duel", "--a", "wizard"}, 2, "wizard"},
		{[]string{"duel", "--a-plies", "9"}, 2, "--a-plies"},
		{[]string{"duel", "--games", "3"}, 2, "--games 3: want an even number"},
		{[]string{"duel", "--games", "2"}, 2, "at least 4"},
		{[]string{"duel", "--games", "0"}, 2, "at least 4"},
		{[]string{"supervise", "--plies", "0"}, 2, "--plies 1.."},
		// Non-finite numbers are usage errors in every command, never a
		// panic: "--alpha nan" used to index the sigmoid table with NaN.
		{[]string{"train", "--games", "2", "--hidden", "4", "--alpha", "nan", "--out", out}, 2, "--alpha NaN: want a finite number"},
		{[]string{"train", "--games", "2", "--hidden", "4", "--alpha", "inf", "--out", out}, 2, "--alpha +Inf: want a finite number"},
		{[]string{"train", "--games", "2", "--hidden", "4", "--alpha-end", "nan", "--out", out}, 2, "--alpha-end NaN"},
		{[]string{"train", "--games", "2", "--hidden", "4", "--lambda", "nan", "--out", out}, 2, "--lambda NaN"},
		{[]string{"train", "--games", "2", "--hidden", "4", "--lambda", "-inf", "--out", out}, 2, "--lambda -Inf"},
		{[]string{"supervise", "--positions", "10", "--alpha", "nan", "--out", out}, 2, "--alpha NaN"},
		{[]string{"supervise", "--positions", "10", "--alpha-end", "inf", "--out", out}, 2, "--alpha-end +Inf"},
		{[]string{"train", "--resume", filepath.Join(dir, "missing")}, 1, "missing"},
		{[]string{"duel", "--a-weights", filepath.Join(dir, "missing"), "--games", "4"}, 1, "missing"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, nil, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("bgtrain %q: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused command wrote its weights file")
	}
	for _, args := range [][]string{{"--help"}, {"train", "--help"}, {"duel", "-h"}, {"supervise", "--help"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "usage: bgtrain") {
			t.Errorf("bgtrain %q: exit %d, stdout %q", args, code, stdout.String())
		}
	}
}
