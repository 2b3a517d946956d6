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
	if err := run(ctx, []string{"train", "--games", "20", "--hidden", "8", "--workers", "2", "--sync", "5", "--out", out}, &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	if err := run(ctx, []string{"train", "--games", "10", "--resume", out, "--out", out}, &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
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
	if err := run(ctx, []string{"train", "--resume", filepath.Join(t.TempDir(), "missing")}, &stdout, &stderr); err == nil {
		t.Error("missing checkpoint accepted")
	}
}

func TestDuelCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"duel", "--a", "heuristic", "--b", "random", "--games", "20"}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "20 games (10 duplicate pairs)") || !strings.Contains(stdout.String(), "95% interval") {
		t.Errorf("output: %s", stdout.String())
	}
	if err := run(context.Background(), []string{"duel", "--a", "wizard"}, &stdout, &stderr); err == nil {
		t.Error("unknown level accepted")
	}
	if err := run(context.Background(), []string{"fly"}, &stdout, &stderr); err == nil {
		t.Error("unknown command accepted")
	}
}
