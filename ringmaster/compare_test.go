package ringmaster_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
)

// compareControl is a competition whose first player, "bot", is set by
// the test; "x" is a matchup only some variants have, and "s" changes its
// settings between variants.
const compareControl = `competition_type = "playoff"
game = "backgammon"
seed = SEED
cube = true
dice = "paired"

[players.bot]
kind = "builtin"
args = BOT

[players.heuristic]
kind = "builtin"
args = ["--level", "heuristic", "--seed", "3"]

[[matchups]]
id = "m"
players = ["bot", "heuristic"]
number_of_games = 8

[[matchups]]
id = "s"
players = ["bot", "heuristic"]
number_of_games = 2
match_length = LENGTH
EXTRA`

func compareVariant(t *testing.T, dir, name, seed, bot, length, extra string, analyse bool) *ringmaster.Ringmaster {
	t.Helper()
	return runVariant(t, dir, name, compareText(seed, bot, length, extra), analyse)
}

// compareText is compareControl with its blanks filled.
func compareText(seed, bot, length, extra string) string {
	return strings.NewReplacer("SEED", seed, "BOT", bot, "LENGTH", length, "EXTRA", extra).Replace(compareControl)
}

// runVariant writes the control file text as name in dir, runs it and,
// with analyse, judges its games.
func runVariant(t *testing.T, dir, name, text string, analyse bool) *ringmaster.Ringmaster {
	t.Helper()
	rm, err := ringmaster.New(writeControl(t, dir, name, text), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 2); err != nil {
		t.Fatal(err)
	}
	if analyse {
		if _, err := rm.Analyse(context.Background(), ringmaster.AnalyseOptions{Parallel: 2}); err != nil {
			t.Fatal(err)
		}
	}
	return rm
}

