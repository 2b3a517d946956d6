package bgbot

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// A Pruner is a small network that ranks the replies inside a search, as
// gnubg's pruning nets do: at each roll of a 1-ply (or deeper) look-ahead
// every legal reply is scored by the pruner, and only the few it ranks
// best are judged by the bot's own network. Its inputs are TD-Gammon's raw
// board encoding only (no hand-made features, which cost most of a full
// evaluation), it has a few hidden units and one linear output, the
// cubeless equity of the player on roll, and it is distilled from the main
// network (TrainPruner) rather than trained by self-play.
type Pruner struct {
	hidden int
	w1     []float32 // prunerInputs x hidden, input-major
	b1     []float32 // hidden
	w2     []float32 // hidden
	b2     float32
}

// prunerInputs is the raw encoding's size: per side, 24 points of 4 units
// (at least 1, 2 and 3 checkers, and (n-3)/2 beyond), the bar and the
// checkers borne off.
const prunerInputs = 2 * (24*4 + 2)

// DefaultPruneKeep is how many replies a roll keeps for the main network
// when a bot prunes.
const DefaultPruneKeep = 4

// NewPruner returns an untrained pruner with small random weights.
func NewPruner(hidden int, rng *rand.Rand) (*Pruner, error) {
	if hidden < 1 || hidden > 1024 {
		return nil, fmt.Errorf("pruner: %d hidden units out of range 1..1024", hidden)
	}
	p := &Pruner{hidden: hidden, w1: make([]float32, prunerInputs*hidden), b1: make([]float32, hidden), w2: make([]float32, hidden)}
	for i := range p.w1 {
		p.w1[i] = float32(rng.NormFloat64() * 0.1)
	}
	for i := range p.w2 {
		p.w2[i] = float32(rng.NormFloat64() * 0.1)
	}
	return p, nil
}

// rawInput is one active input of the raw encoding.
type rawInput struct {
	index int
	value float32
}

// encodeRaw appends the active inputs of b (player on roll's view) to in.
func encodeRaw(b *backgammon.Board, in []rawInput) []rawInput {
	for side, base := range [2]int{0, prunerInputs / 2} {
		s := &b[[2]int{backgammon.OnRoll, backgammon.Opponent}[side]]
		for pt := range 24 {
			n := int(s[pt])
			if n == 0 {
				continue
			}
			k := base + 4*pt
			in = append(in, rawInput{k, 1})
			if n >= 2 {
				in = append(in, rawInput{k + 1, 1})
			}
			if n >= 3 {
				in = append(in, rawInput{k + 2, 1})
			}
			if n > 3 {
				in = append(in, rawInput{k + 3, float32(n-3) / 2})
			}
		}
		if bar := s[backgammon.BarIndex]; bar > 0 {
			in = append(in, rawInput{base + 96, float32(bar) / 2})
		}
		if off := 15 - b.OnBoard([2]int{backgammon.OnRoll, backgammon.Opponent}[side]); off > 0 {
			in = append(in, rawInput{base + 97, float32(off) / 15})
		}
	}
	return in
}

// prunerScratch is one goroutine's buffers for a pruner.
type prunerScratch struct {
	in []rawInput
	h  []float32
}

func (p *Pruner) scratch() *prunerScratch {
	return &prunerScratch{in: make([]rawInput, 0, 128), h: make([]float32, p.hidden)}
}

// equity is the pruner's cubeless equity for the player on roll of b.
func (p *Pruner) equity(b *backgammon.Board, s *prunerScratch) float32 {
	s.in = encodeRaw(b, s.in[:0])
	copy(s.h, p.b1)
	pruneRows(s.h, p.w1, s.in)
	sigmoids(s.h)
	out := p.b2
	for j, v := range s.h {
		out += v * p.w2[j]
	}
	return out
}

// learn takes one squared-error gradient step toward target.
func (p *Pruner) learn(b *backgammon.Board, target, alpha float32, s *prunerScratch) {
	d := p.equity(b, s) - target
	p.b2 -= alpha * d
	for j, h := range s.h {
		g := d * p.w2[j] * h * (1 - h)
		p.w2[j] -= alpha * d * h
		p.b1[j] -= alpha * g
		s.h[j] = g // reused below as the hidden unit's gradient
	}
	for _, x := range s.in {
		row := p.w1[x.index*p.hidden : (x.index+1)*p.hidden]
		for j := range row {
			row[j] -= alpha * x.value * s.h[j]
		}
	}
}

// PrunerSample is a position (player on roll's view) with the main
// network's cubeless equity for it.
type PrunerSample struct {
	Board  backgammon.Board
	Equity float32
}

