package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/peertest"
)

func TestRolloutUsage(t *testing.T) {
	if _, _, code := runTool(t, "rollout", "--help"); code != 0 {
		t.Errorf("--help: exit %d, want 0", code)
	}
	for _, args := range [][]string{
		{"rollout"},
		{"rollout", "--trials", "0", "4HPwATDgc/ABMA"},
		{"rollout", "--cube", "--dice", "52", "4HPwATDgc/ABMA"},
		{"rollout", "--dice", "72", "4HPwATDgc/ABMA"},
		{"rollout", "--stratify", "20", "4HPwATDgc/ABMA"},
		{"rollout", "--stratify", "21", "--plain-dice", "4HPwATDgc/ABMA"},
		{"rollout", "--player", "wildbg", "4HPwATDgc/ABMA"},
		{"rollout", "--player", "gnubg", "--variant", "nackgammon", "4HPwATDgc/ABMA"},
	} {
		if _, errOut, code := runTool(t, args...); code != 2 || !strings.Contains(errOut, "usage") {
			t.Errorf("%v: exit %d, want 2 with the usage:\n%s", args, code, errOut)
		}
	}
	if _, errOut, code := runTool(t, "rollout", "notanid"); code != 1 {
		t.Errorf("bad position ID: exit %d, want 1:\n%s", code, errOut)
	}
}

