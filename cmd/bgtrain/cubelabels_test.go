package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// TestCubeLabels turns cube decisions into labels: the doublers'
// positions at or above --min-win, once each, with the decisions' own
// probabilities; decisions without probabilities are refused.
func TestCubeLabels(t *testing.T) {
	dir := t.TempDir()
	line := func(pos string, win float64, role, action string) string {
		return fmt.Sprintf(`{"file":"m.mat","game":1,"player":"x","role":%q,"length":5,"score":0,"opponent_score":0,"cube":1,"owner":"centre","position_id":%q,"no_double":0.5,"double_take":0.4,"double_pass":1,"action":%q,"error":0,"close":false,"probs":[%v,0.2,0.01,0.1,0.005]}`, role, pos, action, win)
	}
	text := strings.Join([]string{
		line("4HPwATDgc/ABMA", 0.52, "doubler", "no double"),
		line("4HPwATDgc/ABMA", 0.52, "doubler", "double"), // the same position again
		line("4HPwATDgc/ABMA", 0.52, "taker", "take"),
		line("sNvIDBDMbsIDIA", 0.45, "doubler", "no double"), // below --min-win
		line("pNvgBwDDnhkHAA", 0.8, "doubler", "no double"),
	}, "\n") + "\n"
	in := filepath.Join(dir, "cube.jsonl")
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "labels.bin")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"cubelabels", "--out", out, in}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := bgbot.ReadLabelled(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float32{"4HPwATDgc/ABMA": 0.52, "pNvgBwDDnhkHAA": 0.8}
	if len(data) != len(want) {
		t.Fatalf("%d labels, want %d: %s", len(data), len(want), stdout.String())
	}
	for _, l := range data {
		id := gnubgid.EncodePosition(l.Board)
		if w, ok := want[id]; !ok || l.Probs[bgbot.Win] != w || l.Probs[bgbot.WinGammon] != 0.2 || l.Probs[bgbot.LoseBackgammon] != 0.005 {
			t.Errorf("label %s %v", id, l.Probs)
		}
	}
	// A file from before the probabilities were recorded.
	noProbs := strings.Replace(line("pNvgBwDDnhkHAA", 0.8, "doubler", "no double"), `,"probs":[0.8,0.2,0.01,0.1,0.005]`, "", 1)
	if err := os.WriteFile(in, []byte(noProbs+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"cubelabels", "--out", out, in}, nil, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no probabilities") {
		t.Errorf("no probabilities: exit %d, %q", code, stderr.String())
	}
}