// PrunerSamples makes the pruner's training data from positions before
// the roll: for each, one seeded roll, and every legal move's resulting
// position seen by the opponent on roll, labelled with w's 0-ply equity.
// These are the positions a pruner ranks, good and bad replies alike.
// Finished games are left out.
func PrunerSamples(ctx context.Context, w *Weights, boards []backgammon.Board, seed uint64) ([]PrunerSample, error) {
	ev := w.NewEvaluator()
	gen := backgammon.NewMoveGen()
	rng := rand.New(rand.NewPCG(seed, 0x7072756e))
	var out []PrunerSample
	for i, b := range boards {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("pruner samples: %w", ctx.Err())
		}
		_, after := gen.Generate(b, rng.IntN(6)+1, rng.IntN(6)+1)
		for k := range after {
			if _, over := Outcome(&after[k], 15); over {
				continue
			}
			opp := after[k].Swap()
			out = append(out, PrunerSample{Board: opp, Equity: ev.Evaluate(opp).Equity()})
		}
	}
	return out, nil
}

// TrainPruner fits p to samples by stochastic gradient descent on squared
// error, in a seeded shuffled order, epochs times, the step decaying
// linearly from alpha to alphaEnd. It returns the final root mean square
// error over the samples.
func TrainPruner(ctx context.Context, p *Pruner, samples []PrunerSample, epochs int, alpha, alphaEnd float64, seed uint64) (float64, error) {
	if len(samples) == 0 || epochs < 1 {
		return 0, errors.New("train pruner: no samples or epochs")
	}
	rng := rand.New(rand.NewPCG(seed, 0x66697470))
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	s := p.scratch()
	total := epochs * len(samples)
	step := 0
	for range epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, k := range order {
			if step%4096 == 0 && ctx.Err() != nil {
				return 0, fmt.Errorf("train pruner: %w", ctx.Err())
			}
			a := alpha + (alphaEnd-alpha)*float64(step)/float64(total)
			p.learn(&samples[k].Board, samples[k].Equity, float32(a), s)
			step++
		}
	}
	var sq float64
	for i := range samples {
		d := float64(p.equity(&samples[i].Board, s) - samples[i].Equity)
		sq += d * d
	}
	return math.Sqrt(sq / float64(len(samples))), nil
}

// Pruner file (little-endian): magic "BGPR", version 1, inputs, hidden,
// CRC-32 of the payload, then w1, b1, w2, b2 as float32.
const prunerMagic = "BGPR"

// WriteTo writes the pruner in its file format.
func (p *Pruner) WriteTo(w io.Writer) (int64, error) {
	var payload bytes.Buffer
	for _, part := range [][]float32{p.w1, p.b1, p.w2, {p.b2}} {
		if err := binary.Write(&payload, binary.LittleEndian, part); err != nil {
			return 0, err
		}
	}
	var head bytes.Buffer
	head.WriteString(prunerMagic)
	for _, v := range []uint32{1, prunerInputs, uint32(p.hidden), crc32.ChecksumIEEE(payload.Bytes())} {
		binary.Write(&head, binary.LittleEndian, v)
	}
	n, err := w.Write(append(head.Bytes(), payload.Bytes()...))
	return int64(n), err
}

// ParsePruner reads a pruner file, checking its magic, version, shape,
// size and checksum.
func ParsePruner(data []byte) (*Pruner, error) {
	if len(data) < 20 || string(data[:4]) != prunerMagic {
		return nil, errors.New("pruner: not a pruner file (bad magic)")
	}
	version, inputs, hidden, sum := binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint32(data[8:]), binary.LittleEndian.Uint32(data[12:]), binary.LittleEndian.Uint32(data[16:])
	if version != 1 {
		return nil, fmt.Errorf("pruner: version %d, want 1", version)
	}
	if inputs != prunerInputs || hidden < 1 || hidden > 1024 {
		return nil, fmt.Errorf("pruner: shape %d x %d, want %d inputs and 1..1024 hidden units", inputs, hidden, prunerInputs)
	}
	payload := data[20:]
	h := int(hidden)
	if want := 4 * (prunerInputs*h + 2*h + 1); len(payload) != want {
		return nil, fmt.Errorf("pruner: %d bytes of weights, want %d", len(payload), want)
	}
	if crc32.ChecksumIEEE(payload) != sum {
		return nil, errors.New("pruner: checksum mismatch")
	}
	p := &Pruner{hidden: h, w1: make([]float32, prunerInputs*h), b1: make([]float32, h), w2: make([]float32, h)}
	r := bytes.NewReader(payload)
	b2 := make([]float32, 1)
	for _, part := range [][]float32{p.w1, p.b1, p.w2, b2} {
		if err := binary.Read(r, binary.LittleEndian, part); err != nil {
			return nil, fmt.Errorf("pruner: %w", err)
		}
	}
	p.b2 = b2[0]
	for _, part := range [][]float32{p.w1, p.b1, p.w2, b2} {
		for _, v := range part {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, errors.New("pruner: a weight is not finite")
			}
		}
	}
	return p, nil
}

//go:embed weights/pruner.bgpr
var defaultPruner []byte

// DefaultPruner decodes the pruner embedded in the binary
// (engine/bgbot/weights/pruner.bgpr, distilled from the default weights).
// A pruner is only read by bots, so one may be shared.
func DefaultPruner() (*Pruner, error) {
	p, err := ParsePruner(defaultPruner)
	if err != nil {
		return nil, fmt.Errorf("default pruner: %w", err)
	}
	return p, nil
}
