// Package recordtest makes match records for tests: random but legal play
// recorded through record.Builder, from a seed.
package recordtest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
)

// Options tune RandomMatch.
type Options struct {
	Games    int     // money sessions: games to play (matches play to the end)
	DoubleP  float64 // chance of doubling when allowed
	DropP    float64 // chance of dropping a double
	BeaverP  float64 // chance of beavering when allowed
	ResignP  float64 // chance per turn of resigning (always accepted)
	MaxPlies int     // stop a game (unfinished) after this many moves; 0 for no limit
	Unfinish bool    // leave the last game unfinished after a roll
}

// RandomMatch plays a match (or session) between two random players and
// returns its record. The same seed gives the same record.
func RandomMatch(seed uint64, players [2]string, r backgammon.Rules, o Options) (*record.Match, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	dice := backgammon.NewDice(seed, seed+1)
	b := record.NewBuilder(players, r)
	s := b.State()
	games := 0
	for {
		if r.Money() && games >= o.Games || !r.Money() && s.MatchOver() {
			return b.Match(), nil
		}
		games++
		first, d0, d1 := dice.Opening()
		if err := b.Roll(first, d0, d1); err != nil {
			return nil, err
		}
		last := r.Money() && games == o.Games && o.Unfinish
		for plies := 0; s.GameState == backgammon.GamePlaying; plies++ {
			if last && plies > 6 && s.Decision() == backgammon.DecideMove {
				return b.Match(), nil
			}
			if err := step(b, s, rng, dice, o); err != nil {
				return nil, fmt.Errorf("game %d: %w", games, err)
			}
		}
	}
}

func step(b *record.Builder, s *backgammon.State, rng *rand.Rand, dice *backgammon.Dice, o Options) error {
	switch s.Decision() {
	case backgammon.DecideCube, backgammon.NeedRoll:
		if rng.Float64() < o.ResignP {
			level := backgammon.Result(1 + rng.IntN(3))
			if s.Money() && s.Jacoby && s.Cube && s.CubeValue == 1 {
				level = backgammon.Single
			}
			if err := b.Resign(s.Move, level); err != nil {
				return err
			}
			return b.AcceptResignation(1 - s.Move)
		}
		if s.Decision() == backgammon.DecideCube && rng.Float64() < o.DoubleP {
			return b.Double(s.Move)
		}
		d0, d1 := dice.Roll()
		return b.Roll(s.Move, d0, d1)
	case backgammon.DecideTake:
		p := 1 - s.Move
		x := rng.Float64()
		switch {
		case x < o.DropP:
			return b.Drop(p)
		case s.CanBeaver() && x < o.DropP+o.BeaverP:
			return b.Beaver(p)
		}
		return b.Take(p)
	case backgammon.DecideMove:
		ms := s.LegalMoves()
		mv := ms[rng.IntN(len(ms))]
		return b.Play(s.Move, mv)
	}
	return fmt.Errorf("unexpected decision %v", s.Decision())
}

// Load reads the record in the file at path with read (mat.Read, sgf.Read),
// failing the test on any error.
func Load(t testing.TB, read func(io.Reader) (*record.Match, error), path string) *record.Match {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// Replayed replays m through the rules (record.Replay), failing the test
// on an error, and returns it.
func Replayed(t testing.TB, m *record.Match) *record.Match {
	t.Helper()
	if err := record.Replay(m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Matches returns the standard set of seeded random records the format
// tests round-trip, by name: a 7-point match, a money session, a money
// session with Jacoby and beavers left unfinished, a match without the
// Crawford rule and a cubeless hypergammon match, all between players.
func Matches(t testing.TB, players [2]string) map[string]*record.Match {
	t.Helper()
	out := map[string]*record.Match{}
	add := func(name string, seed uint64, r backgammon.Rules, o Options) {
		m, err := RandomMatch(seed, players, r, o)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = m
	}
	add("match", 7, backgammon.Rules{MatchLength: 7, Crawford: true, Cube: true}, Options{DoubleP: 0.05, DropP: 0.3, ResignP: 0.01})
	add("money", 3, backgammon.Rules{Cube: true}, Options{Games: 5, DoubleP: 0.05, DropP: 0.3, ResignP: 0.01})
	add("money jacoby beavers unfinished", 5, backgammon.Rules{Cube: true, Jacoby: true, Beavers: true},
		Options{Games: 5, DoubleP: 0.05, DropP: 0.3, BeaverP: 0.3, ResignP: 0.01, Unfinish: true})
	add("no crawford", 9, backgammon.Rules{MatchLength: 5, Cube: true}, Options{DoubleP: 0.05, DropP: 0.3})
	add("cubeless hypergammon", 11, backgammon.Rules{Variant: backgammon.Hypergammon3, MatchLength: 3}, Options{})
	return out
}

// RoundTrip writes m with write, reads the text back with read, replays
// it, and fails the test unless the result equals m (record.Diff): the
// round-trip check of every record format.
func RoundTrip(t testing.TB, m *record.Match, write func(io.Writer, *record.Match) error, read func(io.Reader) (*record.Match, error)) {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("reading what we wrote: %v\n%s", err, buf.String())
	}
	if err := record.Replay(back); err != nil {
		t.Fatalf("replaying what we wrote: %v\n%s", err, buf.String())
	}
	if d := record.Diff(m, back); d != "" {
		t.Fatalf("round trip differs: %s\n%s", d, buf.String())
	}
}
