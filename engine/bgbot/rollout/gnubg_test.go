package rollout

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/internal/peertest"
)

// gnubgRollout has gnubg roll out a position (0 ply chequer and cube play,
// variance reduction, quasi-random dice) and returns its cubeless and
// cubeful equities and their standard errors. gnubg prints a rollout's
// results only to a terminal, so it runs under script(1).
func gnubgRollout(t *testing.T, pos, match string, trials int, seed int) (cl, clSE, cf, cfSE float64) {
	t.Helper()
	bin := peertest.Gnubg(t)
	scriptBin := peertest.Script(t) // gnubg prints rollouts only to a terminal
	cmds := fmt.Sprintf("set player 0 human\nset player 1 human\nnew game\nset matchid %s\nset board %s\n"+
		"set rollout trials %d\nset rollout seed %d\nset rollout chequerplay plies 0\nset rollout cubedecision plies 0\n"+
		"set rollout cubeful on\nset rollout varredn on\nset rollout quasirandom on\nset threads 1\nrollout\n", match, pos, trials, seed)
	dir := t.TempDir()
	cmdFile := filepath.Join(dir, "rollout.cmd")
	if err := os.WriteFile(cmdFile, []byte(cmds), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// gnubg reads the commands from the file and stops at its end; script
	// gives it a terminal for its output.
	cmd := exec.CommandContext(ctx, scriptBin, "-q", "-c", bin+" -t -q < "+cmdFile, "/dev/null")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gnubg: %v\n%s", err, out)
	}
	cl, clSE, cf, cfSE, err = parseGnubgRollout(string(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return cl, clSE, cf, cfSE
}

var (
	gnubgMeans = regexp.MustCompile(`CL ([-+]?[0-9.]+) CF ([-+]?[0-9.]+)`)
	gnubgSEs   = regexp.MustCompile(`\[.*CL +([0-9.]+) CF +([0-9.]+)\]`)
)

// parseGnubgRollout reads the final results of gnubg's text rollout
// output: the line after "Current Position:" that follows "Rollout done",
// and the standard errors in brackets under it.
func parseGnubgRollout(out string) (cl, clSE, cf, cfSE float64, err error) {
	out = strings.ReplaceAll(out, "\r", "")
	i := strings.Index(out, "Rollout done")
	if i < 0 {
		return 0, 0, 0, 0, fmt.Errorf("gnubg output has no finished rollout")
	}
	lines := strings.Split(out[i:], "\n")
	for k, l := range lines {
		if strings.TrimSpace(l) != "Current Position:" || k+2 >= len(lines) {
			continue
		}
		m, s := gnubgMeans.FindStringSubmatch(lines[k+1]), gnubgSEs.FindStringSubmatch(lines[k+2])
		if m == nil || s == nil {
			return 0, 0, 0, 0, fmt.Errorf("gnubg rollout results: %q, %q", lines[k+1], lines[k+2])
		}
		var v [4]float64
		for j, txt := range []string{m[1], s[1], m[2], s[2]} {
			if v[j], err = strconv.ParseFloat(txt, 64); err != nil {
				return 0, 0, 0, 0, fmt.Errorf("gnubg rollout results: %w", err)
			}
		}
		return v[0], v[1], v[2], v[3], nil
	}
	return 0, 0, 0, 0, fmt.Errorf("gnubg output has no results after the rollout")
}

// A small rollout of a race and a bear-off agrees with gnubg's rollout of
// the same positions (both at 0 ply, cubeful, with variance reduction and
// quasi-random dice): cubeless and cubeful money equities within three of
// their combined standard errors (plus the rounding of gnubg's output;
// gnubg ends games in its bear-off databases, so its errors there are
// nil). The two bots differ, so with enough trials their rollouts would
// part; docs/results/2026-11-28-rollouts.md has 20 positions, bgbot's at
// 648 (money) or 324 (match) trials and gnubg's at 1296.
func TestRolloutAgreesWithGnubg(t *testing.T) {
	peertest.Gnubg(t)
	for _, c := range []struct{ pos, match string }{
		{"1PsAAGC7OwAAAA", "cAkAAAAAAAAA"}, // race, cube centred
		{"KgEAQBYAAAAAAA", "AQEAAAAAAAAA"}, // bear-off, the player on roll owns the cube at 2
	} {
		gcl, gclSE, gcf, gcfSE := gnubgRollout(t, c.pos, c.match, 144, 11)
		r, err := NewPosition(state(t, c.pos, c.match), rules, Settings{Seed: 11, Cubeful: true, Bot: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(context.Background(), 144, RunConfig{NewBot: newBot, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		res := r.Results()[0]
		check := func(what string, ours, oursSE, theirs, theirsSE float64) {
			combined := math.Hypot(oursSE, theirsSE)
			t.Logf("%s %s: bgbot %+.4f ±%.4f, gnubg %+.4f ±%.4f", c.pos, what, ours, oursSE, theirs, theirsSE)
			// gnubg prints three decimals: its figures are within
			// 0.0005 of its means.
			if !(math.Abs(ours-theirs) < 3*combined+0.0005) {
				t.Errorf("%s %s: bgbot %+.4f ±%.4f, gnubg %+.4f ±%.4f: %.1f combined standard errors apart", c.pos, what, ours, oursSE, theirs, theirsSE, math.Abs(ours-theirs)/combined)
			}
		}
		check("cubeless", res.Equity.Mean, res.Equity.StdErr, gcl, gclSE)
		// gnubg's cubeful money equity is per unit of the cube, as ours.
		check("cubeful", res.Cubeful.Mean, res.Cubeful.StdErr, gcf, gcfSE)
	}
}

func TestParseGnubgRollout(t *testing.T) {
	out := "Current Position:\r\n  0.1 CL +0.500 CF +0.600\r\n [x CL  0.100 CF  0.200]\r\n" +
		"Rollout done. Printing final results.\r\n\r\nCurrent Position:\r\n" +
		"  0.536 0.156 0.007 - 0.464 0.125 0.005 CL +0.106 CF -0.192\r\n" +
		" [0.009 0.009 0.002 - 0.009 0.008 0.001 CL  0.024 CF  0.062] 1r\r\n"
	cl, clSE, cf, cfSE, err := parseGnubgRollout(out)
	if err != nil || cl != 0.106 || clSE != 0.024 || cf != -0.192 || cfSE != 0.062 {
		t.Errorf("got %v %v %v %v, %v", cl, clSE, cf, cfSE, err)
	}
	if _, _, _, _, err := parseGnubgRollout("Current Position:\n CL +0.1 CF +0.2\n"); err == nil {
		t.Error("output without a finished rollout parsed")
	}
}
