package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/bridge"
)

// TestLoad puts 200 connections on one fibsd: 100 idle logged-in users
// and 50 bot-versus-bot 3-point matches played at once by in-process
// bridges driving bgbot (heuristic level). It reports matches per minute
// and the server's peak memory. Set GAMEMILL_FIBS_LOAD=1 to run it.
func TestLoad(t *testing.T) {
	if os.Getenv("GAMEMILL_FIBS_LOAD") == "" {
		t.Skip("load test: set GAMEMILL_FIBS_LOAD=1")
	}
	const idle, pairs, length = 100, 50, 3
	f := startFibsdArgs(t, []string{"--register", "--bcrypt-cost", "4", "--address-attempts", "10000",
		"--address-registrations", "10000", "--address-conns", "10000"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for i := 0; i < idle; i++ {
		conn, err := fibs.Dial(ctx, f.tcp)
		if err != nil {
			t.Fatal(err)
		}
		s := fibs.NewSession(conn, fibs.SessionOptions{})
		defer s.Close()
		if _, err := s.Login(ctx, "load", fmt.Sprintf("idle%d", i), "pw"); err != nil {
			t.Fatal(err)
		}
		go func() { // drain
			for {
				if _, err := s.Next(ctx); err != nil {
					return
				}
			}
		}()
	}
	var factory gtpengine.Factory
	dir := t.TempDir()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 2*pairs)
	for i := 0; i < pairs; i++ {
		for side := 0; side < 2; side++ {
			user := fmt.Sprintf("p%d%c", i, "ab"[side])
			o := bridge.Options{Server: f.tcp, User: user, Password: "pw", Client: "load", Accept: []string{"all"},
				Matches: 1, Records: filepath.Join(dir, user), StateFile: filepath.Join(dir, user+".json"), MaxBackoff: time.Second}
			if side == 1 {
				o.Invite, o.InviteLen = fmt.Sprintf("p%da", i), length
			}
			srv, err := factory.Server([]string{"--level", "heuristic"})
			if err != nil {
				t.Fatal(err)
			}
			pl := player.NewInProcess(srv)
			defer pl.Close()
			b := bridge.New(o, bgcmd.NewClient(pl), log.New(io.Discard, "", 0))
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := b.Run(ctx); err != nil {
					errs <- fmt.Errorf("%s: %w", user, err)
				}
			}()
		}
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	files, _ := filepath.Glob(filepath.Join(f.dir, "server", "*.mat"))
	if len(files) != pairs {
		t.Fatalf("%d matches finished, want %d", len(files), pairs)
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", f.pid))
	hwm := regexp.MustCompile(`VmHWM:\s+(\d+ kB)`).FindSubmatch(status)
	peak := "unknown"
	if hwm != nil {
		peak = string(hwm[1])
	}
	t.Logf("%d idle + %d playing connections; %d %d-point matches in %v: %.1f matches/minute; fibsd peak RSS %s",
		idle, 2*pairs, pairs, length, elapsed.Round(time.Millisecond), float64(pairs)/elapsed.Minutes(), strings.TrimSpace(peak))
}
