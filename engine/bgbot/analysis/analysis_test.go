package analysis

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
)

// botMatch plays a match (or games money games) between two bots and
// records it, as the ringmaster would.
func botMatch(t testing.TB, r backgammon.Rules, games int, seed uint64, bots [2]*bgbot.Bot) *record.Match {
	t.Helper()
	b := record.NewBuilder([2]string{"zero", "one"}, r)
	s := b.State()
	dice := backgammon.NewDice(seed, 1)
	for played := 0; ; played++ {
		if r.Money() && played == games || !r.Money() && s.MatchOver() {
			return b.Match()
		}
		first, d0, d1 := dice.Opening()
		if err := b.Roll(first, d0, d1); err != nil {
			t.Fatal(err)
		}
		playOut(t, b, dice, bots)
	}
}

// playOut plays the game in progress in b to its end.
func playOut(t testing.TB, b *record.Builder, dice *backgammon.Dice, bots [2]*bgbot.Bot) {
	t.Helper()
	s := b.State()
	for s.GameState == backgammon.GamePlaying {
		var err error
		switch s.Decision() {
		case backgammon.DecideCube, backgammon.NeedRoll:
			var dbl bool
			if s.Decision() == backgammon.DecideCube {
				dbl, err = bots[s.Move].Double(s)
			}
			if err == nil {
				if dbl {
					err = b.Double(s.Move)
				} else {
					d0, d1 := dice.Roll()
					err = b.Roll(s.Move, d0, d1)
				}
			}
		case backgammon.DecideTake:
			var ans backgammon.Answer
			if ans, err = bots[s.Turn].Take(s); err == nil {
				switch ans {
				case backgammon.Take:
					err = b.Take(s.Turn)
				case backgammon.Beaver:
					err = b.Beaver(s.Turn)
				default:
					err = b.Drop(s.Turn)
				}
			}
		case backgammon.DecideMove:
			var m backgammon.Move
			if m, _, err = bots[s.Move].Move(s); err == nil {
				err = b.Play(s.Move, m)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func newBot(t testing.TB, noise float64, seed uint64) *bgbot.Bot {
	t.Helper()
	bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Noise: noise, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return bot
}

// The judge at 0 ply agrees with bgbot at 0 ply, noiseless, in cubeless
// money play: every chequer play is the best one.
func TestCleanBotMakesNoChequerError(t *testing.T) {
	r := backgammon.Rules{Variant: backgammon.Standard}
	m := botMatch(t, r, 4, 3, [2]*bgbot.Bot{newBot(t, 0, 1), newBot(t, 0, 2)})
	rep, err := AnalyseMatch(context.Background(), m, 0)
	if err != nil {
		t.Fatal(err)
	}
	for p := range 2 {
		st := &rep.Overall[p]
		if st.UnforcedMoves < 20 {
			t.Fatalf("player %d: %d unforced moves in 4 games", p, st.UnforcedMoves)
		}
		if st.ChequerError > 1e-6 {
			t.Errorf("player %d: chequer error %v, want 0", p, st.ChequerError)
		}
		if st.CubeDecisions != 0 {
			t.Errorf("player %d: %d cube decisions in cubeless play", p, st.CubeDecisions)
		}
	}
}

// A noisy player errs more than a clean one, in money play with the cube
// and in a match; the reports add up.
func TestNoiseShowsAsErrors(t *testing.T) {
	for _, r := range []backgammon.Rules{
		{Variant: backgammon.Standard, Cube: true},
		{Variant: backgammon.Standard, Cube: true, MatchLength: 5, Crawford: true},
	} {
		m := botMatch(t, r, 3, 5, [2]*bgbot.Bot{newBot(t, 0, 1), newBot(t, 0.1, 2)})
		rep, err := AnalyseMatch(context.Background(), m, 0)
		if err != nil {
			t.Fatal(err)
		}
		clean, noisy := &rep.Overall[0], &rep.Overall[1]
		// The floor is loose: over 3 games noise 0.1 costs 10 to 30 mEMG a
		// move depending on the network (9.9 in the match with the layout-2
		// default), against a clean player's 0.2.
		if !(noisy.ChequerErrorRate() > 2*clean.ChequerErrorRate()) || noisy.ChequerErrorRate() < 0.005 {
			t.Errorf("match length %d: chequer error rates clean %.4f, noisy (0.1) %.4f",
				r.MatchLength, clean.ChequerErrorRate(), noisy.ChequerErrorRate())
		}
		checkSums(t, rep)
		t.Logf("match length %d: clean %.1f mEMG (%s), noisy %.1f mEMG (%s); cube %d/%d close",
			r.MatchLength, 1000*clean.OverallErrorRate(), clean.RatingLabel(),
			1000*noisy.OverallErrorRate(), noisy.RatingLabel(), clean.CloseCube, noisy.CloseCube)
	}
}

// checkSums checks that the overall figures are the sums of the games' and
// the games' of their decisions, and that results and luck balance.
func checkSums(t *testing.T, rep *Report) {
	t.Helper()
	var sum [2]Stats
	for _, g := range rep.Games {
		var luck [2]float64
		for _, d := range g.Decisions {
			luck[d.Player] += d.Luck
		}
		for p := range 2 {
			if math.Abs(luck[p]-g.Stats[p].Luck) > 1e-9 {
				t.Errorf("game %d player %d: luck %v, decisions sum to %v", g.Number, p, g.Stats[p].Luck, luck[p])
			}
			sum[p].add(&g.Stats[p])
		}
		if math.Abs(g.Stats[0].Result+g.Stats[1].Result) > 1e-9 || math.Abs(g.Stats[0].LuckAdjusted+g.Stats[1].LuckAdjusted) > 1e-9 {
			t.Errorf("game %d: results %v, %v do not balance", g.Number, g.Stats[0], g.Stats[1])
		}
	}
	if sum != rep.Overall {
		t.Errorf("overall %+v, games sum to %+v", rep.Overall, sum)
	}
	if rep.MatchLength > 0 {
		// A finished match: the results add to +-0.5 MWC.
		if r := rep.Overall[0].Result; math.Abs(math.Abs(r)-0.5) > 1e-9 {
			t.Errorf("match result for player 0 %v, want +-0.5", r)
		}
	}
}

func loadMat(t testing.TB, path string) *record.Match {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("no reference record: %v", err)
	}
	defer f.Close()
	m, err := mat.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := record.Replay(m); err != nil {
		t.Fatal(err)
	}
	return m
}

// gnubg counted 93 and 91 moves, 85 and 66 of them unforced, 33 cube
// decisions each, for this match (gnubg 1.07, "show statistics match").
func TestCountsAsGnubg(t *testing.T) {
	m := loadMat(t, filepath.Join("testdata", "gnubg-3pt-match.mat"))
	rep, err := AnalyseMatch(context.Background(), m, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkSums(t, rep)
	want := [2]struct{ total, unforced, doubles, takes int }{{93, 85, 0, 1}, {91, 66, 1, 0}}
	for p, w := range want {
		st := &rep.Overall[p]
		if st.TotalMoves != w.total || st.UnforcedMoves != w.unforced || st.Doubles != w.doubles || st.Takes != w.takes {
			t.Errorf("player %d: %d moves, %d unforced, %d doubles, %d takes; gnubg counts %d, %d, %d, %d",
				p, st.TotalMoves, st.UnforcedMoves, st.Doubles, st.Takes, w.total, w.unforced, w.doubles, w.takes)
		}
		t.Logf("player %d: chequer %.1f mEMG, cube %.1f mEMG over %d close of %d; luck %+.3f EMG (%+.1f mEMG/move) %s; result %+.3f, luck-adjusted %+.3f",
			p, 1000*st.ChequerErrorRate(), 1000*st.CubeErrorRate(), st.CloseCube, st.CubeDecisions,
			st.Luck, 1000*st.LuckRate(), st.LuckLabel(), st.Result, st.LuckAdjusted)
	}
}

// A game set up at a position (Game.Start, as a suite of start positions
// plays them) has no opening roll: the cube decision of the player on
// roll before the first roll is judged like any other, and in a match the
// game's result runs from the match winning chance at that position's
// start, even when the first action is a double.
func TestGameFromStartPosition(t *testing.T) {
	const start = "73YLAABtuYEBYA:UQlgAAAAAAAE" // examples/positions/trailing.txt
	money := backgammon.Rules{Variant: backgammon.Standard, Cube: true}
	b := record.NewBuilder([2]string{"zero", "one"}, money)
	if err := b.StartAt(start); err != nil {
		t.Fatal(err)
	}
	onRoll := b.State().Move
	if !b.State().CanDouble() {
		t.Fatalf("%s: the player on roll may not double", start)
	}
	playOut(t, b, backgammon.NewDice(9, 1), [2]*bgbot.Bot{newBot(t, 0, 1), newBot(t, 0, 2)})
	rep, err := AnalyseMatch(context.Background(), b.Match(), 0)
	if err != nil {
		t.Fatal(err)
	}
	checkSums(t, rep)
	if d := rep.Games[0].Decisions[0]; d.Kind != CubeAction || d.Action != 0 || d.Player != onRoll {
		t.Errorf("first decision %+v; want player %d's cube decision at action 0", d, onRoll)
	}

	match := backgammon.Rules{Variant: backgammon.Standard, Cube: true, MatchLength: 5, Crawford: true}
	b = record.NewBuilder([2]string{"zero", "one"}, match)
	if err := b.StartAt(start); err != nil {
		t.Fatal(err)
	}
	if err := b.Double(onRoll); err != nil {
		t.Fatal(err)
	}
	if err := b.Drop(1 - onRoll); err != nil {
		t.Fatal(err)
	}
	rep, err = AnalyseMatch(context.Background(), b.Match(), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Up 1-0 to 5 from 0-0: the winner's chance rises from one half.
	if r := rep.Games[0].Stats[onRoll].Result; !(r > 0 && r < 0.5) {
		t.Errorf("result of a dropped double for the doubler %v; want a gain of MWC between 0 and 0.5", r)
	}
	if st := rep.Overall[onRoll]; st.Doubles != 1 || st.CubeDecisions != 1 {
		t.Errorf("doubler: %d doubles, %d cube decisions; want 1 and 1", st.Doubles, st.CubeDecisions)
	}
}
