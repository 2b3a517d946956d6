package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgammon"
	"github.com/gamemill/gamemill/protocol/bgammon/bgammontest"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// bgammonOpponent joins matches on srv with bgbot and plays one.
func bgammonOpponent(ctx context.Context, t *testing.T, addr string) chan error {
	t.Helper()
	var f gtpengine.Factory
	srv, err := f.Server([]string{"--level", "heuristic"})
	if err != nil {
		t.Fatal(err)
	}
	pl := player.NewInProcess(srv, player.WithTimeout(time.Minute))
	t.Cleanup(func() { pl.Close() })
	d := bgammon.NewDriver(bgammon.Options{
		Server: addr, Login: bgammon.Login{Client: "test/en", User: "rival", Password: "x"},
		Policy: bgammon.Policy{Join: true}, Matches: 1, ListEvery: 50 * time.Millisecond,
	}, bgammon.CommandEngine{C: bgcmd.NewClient(pl)})
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	return done
}

// fibsbridge with a bgammon+ address creates a 3-point match, plays it
// against an opponent over TCP and over WebSocket, writes its record to
// --records (nothing in the working directory) and exits 0 after
// --matches 1.
func TestBgammonFibsbridgePlaysAMatch(t *testing.T) {
	for _, via := range []string{"tcp", "ws"} {
		t.Run(via, func(t *testing.T) {
			srv, err := bgammontest.Start(bgammontest.Options{Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			addr := srv.TCPAddr()
			if via == "ws" {
				addr = srv.WSAddr()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			opp := bgammonOpponent(ctx, t, addr)
			dir := t.TempDir()
			pw := filepath.Join(dir, "pw")
			if err := os.WriteFile(pw, []byte("secret word\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			records := filepath.Join(dir, "records")
			cwdBefore, _ := os.ReadDir(".")
			var stdout, stderr bytes.Buffer
			code := run([]string{"--server", addr, "--user", "bot", "--password-file", pw,
				"--create", "3", "--matches", "1", "--records", records, "--state-dir", dir,
				"--builtin", "--level heuristic"}, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			if err := <-opp; err != nil {
				t.Fatalf("opponent: %v", err)
			}
			files, _ := filepath.Glob(filepath.Join(records, "*.mat"))
			if len(files) != 1 {
				t.Fatalf("records: %q\n%s", files, stderr.String())
			}
			f, err := os.Open(files[0])
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := mat.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := record.Replay(m); err != nil {
				t.Fatalf("record: %v", err)
			}
			if sc := m.FinalScore(); m.MatchLength != 3 || (sc[0] < 3 && sc[1] < 3) {
				t.Fatalf("record: length %d, score %v", m.MatchLength, sc)
			}
			if strings.Contains(stderr.String(), "secret") {
				t.Errorf("the password was logged")
			}
			if cwdAfter, _ := os.ReadDir("."); len(cwdAfter) != len(cwdBefore) {
				t.Errorf("files written in the working directory")
			}
		})
	}
}

// The FIBS-only flags and a missing policy are usage errors on bgammon.
func TestBgammonFibsbridgeUsage(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{
		{},
		{"--create", "3", "--join"},
		{"--create", "3", "--accept", "all"},
		{"--create", "500"},
	} {
		args := append([]string{"--server", "bgammon+tcp://127.0.0.1:1", "--user", "bot", "--password-file", pw,
			"--state-dir", dir, "--builtin", "--level heuristic"}, extra...)
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", extra, code, stderr.String())
		}
	}
}
