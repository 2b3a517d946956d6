package ringmaster_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/ringmaster"
	"github.com/gamemill/gamemill/ringmaster/games"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/store"
)

const judgeControl = `competition_type = "playoff"
game = "backgammon"
seed = 48
cube = true
match_length = 1

[players.bot]
kind = "builtin"
args = ["--level", "net", "--plies", "0"]

[players.gnubg0]
kind = "gnubg"
command = ["GNUBG"]
plies = 0

[[matchups]]
id = "bg"
players = ["bot", "gnubg0"]
number_of_games = 3
`

// TestAnalyseJudgeGnubg plays bgbot against gnubg and has both judge the
// games: each judge's analyses are stored under its own name beside the
// other's, the reports name the judge, and each judge finds less chequer
// error in its own engine's play than in the other's (gnubg none at all in
// its own: the self-bias docs/analysis.md describes).
func TestAnalyseJudgeGnubg(t *testing.T) {
	bin := peertest.Gnubg(t)
	dir := t.TempDir()
	rm, err := ringmaster.New(writeControl(t, dir, "judges.toml", strings.Replace(judgeControl, "GNUBG", bin, 1)), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	reports := map[string]*ringmaster.AnalysisReport{}
	for _, spec := range []judge.Spec{{Engine: "gnubg"}, {Plies: 0}} {
		rep, err := rm.Analyse(ctx, ringmaster.AnalyseOptions{Judge: spec})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Analysed != 3 || rep.Now != 3 || len(rep.Failed) != 0 {
			t.Fatalf("%v: %d games analysed, %d now, failed %v", spec, rep.Analysed, rep.Now, rep.Failed)
		}
		reports[rep.Spec.String()] = rep
	}
	if len(reports) != 2 || reports["gnubg:0"] == nil || reports["bgbot:0"] == nil {
		t.Fatalf("reports by %v", reports)
	}
	var text bytes.Buffer
	if err := reports["gnubg:0"].WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "3 games analysed by gnubg 0-ply") {
		t.Errorf("gnubg's report does not name its judge:\n%s", text.String())
	}
	if j := reports["gnubg:0"].JSON(); j.JudgeSpec != "gnubg:0" || j.Judge != "gnubg 0-ply" {
		t.Errorf("JSON names the judge %q, %q", j.JudgeSpec, j.Judge)
	}

	st, err := store.Open(ctx, rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	errorOf := map[string]map[string]float64{} // judge -> player -> chequer error
	for _, key := range []string{"gnubg:0", "bgbot:0"} {
		done, err := st.Analyses(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if len(done) != 3 {
			t.Fatalf("%s: %d analyses stored", key, len(done))
		}
		errorOf[key] = map[string]float64{}
		for _, p := range reports[key].Players {
			errorOf[key][p.Code] = p.Figures["chequer_error"]
			if p.Figures["unforced_moves"] == 0 {
				t.Errorf("%s: %s has no unforced moves", key, p.Code)
			}
		}
	}
	t.Logf("chequer error (EMG) by judge and player: %v", errorOf)
	if e := errorOf["gnubg:0"]["gnubg0"]; e > 0.001 {
		t.Errorf("gnubg 0-ply finds %.3f EMG of error in its own play", e)
	}
	for judge, own := range map[string]string{"gnubg:0": "gnubg0", "bgbot:0": "bot"} {
		other := map[string]string{"gnubg0": "bot", "bot": "gnubg0"}[own]
		if errorOf[judge][own] >= errorOf[judge][other] {
			t.Errorf("%s finds %.3f EMG in its own engine's play, %.3f in the other's", judge, errorOf[judge][own], errorOf[judge][other])
		}
	}
}

// With luck_judge, the luck adjustment during a run is gnubg's, is
// stored under its name and the report names it; a judge the game does not offer is refused at
// its key.
func TestLuckJudge(t *testing.T) {
	bin := peertest.Gnubg(t)
	dir := t.TempDir()
	text := strings.Replace(judgeControl, "GNUBG", bin, 1)
	text = strings.Replace(text, "match_length = 1\n", "match_length = 1\nluck_adjust = true\nluck_judge = \"gnubg:0\"\n", 1)
	rm, err := ringmaster.New(writeControl(t, dir, "luck.toml", text), games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quietRun(t, rm, 1); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for key, want := range map[string]int{"gnubg:0": 3, "bgbot:0": 0} {
		done, err := st.Analyses(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if len(done) != want {
			t.Errorf("%s: %d analyses stored, want %d", key, len(done), want)
		}
		for id, a := range done {
			if a.Judge != "gnubg 0-ply" {
				t.Errorf("%s: judged by %q", id, a.Judge)
			}
			if _, ok := a.Figures[judge.LuckAdjusted]; !ok {
				t.Errorf("%s: no luck-adjusted figure", id)
			}
		}
	}
	var report bytes.Buffer
	if err := rm.Show(ctx, &report); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report.String(), "(3 of 3 games analysed by gnubg:0)") {
		t.Errorf("the report has no luck-adjusted figures:\n%s", report.String())
	}

	for _, bad := range []string{`"nosuch:0"`, `"gnubg:x"`, `3`} {
		text := strings.Replace(judgeControl, "match_length = 1\n", "match_length = 1\nluck_judge = "+bad+"\n", 1)
		_, err := ringmaster.New(writeControl(t, dir, "bad.toml", text), games.All()...)
		if err == nil || !strings.Contains(err.Error(), "bad.toml:6") || !strings.Contains(err.Error(), "luck_judge") {
			t.Errorf("luck_judge = %s: %v", bad, err)
		}
	}
}