func rolloutJSON(t *testing.T, args ...string) rolloutOutput {
	t.Helper()
	out, errOut, code := runTool(t, append([]string{"rollout", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var r rolloutOutput
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return r
}

// A cube decision lists no double, double/take and double/pass, the pass
// exact; a chequer decision the top moves, best first by bgbot.
func TestRolloutDecisions(t *testing.T) {
	cube := rolloutJSON(t, "--cube", "--trials", "36", "--truncate", "2", "-j", "2", "4PPgESBw5+ABJA", "MAGgAAAAAAAE")
	if len(cube.Results) != 3 || cube.Results[0].Name != "No double" || cube.Results[1].Name != "Double, take" || cube.Results[2].Name != "Double, pass" {
		t.Fatalf("cube decision results: %+v", cube.Results)
	}
	if cube.CubefulUnits != "mwc" || cube.Results[2].Cubeful == nil || cube.Results[2].Cubeful.StdErr != 0 || cube.Results[2].CubefulEMG.Mean != 1 {
		t.Errorf("double/pass in a match: %+v %+v", cube.Results[2].Cubeful, cube.Results[2].CubefulEMG)
	}
	for _, r := range cube.Results[:2] {
		if r.Trials != 36 || r.Cubeful == nil || !(r.Cubeful.StdErr > 0) || !(r.Cubeful.Mean > 0.3 && r.Cubeful.Mean < 0.8) {
			t.Errorf("%s: %+v", r.Name, r)
		}
	}
	if cube.Best == "" {
		t.Error("no proper cube action")
	}
	chequer := rolloutJSON(t, "--dice", "52", "--top", "3", "--cubeless", "--trials", "36", "--truncate", "2", "4HPwATDgc/ABMA")
	if len(chequer.Results) != 3 || chequer.Results[0].Name != "24/22 13/8" || chequer.Results[1].Name != "13/11 13/8" || chequer.Results[0].Cubeful != nil {
		t.Errorf("chequer decision: %+v", chequer.Results)
	}
	out, _, code := runTool(t, "rollout", "--dice", "52", "--top", "2", "--cubeless", "--trials", "36", "--truncate", "2", "4HPwATDgc/ABMA")
	if code != 0 || !strings.Contains(out, "13/11 13/8") || !strings.Contains(out, "cubeless rollout, quasi-random dice, variance reduction, truncated after 2 turns") {
		t.Errorf("text output:\n%s", out)
	}
}

// A rollout kept in a state file and run again with more trials goes on
// from there and ends where one run straight through ends; a state file
// of another rollout is refused.
func TestRolloutStateFileExtends(t *testing.T) {
	args := []string{"--cube", "--truncate", "2", "-j", "2", "4PPgESBw5+ABJA", "MAGgAAAAAAAE"}
	straight := rolloutJSON(t, append([]string{"--trials", "72"}, args...)...)
	state := filepath.Join(t.TempDir(), "cube.json")
	first := rolloutJSON(t, append([]string{"--trials", "36", "--state", state}, args...)...)
	if first.Results[0].Trials != 36 {
		t.Fatalf("first run: %d trials", first.Results[0].Trials)
	}
	extended := rolloutJSON(t, append([]string{"--trials", "72", "--state", state, "-j", "1"}, args...)...)
	for i := range straight.Results {
		a, b := straight.Results[i], extended.Results[i]
		if a.Trials != b.Trials || *a.Cubeful != *b.Cubeful || a.Equity != b.Equity {
			t.Errorf("%s: straight %d trials %+v, extended %d trials %+v", a.Name, a.Trials, *a.Cubeful, b.Trials, *b.Cubeful)
		}
	}
	if _, errOut, code := runTool(t, "rollout", "--trials", "36", "--state", state, "--seed", "2", "--cube", "4PPgESBw5+ABJA", "MAGgAAAAAAAE"); code != 1 || !strings.Contains(errOut, "holds another rollout") {
		t.Errorf("another rollout's state: exit %d: %s", code, errOut)
	}
}

// A decision of a match record is rolled out as the position before it: a
// double as a cube decision, a move as a chequer decision with its roll;
// an action that decides nothing (a take) is refused.
func TestRolloutRecordDecision(t *testing.T) {
	cube := rolloutJSON(t, "--record", gnubgMat, "--game", "2", "--action", "14", "--trials", "36", "--truncate", "1")
	if cube.Decision != "cube" || cube.PositionID != "yOeMAyCMZ5oBUA" || cube.MatchID != "cAlgABAAAAAE" || len(cube.Results) != 3 {
		t.Errorf("the double of game 2: %s %s:%s, %d results", cube.Decision, cube.PositionID, cube.MatchID, len(cube.Results))
	}
	chequer := rolloutJSON(t, "--record", gnubgMat, "--game", "1", "--action", "1", "--top", "2", "--cubeless", "--trials", "36", "--truncate", "1")
	if chequer.Decision != "chequer" || chequer.Dice == nil || *chequer.Dice != [2]int{2, 1} || len(chequer.Results) != 2 {
		t.Errorf("the opening move of game 1: %s, dice %v, %d results", chequer.Decision, chequer.Dice, len(chequer.Results))
	}
	if _, errOut, code := runTool(t, "rollout", "--record", gnubgMat, "--game", "2", "--action", "15"); code != 1 || !strings.Contains(errOut, "is a take") {
		t.Errorf("a take: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runTool(t, "rollout", "--record", gnubgMat, "4HPwATDgc/ABMA"); code != 2 {
		t.Errorf("--record and a position ID: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runTool(t, "rollout", "--record", gnubgMat, "--game", "9"); code != 2 || !strings.Contains(errOut, "games 1..3") {
		t.Errorf("--game 9: exit %d: %s", code, errOut)
	}
}

// --player gnubg lets gnubg decide: the rollout names it and plays the
// trials; --stratify 21 is named in the settings and the text.
func TestRolloutPlayerAndStratify(t *testing.T) {
	r := rolloutJSON(t, "--stratify", "21", "--trials", "21", "--truncate", "2", "--cubeless", "4HPwATDgc/ABMA")
	if r.Settings.Stratify != 21 || r.Results[0].Trials != 21 {
		t.Errorf("--stratify 21: settings %+v, %d trials", r.Settings, r.Results[0].Trials)
	}
	out, _, code := runTool(t, "rollout", "--stratify", "21", "--trials", "21", "--truncate", "2", "--cubeless", "4HPwATDgc/ABMA")
	if code != 0 || !strings.Contains(out, "first roll over the 21 rolls") {
		t.Errorf("--stratify 21, text:\n%s", out)
	}
	l := rolloutJSON(t, "--cubeless-luck", "--trials", "4", "--truncate", "1", "4HPwATDgc/ABMA")
	if !l.Settings.CubelessLuck || l.Settings.NoBearoffTruncation {
		t.Errorf("--cubeless-luck: settings %+v", l.Settings)
	}
	if c := rolloutJSON(t, "--cubeless-luck", "--cubeless", "--no-bearoff-truncation", "--trials", "4", "--truncate", "1", "4HPwATDgc/ABMA"); c.Settings.CubelessLuck || !c.Settings.NoBearoffTruncation {
		t.Errorf("--cubeless-luck --cubeless --no-bearoff-truncation: settings %+v", c.Settings)
	}
	peertest.Gnubg(t)
	g := rolloutJSON(t, "--player", "gnubg", "--trials", "8", "--truncate", "3", "-j", "2", "4HPwATDgc/ABMA")
	if !strings.HasPrefix(g.Settings.Bot, "gnubg 0 ply") || g.Results[0].Trials != 8 || g.Results[0].Cubeful == nil {
		t.Errorf("--player gnubg: settings %+v, results %+v", g.Settings, g.Results)
	}
}
