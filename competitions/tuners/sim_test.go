package tuners

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// simOpponent plays the fixed opponent of a simulated tune: a candidate
// wins with probability strength(params), and plus beats minus as the
// Bradley-Terry model of their strengths says. Outcomes are drawn from a
// stream of (seed, game number), so a game's result is a function of the
// game.
type simOpponent struct {
	strength func(Params) float64
	seed     int64
}

func (s simOpponent) score(g Game) float64 {
	r := newStream(s.seed, 99, g.Number)
	pa := s.strength(g.A.Params)
	p := pa
	if g.B != nil {
		pb := s.strength(g.B.Params)
		p = pa * (1 - pb) / (pa*(1-pb) + pb*(1-pa))
	}
	if r.float64() < p {
		return 1
	}
	return 0
}

// bump is the one-parameter strength: best at x = 0.3.
func bump(p Params) float64 {
	x := p["x"].Num
	return 0.5 + 0.4*math.Exp(-math.Pow((x-0.3)/0.25, 2))
}

// bump2 is the two-parameter strength: best at x = 0.3, y = 0.6.
func bump2(p Params) float64 {
	x, y := p["x"].Num, p["y"].Num
	return 0.5 + 0.4*math.Exp(-math.Pow((x-0.3)/0.25, 2)-math.Pow((y-0.6)/0.3, 2))
}

type played struct {
	g     Game
	score float64
}

// driver plays a tune as the ringmaster would with j games at a time,
// finishing in-flight games in an order drawn from its own stream.
type driver struct {
	t        Tuner
	sim      simOpponent
	j        int
	order    stream
	issued   int
	inFlight []Game
	finished []played
	events   int
}

func newDriver(t Tuner, sim simOpponent, j int) *driver {
	return &driver{t: t, sim: sim, j: j, order: newStream(sim.seed, 98, j)}
}

// step issues a game if one is ready and a slot is free, else finishes
// one; it returns false when the tune is over.
func (d *driver) step(tb testing.TB) bool {
	if len(d.inFlight) < d.j {
		g, st := d.t.Next(d.issued)
		if st == Ready {
			if err := d.t.Issued(g); err != nil {
				tb.Fatalf("Issued(%d): %v", g.Number, err)
			}
			d.inFlight = append(d.inFlight, g)
			d.issued++
			d.events++
			return true
		}
	}
	if len(d.inFlight) == 0 {
		return false
	}
	i := 0
	if len(d.inFlight) > 1 {
		i = d.order.intn(len(d.inFlight))
	}
	g := d.inFlight[i]
	d.inFlight = append(d.inFlight[:i:i], d.inFlight[i+1:]...)
	s := d.sim.score(g)
	if err := d.t.Record(g, s); err != nil {
		tb.Fatalf("Record(%d): %v", g.Number, err)
	}
	d.finished = append(d.finished, played{g, s})
	d.events++
	return true
}

func (d *driver) run(tb testing.TB) {
	for d.step(tb) {
	}
}

// resume builds a fresh tuner from what a store would hold after d's
// events: the finished games in the order they finished, then the games
// in flight; the new driver goes on from there.
func (d *driver) resume(tb testing.TB, t Tuner) *driver {
	for _, p := range d.finished {
		if err := t.Issued(p.g); err != nil {
			tb.Fatalf("replay Issued(%d): %v", p.g.Number, err)
		}
		if err := t.Record(p.g, p.score); err != nil {
			tb.Fatalf("replay Record(%d): %v", p.g.Number, err)
		}
	}
	for _, g := range d.inFlight {
		if err := t.Issued(g); err != nil {
			tb.Fatalf("re-issue Issued(%d): %v", g.Number, err)
		}
	}
	return &driver{
		t: t, sim: d.sim, j: d.j, order: d.order, issued: d.issued,
		inFlight: append([]Game(nil), d.inFlight...), finished: append([]played(nil), d.finished...), events: d.events,
	}
}

func jsonOf(tb testing.TB, t Tuner) string {
	b, err := json.Marshal(t.JSON())
	if err != nil {
		tb.Fatalf("json: %v", err)
	}
	return string(b)
}

// gameText writes a game for comparison: NaN values compare as text and B
// by its contents.
func gameText(g Game) string {
	b := "nil"
	if g.B != nil {
		b = fmt.Sprintf("%+v", *g.B)
	}
	return fmt.Sprintf("%d %+v %s %d %q", g.Number, g.A, b, g.Pair, g.Detail)
}
