package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServe starts bgbot serve on a free loopback port, asks it for the
// opening 31, and stops it with SIGINT (exit status 0).
func TestServe(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--http", "127.0.0.1:0", "--workers", "1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no address line: %v; stderr %s", err, stderr.String())
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "bgbot: serving ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("address line %q", line)
	}
	resp, err := http.Post(url+"/move", "application/json", strings.NewReader(`{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "dice": [3,1]}`))
	if err != nil {
		t.Fatal(err)
	}
	var move struct{ Move string }
	err = json.NewDecoder(resp.Body).Decode(&move)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || move.Move != "8/5 6/5" {
		t.Errorf("/move: status %d, move %q, %v", resp.StatusCode, move.Move, err)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGINT: %v; stderr %s", err, stderr.String())
	}
}

// TestServeExitStatus checks serve's usage errors (2) and --help (0).
func TestServeExitStatus(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "8080"}, "--http"},
		{[]string{"serve", "--max-plies", "4"}, "--max-plies 4"},
		{[]string{"serve", "--timeout", "0s"}, "--timeout"},
		{[]string{"serve", "--max-body", "0"}, "--max-body"},
		{[]string{"serve", "--bearoff2", "9"}, "--bearoff2 9"},
		{[]string{"serve", "stray"}, `unexpected argument "stray"`},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), c.args, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) || !strings.Contains(stderr.String(), "usage: bgbot serve") {
			t.Errorf("bgbot %q: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"serve", "--help"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "--http") {
		t.Errorf("serve --help: exit %d, stdout %q", code, stdout.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"--help"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "bgbot serve") {
		t.Errorf("--help does not name bgbot serve: exit %d, stdout %q", code, stdout.String())
	}
}
