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

	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
)

// TestVerdictCommand has gnubg analyse the same record twice at 0 ply:
// both players appear with two records each, and a record judged twice
// gives the same rate with a zero-width interval.
func TestVerdictCommand(t *testing.T) {
	bin := peertest.Gnubg(t)
	f := "../../player/gnubg/verdict/testdata/gnubg-3pt-match.mat"
	stdout, stderr, code := runTool(t, "gnubg-verdict", "-q", "--plies", "0", "-j", "2", "--gnubg", bin, f, f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := regexp.MustCompile(`(?m)^(\S+)\s+2\s+(\d+)\s+([0-9.]+) \[\s*([0-9.]+),\s*([0-9.]+)\]`).FindAllStringSubmatch(stdout, -1)
	if len(rows) != 2 {
		t.Fatalf("want two player rows with 2 records each:\n%s", stdout)
	}
	for _, r := range rows {
		if r[3] != r[4] || r[3] != r[5] {
			t.Errorf("%s: rate %s with interval [%s, %s], want a zero-width interval", r[1], r[3], r[4], r[5])
		}
	}
	if _, stderr, code := runTool(t, "gnubg-verdict", "--plies", "9", f); code != 2 || !strings.Contains(stderr, "--plies") {
		t.Errorf("--plies 9: exit %d, %q", code, stderr)
	}
}

// TestVerdictBreakdown has gnubg judge a match between bgbot and gnubg
// 0-ply at 0 ply, broken down by class: gnubg 0-ply gives up nothing by
// its own judgement, bgbot something, and the decisions written add up to
// the unforced moves of the summary.
func TestVerdictBreakdown(t *testing.T) {
	bin := peertest.Gnubg(t)
	f := "../../player/gnubg/verdict/testdata/bgbot-gnubg0-match5.mat"
	out := filepath.Join(t.TempDir(), "decisions.jsonl")
	stdout, stderr, code := runTool(t, "gnubg-verdict", "-q", "--plies", "0", "--gnubg", bin, "--by", "class", "--decisions", out, f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	unforced := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^(bgbot|gnubg0)\s+1\s+(\d+)\s`).FindAllStringSubmatch(stdout, -1) {
		unforced[m[1]], _ = strconv.Atoi(m[2])
	}
	if unforced["bgbot"] == 0 || unforced["gnubg0"] == 0 {
		t.Fatalf("no summary rows:\n%s", stdout)
	}
	// One record: the gap is bgbot's rate less gnubg0's, without an interval.
	rates := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(bgbot|gnubg0)\s+1\s+\d+\s+([0-9.]+) `).FindAllStringSubmatch(stdout, -1) {
		rates[m[1]] = m[2]
	}
	if rates["gnubg0"] != "0.00" || !strings.Contains(stdout, "bgbot less gnubg0 in the same record: chequer +"+rates["bgbot"]+" (no interval)") {
		t.Errorf("no gap line of +%s:\n%s", rates["bgbot"], stdout)
	}
	_, table, ok := strings.Cut(stdout, "chequer error by class")
	if !ok {
		t.Fatalf("no breakdown:\n%s", stdout)
	}
	table, cubeTable, ok := strings.Cut(table, "cube error by class")
	if !ok {
		t.Fatalf("no cube breakdown:\n%s", stdout)
	}
	// The cube table's close decisions add up to the summary's.
	cubeDecisions := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^(bgbot|gnubg0)\s+1\s+\d+\s+[0-9.]+ \(no interval\)\s+(\d+)\s`).FindAllStringSubmatch(stdout, -1) {
		cubeDecisions[m[1]], _ = strconv.Atoi(m[2])
	}
	cubeCounted := map[string]int{}
	for _, r := range regexp.MustCompile(`(?m)^  (bgbot|gnubg0)\s+(\d+)\s`).FindAllStringSubmatch(cubeTable, -1) {
		n, _ := strconv.Atoi(r[2])
		cubeCounted[r[1]] += n
	}
	if cubeDecisions["bgbot"] == 0 || cubeCounted["bgbot"] != cubeDecisions["bgbot"] || cubeCounted["gnubg0"] != cubeDecisions["gnubg0"] {
		t.Errorf("cube groups count %v, summary %v:\n%s", cubeCounted, cubeDecisions, stdout)
	}
	if !regexp.MustCompile(`contact\n  bgbot .*\n  gnubg0 .*\n  bgbot less gnubg0: \+[0-9.]+ \(no interval\)\n`).MatchString(table) {
		t.Errorf("no gap row under contact:\n%s", table)
	}
	rows := regexp.MustCompile(`(?m)^  (bgbot|gnubg0)\s+(\d+)\s+([0-9.]+) `).FindAllStringSubmatch(table, -1)
	counted := map[string]int{}
	bgbotError := false
	for _, r := range rows {
		n, _ := strconv.Atoi(r[2])
		counted[r[1]] += n
		if r[1] == "gnubg0" && r[3] != "0.00" {
			t.Errorf("gnubg 0-ply errs by its own 0-ply judgement: %v", r[0])
		}
		bgbotError = bgbotError || (r[1] == "bgbot" && r[3] != "0.00")
	}
	if counted["bgbot"] != unforced["bgbot"] || counted["gnubg0"] != unforced["gnubg0"] || !bgbotError {
		t.Errorf("groups count %v, summary %v, bgbot errs %v:\n%s", counted, unforced, bgbotError, stdout)
	}
	if !strings.Contains(table, "\ncontact\n") {
		t.Errorf("no contact group:\n%s", table)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(data), "\n") - strings.Count(string(data), `"role":`)
	if lines != unforced["bgbot"]+unforced["gnubg0"] {
		t.Errorf("%d chequer decisions written, want %d", lines, unforced["bgbot"]+unforced["gnubg0"])
	}
	// The decisions written give the same breakdown again without gnubg.
	again, stderr, code := runTool(t, "verdict-breakdown", "--by", "class", out)
	if code != 0 {
		t.Fatalf("verdict-breakdown: exit %d: %s", code, stderr)
	}
	if _, table2, _ := strings.Cut(again, "chequer error by class"); table2 != table+"cube error by class"+cubeTable {
		t.Errorf("verdict-breakdown gives\n%s\nwhere gnubg-verdict gave\n%s", table2, table+cubeTable)
	}
	// Two files are two runs: a record of the same name in each (the
	// same match number on other dice) stays two records.
	twice, stderr, code := runTool(t, "verdict-breakdown", out, out)
	if code != 0 || !strings.Contains(twice, fmt.Sprintf("%d chequer decisions and ", 2*lines)) || !strings.Contains(twice, " of 2 records") {
		t.Errorf("the decisions file given twice: exit %d (%s), want %d chequer decisions of 2 records:\n%s", code, stderr, 2*lines, twice)
	}
	if _, stderr, code := runTool(t, "verdict-breakdown", f); code != 1 || !strings.Contains(stderr, "decisions line 1") {
		t.Errorf("verdict-breakdown of a .mat file: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runTool(t, "gnubg-verdict", "--by", "colour", f); code != 2 || !strings.Contains(stderr, "colour") {
		t.Errorf("--by colour: exit %d, %q", code, stderr)
	}
}

// TestVerdictCompare compares two small runs written as gnubg-verdict
// --decisions writes them: only the record both have is compared, by
// class with --by class, and runs without a record in common are refused.
func TestVerdictCompare(t *testing.T) {
	dir := t.TempDir()
	// Position IDs: the opening position (contact) and a race.
	const contact, race = "4HPwATDgc/ABMA", "sr2mAgDSPcMDAA"
	line := func(file, player, pos string, e float64) string {
		return `{"file":"` + file + `","game":1,"player":"` + player + `","position_id":"` + pos + `","dice":"31","error":` + strconv.FormatFloat(e, 'f', -1, 64) + "}\n"
	}
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(a, []byte(line("runA/m1.mat", "bgbot", contact, 0.004)+line("runA/m1.mat", "bgbot", race, 0.002)+
		line("runA/m1.mat", "gnubg0", contact, 0)+line("runA/m2.mat", "bgbot", contact, 0.1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(line("runB/m1.mat", "bgbot", contact, 0.001)+line("runB/m1.mat", "bgbot", race, 0)+
		line("runB/m1.mat", "gnubg0", contact, 0)+line("runB/m3.mat", "bgbot", contact, 0.1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runTool(t, "verdict-compare", "--by", "class", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// bgbot in m1: 3.00 mEMG a move in a, 0.50 in b; contact 4 then 1, race 2 then 0.
	for _, want := range []string{
		"1 records in both (of 2 and 2)",
		"all\n  bgbot              2   3.00       2   0.50  -2.50 (no interval)\n  gnubg0             1   0.00       1   0.00  +0.00 (no interval)\n" +
			"  bgbot less gnubg0: +3.00, then +0.50: -2.50 (no interval)\n",
		"contact\n  bgbot              1   4.00       1   1.00  -3.00",
		"race\n  bgbot              1   2.00       1   0.00  -2.00 (no interval)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	if !strings.HasSuffix(stdout, "race\n  bgbot              1   2.00       1   0.00  -2.00 (no interval)\n") {
		t.Errorf("gnubg0 made no race decision, so race lists bgbot alone, without a gap:\n%s", stdout)
	}
	other := filepath.Join(dir, "other.jsonl")
	if err := os.WriteFile(other, []byte(line("runC/m9.mat", "bgbot", contact, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runTool(t, "verdict-compare", a, other); code != 1 || !strings.Contains(stderr, "no record name in common") {
		t.Errorf("runs without a common record: exit %d, %q", code, stderr)
	}
	if _, _, code := runTool(t, "verdict-compare", a); code != 2 {
		t.Errorf("one file: exit %d, want 2", code)
	}

	// Cube decisions alone (gnubg-verdict --cube-only): bgbot's close
	// decisions cost 0.060 then 0.020 over 2 (30.00 then 10.00 mEMG); a
	// decision that is not close does not count.
	cube := func(file, player, action string, e float64, close bool) string {
		return `{"file":"` + file + `","game":1,"player":"` + player + `","role":"doubler","length":5,"cube":1,"owner":"centre","position_id":"` +
			contact + `","no_double":0.5,"double_take":0.6,"double_pass":1,"action":"` + action + `","error":` +
			strconv.FormatFloat(e, 'f', -1, 64) + `,"close":` + strconv.FormatBool(close) + "}\n"
	}
	if err := os.WriteFile(a, []byte(cube("runA/m1.mat", "bgbot", "no double", 0.06, true)+cube("runA/m1.mat", "bgbot", "double", 0, true)+
		cube("runA/m1.mat", "gnubg0", "double", 0, true)+cube("runA/m1.mat", "bgbot", "no double", 0, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(cube("runB/m1.mat", "bgbot", "no double", 0.02, true)+cube("runB/m1.mat", "bgbot", "double", 0, true)+
		cube("runB/m1.mat", "gnubg0", "double", 0, true)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runTool(t, "verdict-compare", a, b)
	if code != 0 {
		t.Fatalf("cube decisions: exit %d: %s", code, stderr)
	}
	if want := "cube error (close or actual decisions, mEMG a decision) in each, and the second less the first record by record with a 95% interval\n" +
		"all\n  bgbot              2  30.00       2  10.00  -20.00 (no interval)\n"; !strings.Contains(stdout, want) || strings.Contains(stdout, "chequer error") {
		t.Errorf("want the cube comparison alone, with %q, in\n%s", want, stdout)
	}
	// bgbot's cube error in all: 0.06 then 0.02 in the one record.
	if want := "  bgbot        -40.00 (no interval)\n"; !strings.Contains(stdout, want) {
		t.Errorf("no %q in\n%s", want, stdout)
	}
}

// TestCubeScore prices cube decisions of a record judged by gnubg at
// 0 ply: the 0-ply analysis judged by its own equities gives up nothing,
// bgbot is asked every decision, our cube model fed gnubg's probabilities
// decides as gnubg does, and a call without a judge is a usage error.
func TestCubeScore(t *testing.T) {
	bin := peertest.Gnubg(t)
	f := "../../player/gnubg/verdict/testdata/bgbot-gnubg0-match5.mat"
	truth := filepath.Join(t.TempDir(), "cube0.jsonl")
	if _, stderr, code := runTool(t, "gnubg-verdict", "-q", "--plies", "0", "--cube-only", "--gnubg", bin, "--decisions", truth, f); code != 0 {
		t.Fatalf("gnubg-verdict: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := runTool(t, "cube-score", "--bgbot", "", "--judged", truth, truth)
	if code != 0 {
		t.Fatalf("cube-score: exit %d: %s", code, stderr)
	}
	rows := regexp.MustCompile(`(?m)^  doubling:\s+(\d+) decisions \(\s*(\d+) close\)\s+([0-9.]+) EMG`).FindAllStringSubmatch(stdout, -1)
	if len(rows) != 2 || rows[0][1] != rows[1][1] || rows[0][1] == "0" {
		t.Fatalf("want two judges' doubling rows over the same decisions:\n%s", stdout)
	}
	if rows[1][3] != "0.000" {
		t.Errorf("gnubg 0-ply's own choices give up %s EMG by its own equities:\n%s", rows[1][3], stdout)
	}
	if !strings.Contains(stdout, "less bgbot (default), decision by decision: ") {
		t.Errorf("no gap to the first judge:\n%s", stdout)
	}
	// One analysis kept in two files is one judge.
	raw, err := os.ReadFile(truth)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(raw), "\n"), "\n")
	half1, half2 := filepath.Join(t.TempDir(), "a.jsonl"), filepath.Join(t.TempDir(), "b.jsonl")
	if err := os.WriteFile(half1, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(half2, []byte(strings.Join(lines[len(lines)/2:], "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runTool(t, "cube-score", "--judged", half1+","+half2, truth)
	if code != 0 || !regexp.MustCompile(`doubling:\s+[1-9]\d* decisions \(\s*\d+ close\)\s+0\.000 EMG`).MatchString(stdout) {
		t.Errorf("--judged A,B: exit %d: %s\n%s", code, stderr, stdout)
	}
	if _, stderr, code := runTool(t, "cube-score", "--judged", half1, truth); code == 0 || !strings.Contains(stderr, "not in") {
		t.Errorf("--judged with half the decisions: exit %d, %q", code, stderr)
	}
	// Our cube model fed gnubg's own 0-ply probabilities takes gnubg's
	// 0-ply decisions: nothing given up by gnubg's equities.
	stdout, stderr, code = runTool(t, "cube-score", "--model", truth)
	if code != 0 {
		t.Fatalf("cube-score --model: exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`doubling:\s+\d+ decisions \(\s*\d+ close\)\s+0\.000 EMG`).MatchString(stdout) ||
		!regexp.MustCompile(`answers:\s+[1-9]\d* decisions\s+0\.000 EMG`).MatchString(stdout) {
		t.Errorf("the model with gnubg's probabilities departs from gnubg's decisions:\n%s", stdout)
	}
	if _, stderr, code := runTool(t, "cube-score", truth); code != 2 || !strings.Contains(stderr, "no judge") {
		t.Errorf("no judge: exit %d, %q", code, stderr)
	}
	// With Janowski's x everywhere our model is gnubg's 0-ply one: fed
	// gnubg's 0-ply probabilities it leans nowhere against gnubg's 0-ply
	// equities.
	stdout, stderr, code = runTool(t, "cube-score", "--bias", "--janowski-one-way", "--bias-min", "1", truth)
	if code != 0 {
		t.Fatalf("cube-score --bias: exit %d: %s", code, stderr)
	}
	groups := regexp.MustCompile(`(?m)^(\d+-away/\d+-away, cube \d+ \w+.*?)\s+(\d+)\s+([-+][0-9.]+)\s+([-+][0-9.]+)$`).FindAllStringSubmatch(stdout, -1)
	if len(groups) == 0 {
		t.Fatalf("--bias: no groups in\n%s", stdout)
	}
	for _, g := range groups {
		nd, _ := strconv.ParseFloat(g[3], 64)
		dt, _ := strconv.ParseFloat(g[4], 64)
		if math.Abs(nd) > 0.03 || math.Abs(dt) > 0.03 {
			t.Errorf("--bias: group %q leans %+.3f, %+.3f from gnubg 0-ply's own model", g[1], nd, dt)
		}
	}
}

// TestVerdictOneRecord: one record gives rates without intervals, said in
// words; it printed "[  NaN,   NaN]".
func TestVerdictOneRecord(t *testing.T) {
	var b strings.Builder
	writeVerdict(&b, [][2]verdict.Player{{
		{Name: "bgbot", UnforcedMoves: 40, ChequerError: 0.2, CubeDecisions: 5, CubeError: 0.05, Records: 1},
		{Name: "gnubg0", UnforcedMoves: 38, ChequerError: 0.1, CubeDecisions: 0, Records: 1},
	}}, 0)
	out := b.String()
	if strings.Contains(out, "NaN") {
		t.Errorf("NaN in the verdict:\n%s", out)
	}
	for _, want := range []string{
		"bgbot               1        40   5.00 (no interval)           5  10.00 (no interval)  \n",
		"bgbot less gnubg0 in the same record: chequer +2.37 (no interval), cube +10.00 (no interval)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}
