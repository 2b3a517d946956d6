package peertest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// GTP is a GNU Go process in GTP mode that a test talks to directly.
type GTP struct {
	t   testing.TB
	in  io.WriteCloser
	out *bufio.Reader
}

// StartGnuGo starts `gnugo --mode gtp ARGS...` (skipping or failing the
// test as GnuGo does when it is missing) and stops it when the test ends.
func StartGnuGo(t testing.TB, args ...string) *GTP {
	t.Helper()
	bin := GnuGo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	cmd := exec.CommandContext(ctx, bin, append([]string{"--mode", "gtp"}, args...)...)
	cmd.Dir = t.TempDir()
	in, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start gnugo: %v", err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
		cancel()
	})
	return &GTP{t: t, in: in, out: bufio.NewReader(out)}
}

// Do sends one command and returns the response without its '=' or '?',
// and whether it was a success.
func (g *GTP) Do(format string, args ...any) (string, bool) {
	g.t.Helper()
	cmd := fmt.Sprintf(format, args...)
	if _, err := fmt.Fprintln(g.in, cmd); err != nil {
		g.t.Fatalf("gnugo %s: %v", cmd, err)
	}
	var lines []string
	for {
		line, err := g.out.ReadString('\n')
		if err != nil {
			g.t.Fatalf("gnugo %s: %v", cmd, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(lines) > 0 {
				break
			}
			continue
		}
		lines = append(lines, line)
	}
	resp := strings.Join(lines, "\n")
	if resp[0] != '=' && resp[0] != '?' {
		g.t.Fatalf("gnugo %s: response %q", cmd, resp)
	}
	return strings.TrimSpace(resp[1:]), resp[0] == '='
}

// Must is Do for a command that must succeed.
func (g *GTP) Must(format string, args ...any) string {
	g.t.Helper()
	resp, ok := g.Do(format, args...)
	if !ok {
		g.t.Fatalf("gnugo %s: ? %s", fmt.Sprintf(format, args...), resp)
	}
	return resp
}
