package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// raceSide builds one side's checkers from point (1..25) counts.
func raceSide(points map[int]int8) [25]int8 {
	var s [25]int8
	for p, n := range points {
		s[p-1] = n
	}
	return s
}

// bearoff15 builds the 15-checker database, skipping the test with -short.
func bearoff15(t *testing.T) *Bearoff {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the 15-checker database (a few seconds)")
	}
	db, err := NewBearoff(15)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// netBot is a bot of the net level with cfg's other settings.
func netBot(t *testing.T, cfg Config) *Bot {
	t.Helper()
	cfg.Level = LevelNet
	bot, err := NewBot(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return bot
}

// raceBoard is the board with onRoll's checkers on roll.
func raceBoard(onRoll, opponent [25]int8) backgammon.Board {
	var b backgammon.Board
	b[backgammon.OnRoll], b[backgammon.Opponent] = onRoll, opponent
	return b
}

// TestRaceGammons checks the one-sided counts against the race itself:
// a trailer with one checker on its 12-point and 14 home, against a leader
// with two checkers left on its 6-point, the leader on roll. The gammon
// chance the counts give must match a simulation of the race played by
// the same rules (the leader by the database's plays, the trailer bringing
// its checker home and bearing off as soon as it can, each roll's play
// the one the counts rank best), and the count of a home trailer must be
// the database's own. Contact positions and races with a checker off on
// each side are left alone.
func TestRaceGammons(t *testing.T) {
	db := bearoff15(t)
	rc := newRaceCounts(db)
	leader := raceSide(map[int]int8{6: 2})
	trailer := raceSide(map[int]int8{12: 1, 6: 5, 5: 2, 4: 3, 3: 4})
	b := raceBoard(leader, trailer)
	net := Probs{Win: 0.999, WinGammon: 0.3}
	p := rc.raceGammons(&b, net)
	if p[Win] != net[Win] || p[LoseGammon] != 0 || p[WinBackgammon] != 0 {
		t.Errorf("only the leader's gammon should change: %v", p)
	}

	// The simulation.
	gen := backgammon.NewMoveGen()
	dice := backgammon.NewDice(3, 0)
	best := func(s [25]int8, d1, d2 int, value func(*[25]int8) float32) [25]int8 {
		var bb backgammon.Board
		bb[backgammon.OnRoll] = s
		_, boards := gen.Generate(bb, d1, d2)
		var out [25]int8
		least := float32(math.Inf(1))
		for _, nb := range boards {
			if v := value(&nb[backgammon.OnRoll]); v < least {
				least, out = v, nb[backgammon.OnRoll]
			}
		}
		return out
	}
	finish := func(s *[25]int8) float32 {
		if k, ok := db.lookup(s); ok {
			return db.mean[k]
		}
		return 0 // all off
	}
	first := func(s *[25]int8) float32 {
		n := 0
		for _, c := range s {
			n += int(c)
		}
		if n < 15 {
			return 0 // a checker is off
		}
		c, ok := rc.firstOff(s)
		if !ok {
			return 1e9
		}
		// Ahead of everything else, the checkers outside come nearest home.
		return c.mean + 100*float32(outsidePips(s))
	}
	const games = 200000
	gammons := 0
	for range games {
		l, tr := leader, trailer
		for {
			l = best(l, dice.Die(), dice.Die(), finish)
			if finish(&l) == 0 {
				gammons++
				break
			}
			tr = best(tr, dice.Die(), dice.Die(), first)
			if first(&tr) == 0 {
				break
			}
		}
	}
	sim := float64(gammons) / games
	se := math.Sqrt(sim * (1 - sim) / games)
	t.Logf("gammon: counts %.4f, simulation %.4f ± %.4f", p[WinGammon], sim, se)
	if math.Abs(float64(p[WinGammon])-sim) > 4*se {
		t.Errorf("gammon chance %.4f, the simulation gives %.4f ± %.4f", p[WinGammon], sim, se)
	}

	// With the trailer on roll the count gives the loss of a gammon, less
	// likely than with the leader on roll (the trailer rolls first).
	sw := b.Swap()
	if q := rc.raceGammons(&sw, net.Invert()); !(q[LoseGammon] > 0 && q[LoseGammon] < p[WinGammon]) || q[WinGammon] != 0 {
		t.Errorf("trailer on roll: %v", q)
	}
	// A trailer already home has the database's count.
	home := raceSide(map[int]int8{6: 6, 5: 2, 4: 3, 3: 4})
	c, ok := rc.firstOff(&home)
	if k, _ := db.lookup(&home); !ok || c.dist != db.first[k] {
		t.Error("a home trailer's count is not the database's")
	}
	// Left alone: contact, a trailer with a checker off, a trailer too far
	// from home to search.
	contact := raceBoard(raceSide(map[int]int8{6: 2, 24: 1}), trailer)
	off := raceBoard(leader, raceSide(map[int]int8{12: 1, 6: 5, 5: 2, 4: 3, 3: 3}))
	far := raceBoard(leader, raceSide(map[int]int8{22: 1, 13: 1, 6: 4, 5: 2, 4: 3, 3: 4}))
	for name, x := range map[string]backgammon.Board{"contact": contact, "a checker off": off, "far from home": far} {
		if got := rc.raceGammons(&x, net); got != net {
			t.Errorf("%s: %v changed to %v", name, net, got)
		}
	}
}

// A bot with RaceGammons uses the counts in its evaluations; without a
// 15-checker database it cannot, and does nothing.
func TestBotRaceGammons(t *testing.T) {
	db := bearoff15(t)
	counts, net := netBot(t, Config{Bearoff: db, RaceGammons: true}), netBot(t, Config{Bearoff: db})
	b := raceBoard(raceSide(map[int]int8{6: 2}), raceSide(map[int]int8{12: 1, 6: 5, 5: 2, 4: 3, 3: 4}))
	want := counts.race.raceGammons(&b, net.Probs(b))
	if got := counts.Probs(b); got != want {
		t.Errorf("bot with counts %v, want %v", got, want)
	}
	if got := net.Probs(b); got == want {
		t.Errorf("the network alone agrees with the counts (%v), so the case tells nothing", got)
	}
	if small := netBot(t, Config{RaceGammons: true}); small.race != nil {
		t.Error("counts without a 15-checker database")
	}
}