// firstPlayerPoints reads, straight from a competition's database, the
// points of matchup m's first player in each game, by game number.
func firstPlayerPoints(t *testing.T, dbPath, matchup string) map[int]float64 {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT number, CASE swapped WHEN 0 THEN points_a ELSE points_b END FROM games WHERE matchup_id = ? AND status = 'done'", matchup)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int]float64{}
	for rows.Next() {
		var n int
		var p float64
		if err := rows.Scan(&n, &p); err != nil {
			t.Fatal(err)
		}
		out[n] = p
	}
	return out
}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	net := `["--level", "net", "--seed", "1"]`
	noisy := `["--level", "net", "--noise", "0.3", "--seed", "2"]`
	only := "\n[[matchups]]\nid = \"x\"\nplayers = [\"bot\", \"heuristic\"]\nnumber_of_games = 2\n"
	a := compareVariant(t, dir, "a.toml", "11", net, "0", only, true)
	again := compareVariant(t, dir, "again.toml", "11", net, "0", only, true)
	b := compareVariant(t, dir, "b.toml", "11", noisy, "3", "", true)

	// The same deterministic players on the same seed play the same games,
	// so game by game nothing differs: a pairing by anything but the
	// matchup and game number would show differences.
	c, err := ringmaster.Compare(context.Background(), a, again, ringmaster.CompareOptions{Plies: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Matchups) != 3 || len(c.Skipped) != 0 {
		t.Fatalf("a against its rerun: %d matchups compared, skipped %v; want 3, none", len(c.Matchups), c.Skipped)
	}
	for _, m := range c.Matchups {
		collapsed := m.Difference.Samples < 2 || m.Difference.Low == 0 && m.Difference.High == 0
		if m.Difference.Mean != 0 || !collapsed || m.LuckAdjustedDifference.Mean != 0 || m.Games == 0 {
			t.Errorf("a against its rerun, %s: difference %+v, luck-adjusted %+v; want exactly 0", m.ID, m.Difference, m.LuckAdjustedDifference)
		}
	}

	c, err = ringmaster.Compare(context.Background(), a, b, ringmaster.CompareOptions{Plies: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Matchups) != 1 || c.Matchups[0].ID != "m" {
		t.Fatalf("a against b compared %d matchups; want m alone", len(c.Matchups))
	}
	wantSkipped := []string{"s: settings differ", "x: only in a"}
	if len(c.Skipped) != len(wantSkipped) {
		t.Fatalf("skipped %q; want %q", c.Skipped, wantSkipped)
	}
	for i, w := range wantSkipped {
		if !strings.HasPrefix(c.Skipped[i], w) {
			t.Errorf("skipped[%d] = %q; want it to start %q", i, c.Skipped[i], w)
		}
	}
	m := c.Matchups[0]
	pa, pb := firstPlayerPoints(t, a.DBPath(), "m"), firstPlayerPoints(t, b.DBPath(), "m")
	var sumA, sumB, sumD float64
	differ := false
	for n := range 8 {
		sumA, sumB, sumD = sumA+pa[n], sumB+pb[n], sumD+pa[n]-pb[n]
		differ = differ || pa[n] != pb[n]
	}
	if !differ {
		t.Fatal("the noisy bot scored what the plain one did in every game: the test cannot tell a difference")
	}
	if m.Games != 8 || m.Analysed != 8 || m.Difference.Samples != 4 {
		t.Errorf("m: %d games, %d analysed, %d samples; want 8, 8 and 4 pairs", m.Games, m.Analysed, m.Difference.Samples)
	}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
	if !near(m.Points[0].Mean, sumA/8) || !near(m.Points[1].Mean, sumB/8) || !near(m.Difference.Mean, sumD/8) {
		t.Errorf("m: points %v and %v, difference %v; want %v, %v and %v from the databases",
			m.Points[0].Mean, m.Points[1].Mean, m.Difference.Mean, sumA/8, sumB/8, sumD/8)
	}
	if !(m.Difference.Low < m.Difference.Mean && m.Difference.Mean < m.Difference.High) {
		t.Errorf("m: difference interval %+v does not surround its mean", m.Difference)
	}
	if !near(m.LuckAdjustedDifference.Mean, m.LuckAdjusted[0].Mean-m.LuckAdjusted[1].Mean) || m.LuckAdjustedDifference.Mean == m.Difference.Mean {
		t.Errorf("m: luck-adjusted difference %v from %v and %v (raw %v)", m.LuckAdjustedDifference.Mean,
			m.LuckAdjusted[0].Mean, m.LuckAdjusted[1].Mean, m.Difference.Mean)
	}
	var text bytes.Buffer
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a against b, seed 11", "m (money game, Jacoby, paired dice): 8 games in both, 8 analysed at 0 ply in both",
		"luck-adjusted", "skipped x: only in a"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}

	// Without analyses at the depth asked for, the raw figures alone.
	if c, err = ringmaster.Compare(context.Background(), a, b, ringmaster.CompareOptions{Plies: 1}); err != nil {
		t.Fatal(err)
	}
	if m := c.Matchups[0]; m.Analysed != 0 || !math.IsNaN(m.LuckAdjustedDifference.Mean) || m.Games != 8 {
		t.Errorf("at 1 ply: %d analysed, luck-adjusted %v; want none", m.Analysed, m.LuckAdjustedDifference.Mean)
	}

	other := compareVariant(t, dir, "other.toml", "12", net, "0", "", false)
	if _, err := ringmaster.Compare(context.Background(), a, other, ringmaster.CompareOptions{Plies: 0}); err == nil || !strings.Contains(err.Error(), "not on the same dice") {
		t.Errorf("different seeds: %v; want a refusal", err)
	}
}

// The command line: two control files exactly, and JSON whose figures are
// those of Compare.
func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	a := compareVariant(t, dir, "a.toml", "21", `["--level", "net", "--seed", "1"]`, "0", "", false)
	b := compareVariant(t, dir, "b.toml", "21", `["--level", "heuristic", "--seed", "1"]`, "0", "", false)
	out, err := exec.Command(ringmasterBin, "compare", a.Comp.Path, b.Comp.Path, "--json").Output()
	if err != nil {
		t.Fatalf("compare --json: %v", err)
	}
	var got struct {
		Competitions []string
		Matchups     []struct {
			ID         string
			Games      int
			Difference struct{ Value, Low, High *float64 }
			Analysed   int
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	want, err := ringmaster.Compare(context.Background(), a, b, ringmaster.CompareOptions{Plies: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Matchups) != 2 || got.Competitions[0] != "a" || got.Matchups[0].ID != "m" || got.Matchups[0].Games != 8 {
		t.Fatalf("JSON %s", out)
	}
	for i, m := range got.Matchups {
		d := want.Matchups[i].Difference
		if m.Analysed != 0 || m.Difference.Value == nil || math.Abs(*m.Difference.Value-d.Mean) > 1e-9 {
			t.Errorf("JSON matchup %s: %+v; want difference %v, nothing analysed", m.ID, m, d.Mean)
		}
	}
	err = exec.Command(ringmasterBin, "compare", a.Comp.Path).Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Errorf("compare with one control file: %v; want exit status 2", err)
	}
}
