package ringmaster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster"
)

// poolBatch is one batch of an experiment: compareControl's competition,
// each game judged as it ends.
func poolBatch(t *testing.T, dir, name, seed, bot, length string) *ringmaster.Ringmaster {
	t.Helper()
	return runVariant(t, dir, name, "luck_adjust = true\n"+compareText(seed, bot, length, ""), false)
}

func TestPool(t *testing.T) {
	dir := t.TempDir()
	net := `["--level", "net", "--seed", "1"]`
	noisy := `["--level", "net", "--noise", "0.3", "--seed", "2"]`
	a := poolBatch(t, dir, "a.toml", "21", net, "3")
	b := poolBatch(t, dir, "b.toml", "22", net, "3")
	sameDice := poolBatch(t, dir, "again.toml", "21", net, "3")
	other := poolBatch(t, dir, "other.toml", "23", noisy, "5")

	ctx := context.Background()
	if _, err := ringmaster.PoolResults(ctx, []*ringmaster.Ringmaster{a}); err == nil {
		t.Error("a pool of one competition: no error")
	}
	p, err := ringmaster.PoolResults(ctx, []*ringmaster.Ringmaster{a, b, sameDice, other})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Matchups) != 2 {
		t.Fatalf("%d matchups pooled, want 2 (skipped %q)", len(p.Matchups), p.Skipped)
	}
	for _, want := range []string{
		"m in again: seed 21, as in a", "s in again: seed 21, as in a",
		"m in other: player bot is defined differently", "s in other: settings differ",
	} {
		if !strings.Contains(strings.Join(p.Skipped, "\n"), want) {
			t.Errorf("skipped %q: nothing says %q", p.Skipped, want)
		}
	}

	var out bytes.Buffer
	if err := p.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Matchups []struct {
			ID      string
			Played  int
			Planned int
			Wins    [2]float64
			Sources []ringmaster.PoolSource
			Points  struct {
				Value float64
				Basis string
			} `json:"points_per_game"`
			Luck struct{ Basis string } `json:"luck_adjusted_points_per_game"`
			Game map[string]any         `json:"backgammon"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("pool --json: %v\n%s", err, out.String())
	}
	m := got.Matchups[0]
	if m.ID != "m" || len(m.Sources) != 2 || m.Sources[0].Competition != "a" || m.Sources[1].Seed != 22 || m.Game == nil {
		t.Fatalf("first pooled matchup %+v: want m from a and b with its backgammon section", m)
	}
	// Every figure is over both batches' games, read here straight from
	// their databases.
	var sum float64
	games := 0
	for _, rm := range []*ringmaster.Ringmaster{a, b} {
		for _, pts := range firstPlayerPoints(t, rm.DBPath(), "m") {
			sum += pts
			games++
		}
	}
	if games != 16 || m.Played != 16 || m.Planned != 16 || m.Sources[0].Games+m.Sources[1].Games != 16 {
		t.Errorf("played %d, planned %d, sources %+v; the databases hold %d games, want 16 of 16", m.Played, m.Planned, m.Sources, games)
	}
	if m.Wins[0]+m.Wins[1] != 16 {
		t.Errorf("wins %v: want 16 in all", m.Wins)
	}
	if math.Abs(m.Points.Value-sum/16) > 1e-9 || m.Points.Basis != "8 complete pairs" {
		t.Errorf("points per game %v (%s), want %v over 8 complete pairs", m.Points.Value, m.Points.Basis, sum/16)
	}
	if m.Luck.Basis != "16 games analysed" {
		t.Errorf("luck-adjusted basis %q, want 16 games analysed", m.Luck.Basis)
	}

	// The text names each source and prints the matchup as show does.
	out.Reset()
	if err := p.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pooled from a, b, again, other", "m: a (seed 21, 8 games), b (seed 22, 8 games)",
		"(16/16 games)", "(8 complete pairs)", "(16 of 16 games analysed)", "left out:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("pool text lacks %q:\n%s", want, out.String())
		}
	}

	// Pooling reads the batches and changes none of them.
	var show bytes.Buffer
	if err := a.ShowJSON(ctx, &show); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(show.String(), `"planned": 8`) || strings.Contains(show.String(), `"planned": 16`) {
		t.Errorf("a's own report after pooling:\n%s", show.String())
	}
}
