package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// TestStageGroups names each score's stage of play from what the
// decisions file records: the match length, the two sides' points still
// needed and the Crawford flag.
func TestStageGroups(t *testing.T) {
	stage := decisionGroups["stage"]
	for _, tc := range []struct {
		length, away, opponentAway int
		crawford                   bool
		want                       string
	}{
		{0, 0, 0, false, "money"},
		{5, 5, 5, false, "before"},
		{5, 2, 2, false, "before"},
		{5, 1, 3, true, "crawford"},
		{5, 4, 1, true, "crawford"},
		{5, 1, 2, false, "post-crawford"},
		{5, 3, 1, false, "post-crawford"},
		{5, 1, 1, false, "post-crawford"},
	} {
		got, err := stage(situation{length: tc.length, away: tc.away, opponentAway: tc.opponentAway, crawford: tc.crawford})
		if err != nil || got != tc.want {
			t.Errorf("%+v: %q (%v), want %q", tc, got, err, tc.want)
		}
	}
}

// TestLeadGroups names the pip lead band of the side to play from the
// decision's position ID: the opening position is level, and moving
// checkers of one side home changes who leads, by how much.
func TestLeadGroups(t *testing.T) {
	lead := decisionGroups["lead"]
	start, err := gnubgid.DecodePosition("4HPwATDgc/ABMA")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		from, to int // a checker of the side on roll (from > to) or, negative, of the opponent
		moved    int // how many checkers move
		want     string
	}{
		{0, 0, 0, "lead -19..19"},
		{24, 1, 1, "lead 20..59"}, // 23 pips
		{13, 1, 5, "lead >= 60"},  // 60 pips
		{-24, -1, 1, "lead -59..-20"},
		{-13, -1, 5, "lead <= -60"},
	} {
		b := start
		side, from, to := backgammon.OnRoll, tc.from, tc.to
		if from < 0 {
			side, from, to = backgammon.Opponent, -from, -to
		}
		for range tc.moved {
			b[side][from-1]--
			b[side][to-1]++
		}
		got, err := lead(situation{positionID: gnubgid.EncodePosition(b)})
		if err != nil || got != tc.want {
			t.Errorf("%+v: %q (%v), want %q", tc, got, err, tc.want)
		}
	}
	if _, err := lead(situation{file: "x.mat", positionID: "not an ID"}); err == nil {
		t.Error("a bad position ID gave no error")
	}
}

// TestBreakdownConfidence prints verdict-breakdown's intervals at another
// level: the same gap, its half-width scaled by the ratio of the normal
// quantiles, and the level named in the header; a level outside (0, 1)
// is a usage error.
func TestBreakdownConfidence(t *testing.T) {
	const contact = "4HPwATDgc/ABMA"
	var lines strings.Builder
	for m := range 12 {
		file := fmt.Sprintf("run/m%d.mat", m)
		for i, e := range []float64{0.002 * float64(m%5), 0.004 * float64(m%3)} {
			player := []string{"bgbot", "gnubg0"}[i]
			fmt.Fprintf(&lines, `{"file":%q,"game":1,"player":%q,"position_id":%q,"dice":"31","error":%g}`+"\n", file, player, contact, e)
		}
	}
	path := filepath.Join(t.TempDir(), "d.jsonl")
	if err := os.WriteFile(path, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	gapOf := func(args ...string) (header string, v, lo, hi float64) {
		t.Helper()
		stdout, stderr, code := runTool(t, append([]string{"verdict-breakdown", "--by", "kind"}, append(args, path)...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		h := regexp.MustCompile(`with a (\S+) interval`).FindStringSubmatch(stdout)
		m := regexp.MustCompile(`bgbot less gnubg0: ([-+][0-9.]+) \[([-+][0-9.]+), ([-+][0-9.]+)\]`).FindStringSubmatch(stdout)
		if h == nil || m == nil {
			t.Fatalf("%v: no header or gap line:\n%s", args, stdout)
		}
		f := func(s string) float64 { x, _ := strconv.ParseFloat(s, 64); return x }
		return h[1], f(m[1]), f(m[2]), f(m[3])
	}
	h95, v95, lo95, hi95 := gapOf()
	h98, v98, lo98, hi98 := gapOf("--confidence", "0.98333")
	if h95 != "95%" || h98 != "98.333%" {
		t.Errorf("headers name %q and %q", h95, h98)
	}
	// bgbot errs 3.5 mEMG a decision on average, gnubg0 4: a gap of
	// -0.5 with a half-width of a few mEMG.
	if v95 != v98 || hi95-lo95 < 1 {
		t.Fatalf("gaps %v and %v, 95%% interval [%v, %v]", v95, v98, lo95, hi95)
	}
	if got, want := (hi98-lo98)/(hi95-lo95), 2.394/1.960; math.Abs(got-want) > 0.01 {
		t.Errorf("half-widths in the ratio %.4f, want %.4f", got, want)
	}
	for _, bad := range []string{"0", "1", "95"} {
		if _, stderr, code := runTool(t, "verdict-breakdown", "--confidence", bad, path); code != 2 || !strings.Contains(stderr, "--confidence") {
			t.Errorf("--confidence %s: exit %d, %q", bad, code, stderr)
		}
	}
}
