package rollout_test

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

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/rollout"
	"github.com/gamemill/gamemill/engine/bgbot/rollout/gnubgplayer"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/player/gnubg"
)

// gnubgResult is what gnubg prints of a rollout: the probabilities (win,
// win gammon, win backgammon, lose gammon, lose backgammon), the cubeless
// figure CL and the cubeful one CF (money equity per unit of the cube, or
// in a match the match equity as EMG), each with its standard error.
type gnubgResult struct {
	probs, probsSE [5]float64
	cl, clSE       float64
	cf, cfSE       float64
}

// gnubgRollout has gnubg roll out a position (0 ply chequer and cube play,
// variance reduction, quasi-random dice, its default truncation at its
// bearoff databases). gnubg prints a rollout's results only to a terminal,
// so it runs under script(1).
func gnubgRollout(t *testing.T, pos, match string, trials int, seed int) gnubgResult {
	t.Helper()
	bin := peertest.Gnubg(t)
	scriptBin := peertest.Script(t) // gnubg prints rollouts only to a terminal
	cmds := fmt.Sprintf("set player 0 human\nset player 1 human\nset jacoby off\nnew game\nset matchid %s\nset board %s\n"+
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
	res, err := parseGnubgRollout(string(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return res
}

var (
	gnubgNumber = `([-+]?[0-9.]+)`
	gnubgMeans  = regexp.MustCompile(strings.Repeat(gnubgNumber+` +`, 3) + `- +` + strings.Repeat(gnubgNumber+` +`, 3) + `CL ` + gnubgNumber + ` CF ` + gnubgNumber)
	gnubgSEs    = regexp.MustCompile(`\[ *` + strings.Repeat(gnubgNumber+` +`, 3) + `- +` + strings.Repeat(gnubgNumber+` +`, 3) + `CL +` + gnubgNumber + ` CF +` + gnubgNumber + `\]`)
)

// parseGnubgRollout reads the final results of gnubg's text rollout
// output: the line after "Current Position:" that follows "Rollout done",
// and the standard errors in brackets under it.
func parseGnubgRollout(out string) (gnubgResult, error) {
	var res gnubgResult
	out = strings.ReplaceAll(out, "\r", "")
	i := strings.Index(out, "Rollout done")
	if i < 0 {
		return res, fmt.Errorf("gnubg output has no finished rollout")
	}
	lines := strings.Split(out[i:], "\n")
	for k, l := range lines {
		if strings.TrimSpace(l) != "Current Position:" || k+2 >= len(lines) {
			continue
		}
		m, s := gnubgMeans.FindStringSubmatch(lines[k+1]), gnubgSEs.FindStringSubmatch(lines[k+2])
		if m == nil || s == nil {
			return res, fmt.Errorf("gnubg rollout results: %q, %q", lines[k+1], lines[k+2])
		}
		// The win chance and the lose chance (its complement) stand
		// before the gammons; the lose chance is not kept.
		means, ses := [8]*float64{&res.probs[0], &res.probs[1], &res.probs[2], new(float64), &res.probs[3], &res.probs[4], &res.cl, &res.cf},
			[8]*float64{&res.probsSE[0], &res.probsSE[1], &res.probsSE[2], new(float64), &res.probsSE[3], &res.probsSE[4], &res.clSE, &res.cfSE}
		for j := range means {
			var err error
			if *means[j], err = strconv.ParseFloat(m[j+1], 64); err != nil {
				return res, fmt.Errorf("gnubg rollout results: %w", err)
			}
			if *ses[j], err = strconv.ParseFloat(s[j+1], 64); err != nil {
				return res, fmt.Errorf("gnubg rollout results: %w", err)
			}
		}
		return res, nil
	}
	return res, fmt.Errorf("gnubg output has no results after the rollout")
}

// Our rollout with gnubg 0-ply making every decision agrees with gnubg's
// own rollout of the same positions (both cubeful, with variance reduction
// and quasi-random dice; gnubg ends games in its bearoff databases, as our
// rollout does in bgbot's): a contact position in a money game and one at
// 1-0 in a five-point match, 144 trials each side. With the players the
// same, the two estimate one quantity, and what differs is only the
// machinery: the dice, the luck correction (ours judges with bgbot, which
// keeps it unbiased) and the cube's bookkeeping. Each figure (the cubeless
// money equity or, in the match, the win chance; the cubeful equity, as
// EMG in the match) must be within 3.5 combined standard errors, plus
// gnubg's rounding to three decimals: a correct rollout passes each of
// the four comparisons with probability 0.9995 for normal errors, all four
// with at least 0.998 (more, as the printed standard errors of
// quasi-random dice overstate the real ones). docs/results/
// 2026-11-28-rollouts.md has 20 positions at 1,296 trials.
func TestRolloutAgreesWithGnubg(t *testing.T) {
	peertest.Gnubg(t)
	peertest.Script(t)
	const trials, seed = 144, 11
	rules := backgammon.Rules{Cube: true, Crawford: true}
	one, err := bgbot.NewBearoff(bgbot.DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	two, err := bgbot.NewBearoff2(bgbot.MaxBearoff2Checkers)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pos, match string }{
		{"x5zDCCC2azAADg", "cAkAAAAAAAAA"}, // money, contact, cube centred
		{"4LvBARGMd4kBKA", "MAGgABAAAAAE"}, // five-point match at 1-0, contact
	} {
		g := gnubgRollout(t, c.pos, c.match, trials, seed)
		s, err := gnubgid.DecodeState(c.pos, c.match, rules)
		if err != nil {
			t.Fatal(err)
		}
		r, err := rollout.NewPosition(s, rules, rollout.Settings{Seed: seed, Cubeful: true, Bot: "gnubg 0 ply"})
		if err != nil {
			t.Fatal(err)
		}
		err = r.Run(context.Background(), trials, rollout.RunConfig{
			NewBot: func() (*bgbot.Bot, error) { return bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Bearoff: one}) },
			NewPlayer: func() (rollout.Player, error) {
				return gnubgplayer.Launch(context.Background(), gnubg.Options{Timeout: time.Minute})
			},
			Workers:  2,
			Bearoff:  one,
			Bearoff2: two,
		})
		if err != nil {
			t.Fatal(err)
		}
		res := r.Results()[0]
		check := func(what string, ours rollout.Estimate, theirs, theirsSE float64) {
			combined := math.Hypot(ours.StdErr, theirsSE)
			t.Logf("%s %s: ours %+.4f ±%.4f, gnubg's %+.4f ±%.4f", c.pos, what, ours.Mean, ours.StdErr, theirs, theirsSE)
			if !(math.Abs(ours.Mean-theirs) < 3.5*combined+0.0005) {
				t.Errorf("%s %s: ours %+.4f ±%.4f, gnubg's %+.4f ±%.4f: %.1f combined standard errors apart",
					c.pos, what, ours.Mean, ours.StdErr, theirs, theirsSE, math.Abs(ours.Mean-theirs)/combined)
			}
		}
		if s.Money() {
			check("cubeless", res.Equity, g.cl, g.clSE)
			check("cubeful", *res.Cubeful, g.cf, g.cfSE)
		} else {
			// gnubg's CL in a match is not the money equity of its
			// probabilities: compare the win chance.
			check("win", res.Probs[0], g.probs[0], g.probsSE[0])
			check("cubeful EMG", *res.CubefulEMG, g.cf, g.cfSE)
		}
	}
}

func TestParseGnubgRollout(t *testing.T) {
	out := "Current Position:\r\n  0.1 CL +0.500 CF +0.600\r\n [x CL  0.100 CF  0.200]\r\n" +
		"Rollout done. Printing final results.\r\n\r\nCurrent Position:\r\n" +
		"  0.536 0.156 0.007 - 0.464 0.125 0.005 CL +0.106 CF -0.192\r\n" +
		" [0.009 0.009 0.002 - 0.009 0.008 0.001 CL  0.024 CF  0.062] 1r\r\n"
	res, err := parseGnubgRollout(out)
	want := gnubgResult{probs: [5]float64{0.536, 0.156, 0.007, 0.125, 0.005}, probsSE: [5]float64{0.009, 0.009, 0.002, 0.008, 0.001},
		cl: 0.106, clSE: 0.024, cf: -0.192, cfSE: 0.062}
	if err != nil || res != want {
		t.Errorf("got %+v, %v", res, err)
	}
	if _, err := parseGnubgRollout("Current Position:\n CL +0.1 CF +0.2\n"); err == nil {
		t.Error("output without a finished rollout parsed")
	}
	if _, err := parseGnubgRollout("Rollout done\nCurrent Position:\n 0.5 CL +0.1 CF +0.2\n [0.1 CL 0.1 CF 0.1]\n"); err == nil {
		t.Error("results without the probabilities parsed")
	}
}
