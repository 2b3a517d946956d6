package bgbot

import (
	"bytes"
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

// Net classes: which network judges a position. Weights hold the first
// two (contact positions, crashed ones included, go to the contact
// network), three, or all four.
const (
	ClassContact = iota // the sides can still hit or block each other
	ClassRace           // no contact: a pure race
	ClassCrashed        // contact, but one side's position has collapsed (see Crashed)
	// ClassLeading is a network's class, never a position's (Class does
	// not return it): contact positions that are not crashed and where
	// the side on roll leads the race by LeadingPips or more. They are the
	// positions a trailing side's moves leave, where fitting the contact
	// network to more of them cost it elsewhere.
	ClassLeading
	NumClasses
)

// LeadingPips is the pip lead of the side on roll from which a contact
// position goes to the leading network, where the weights have one. Even
// positions (leads within 19 before the roll) never leave one at 30 or
// more.
const LeadingPips = 30

// ClassName is a class's name in flags and reports: contact, race,
// crashed or leading.
func ClassName(class int) string {
	switch class {
	case ClassContact:
		return "contact"
	case ClassRace:
		return "race"
	case ClassCrashed:
		return "crashed"
	case ClassLeading:
		return "leading"
	}
	return fmt.Sprintf("class %d", class)
}

// ParseClass is the position class ClassName names (contact, race or
// crashed); ok is false for any other name, "leading" included, since
// Class never returns ClassLeading.
func ParseClass(name string) (class int, ok bool) {
	for c := range ClassLeading {
		if ClassName(c) == name {
			return c, true
		}
	}
	return 0, false
}

// ParseClasses is the classes names name, in their order.
func ParseClasses(names []string) ([]int, error) {
	out := make([]int, 0, len(names))
	for _, name := range names {
		c, ok := ParseClass(name)
		if !ok {
			return nil, fmt.Errorf("unknown position class %q (want contact, crashed or race)", name)
		}
		out = append(out, c)
	}
	return out, nil
}

// minClasses is the fewest networks a Weights holds: contact and race.
const minClasses = 2

// NumOutputs is the number of network outputs: the five Probs.
const NumOutputs = 5

// net is one fully connected network: the inputs of its layout, one
// hidden layer of sigmoid units and NumOutputs sigmoid outputs.
type net struct {
	inputs int
	hidden int
	w1     []float32 // input-major: w1[i*hidden+j] joins input i to hidden unit j
	b1     []float32
	w2     []float32 // output-major: w2[k*hidden+j] joins hidden j to output k
	b2     [NumOutputs]float32
}

func newNet(inputs, hidden int, rng *rand.Rand) *net {
	n := &net{
		inputs: inputs,
		hidden: hidden,
		w1:     make([]float32, inputs*hidden),
		b1:     make([]float32, hidden),
		w2:     make([]float32, NumOutputs*hidden),
	}
	if rng != nil {
		r1 := 1 / float32(math.Sqrt(20)) // about 20-60 inputs are active at a time
		for i := range n.w1 {
			n.w1[i] = (rng.Float32()*2 - 1) * r1
		}
		r2 := 1 / float32(math.Sqrt(float64(hidden)))
		for i := range n.w2 {
			n.w2[i] = (rng.Float32()*2 - 1) * r2
		}
	}
	return n
}

func (n *net) clone() *net {
	c := &net{inputs: n.inputs, hidden: n.hidden, b2: n.b2}
	c.w1 = append([]float32(nil), n.w1...)
	c.b1 = append([]float32(nil), n.b1...)
	c.w2 = append([]float32(nil), n.w2...)
	return c
}

// Weights are the trained networks, one per class, and what is known about
// their training. They are read-only after loading; share them freely and
// give each goroutine its own NetEvaluator.
type Weights struct {
	Layout int    // input layout: LayoutV1..LayoutLast
	Hidden int    // hidden units per network
	Games  uint64 // self-play games trained on
	nets   []*net // by class; 2 to NumClasses long
}

// Classes reports how many networks w holds: 2 (contact and race), 3 (a
// crashed network as well) or NumClasses (a leading network too).
func (w *Weights) Classes() int { return len(w.nets) }

// netFor returns the network that judges positions of class c: the
// contact network for crashed or leading positions when w has no network
// of their own.
func (w *Weights) netFor(c int) (*net, int) {
	if c >= len(w.nets) {
		c = ClassContact
	}
	return w.nets[c], c
}

// NetClass reports which of w's networks judges b: its class, ClassLeading
// for a contact position the leading network judges, or ClassContact for a
// crashed or leading position when w has no network of its own for it.
func (w *Weights) NetClass(b *backgammon.Board) int {
	_, c := w.netFor(w.netClassOf(b))
	return c
}

// netClassOf is b's class, or ClassLeading where w has a leading network
// and b belongs to it.
func (w *Weights) netClassOf(b *backgammon.Board) int {
	c := Class(b)
	if c == ClassContact && len(w.nets) > ClassLeading &&
		b.Pips(backgammon.Opponent)-b.Pips(backgammon.OnRoll) >= LeadingPips {
		return ClassLeading
	}
	return c
}

// SplitCrashed returns a copy of w with a crashed network that starts as a
// copy of the contact network, so the copy computes exactly what w
// computes until training specialises it. w must have two classes.
func (w *Weights) SplitCrashed() (*Weights, error) { return w.splitContact(ClassCrashed) }

// SplitLeading is SplitCrashed for the leading network (ClassLeading): w
// must have a crashed network and no leading one.
func (w *Weights) SplitLeading() (*Weights, error) { return w.splitContact(ClassLeading) }

// splitContact returns a copy of w with a network for class, the next one
// w lacks, that starts as a copy of the contact network.
func (w *Weights) splitContact(class int) (*Weights, error) {
	if len(w.nets) != class {
		return nil, fmt.Errorf("split %s: weights have %d networks, want %d", ClassName(class), len(w.nets), class)
	}
	c := w.Clone()
	c.nets = append(c.nets, w.nets[ClassContact].clone())
	return c, nil
}

// NewWeights returns layout-1 networks with small random weights drawn
// from rng.
func NewWeights(hidden int, rng *rand.Rand) (*Weights, error) {
	return NewWeightsLayout(LayoutV1, hidden, rng)
}

// NewWeightsLayout returns networks for an input layout with small random
// weights drawn from rng.
func NewWeightsLayout(layout, hidden int, rng *rand.Rand) (*Weights, error) {
	if hidden < 1 || hidden > 4096 {
		return nil, fmt.Errorf("new weights: hidden units %d out of range 1..4096", hidden)
	}
	in := InputsOf(layout)
	if in == 0 {
		return nil, fmt.Errorf("new weights: unknown input layout %d (want %d..%d)", layout, LayoutV1, LayoutLast)
	}
	w := &Weights{Layout: layout, Hidden: hidden, nets: make([]*net, minClasses)}
	for c := range w.nets {
		w.nets[c] = newNet(in, hidden, rng)
	}
	return w, nil
}

// Widen returns a copy of w with a larger input layout and at least as
// many hidden units, computing exactly what w computes: the inputs that
// layout 2 adds start with zero weights into the old hidden units (as do
// the race features outside the race network when widening to layout 4,
// which feeds them to crashed positions), and the
// new hidden units start with small random input weights (from rng) and
// zero weights into the outputs. Training then teaches the new parts.
// Layout 2 extends layout 1, so the old inputs keep their indexes.
func (w *Weights) Widen(layout, hidden int, rng *rand.Rand) (*Weights, error) {
	if layout < w.Layout || hidden < w.Hidden {
		return nil, fmt.Errorf("widen: layout %d with %d hidden units to layout %d with %d: only growing is possible", w.Layout, w.Hidden, layout, hidden)
	}
	nw, err := NewWeightsLayout(layout, hidden, nil)
	if err != nil {
		return nil, fmt.Errorf("widen: %w", err)
	}
	nw.Games = w.Games
	for len(nw.nets) < len(w.nets) {
		nw.nets = append(nw.nets, newNet(InputsOf(layout), hidden, nil))
	}
	r1 := 1 / float32(math.Sqrt(20))
	for c, o := range w.nets {
		n := nw.nets[c]
		for i := 0; i < n.inputs; i++ {
			for j := 0; j < hidden; j++ {
				switch {
				case j < o.hidden && i < o.inputs:
					n.w1[i*hidden+j] = o.w1[i*o.hidden+j]
				case j >= o.hidden && rng != nil:
					n.w1[i*hidden+j] = (rng.Float32()*2 - 1) * r1
				}
			}
		}
		copy(n.b1, o.b1)
		for k := 0; k < NumOutputs; k++ {
			copy(n.w2[k*hidden:k*hidden+o.hidden], o.w2[k*o.hidden:k*o.hidden+o.hidden])
		}
		n.b2 = o.b2
		if w.Layout < LayoutV4 && layout >= LayoutV4 && c != ClassRace {
			// Layout 4 feeds the race features to crashed positions,
			// which earlier layouts never did outside races: clear what
			// the old units had there (nothing they computed used it).
			for i := NumInputsV2; i < NumInputsV3; i++ {
				clear(n.w1[i*hidden : i*hidden+o.hidden])
			}
		}
	}
	return nw, nil
}

// Clone returns a deep copy.
func (w *Weights) Clone() *Weights {
	c := &Weights{Layout: w.Layout, Hidden: w.Hidden, Games: w.Games, nets: make([]*net, len(w.nets))}
	for i, n := range w.nets {
		c.nets[i] = n.clone()
	}
	return c
}

// Average sets w to the element-wise mean of ws (all with w's shape).
func (w *Weights) Average(ws []*Weights) {
	inv := 1 / float32(len(ws))
	for c, n := range w.nets {
		avg := func(dst []float32, get func(*net) []float32) {
			for i := range dst {
				var s float32
				for _, o := range ws {
					s += get(o.nets[c])[i]
				}
				dst[i] = s * inv
			}
		}
		avg(n.w1, func(m *net) []float32 { return m.w1 })
		avg(n.b1, func(m *net) []float32 { return m.b1 })
		avg(n.w2, func(m *net) []float32 { return m.w2 })
		avg(n.b2[:], func(m *net) []float32 { return m.b2[:] })
	}
}

// Weights file format, all little-endian:
//
//	offset size
//	0      4    magic "BGNT"
//	4      2    format version (1)
//	6      2    input layout (LayoutV1..LayoutLast)
//	8      2    classes (2: contact, race; 3: contact, race, crashed)
//	10     2    outputs (5)
//	12     4    inputs (InputsOf(layout): 214, 246 or 280 for layouts 3 and 4)
//	16     4    hidden units
//	20     8    self-play games trained
//	28     4    CRC-32 (IEEE) of the payload that follows
//	32     ...  payload: per class, w1 (inputs*hidden), b1 (hidden),
//	            w2 (outputs*hidden), b2 (outputs), as float32
const (
	weightsMagic   = "BGNT"
	weightsVersion = 1
	headerSize     = 32
)

// ErrBadWeights is wrapped by every error about a malformed weights file.
var ErrBadWeights = errors.New("bad weights file")

// WriteTo writes the weights in the versioned file format.
func (w *Weights) WriteTo(out io.Writer) (int64, error) {
	var payload bytes.Buffer
	for _, n := range w.nets {
		for _, s := range [][]float32{n.w1, n.b1, n.w2, n.b2[:]} {
			if err := binary.Write(&payload, binary.LittleEndian, s); err != nil {
				return 0, fmt.Errorf("write weights: %w", err)
			}
		}
	}
	h := make([]byte, headerSize)
	copy(h, weightsMagic)
	le := binary.LittleEndian
	le.PutUint16(h[4:], weightsVersion)
	le.PutUint16(h[6:], uint16(w.Layout))
	le.PutUint16(h[8:], uint16(len(w.nets)))
	le.PutUint16(h[10:], NumOutputs)
	le.PutUint32(h[12:], uint32(InputsOf(w.Layout)))
	le.PutUint32(h[16:], uint32(w.Hidden))
	le.PutUint64(h[20:], w.Games)
	le.PutUint32(h[28:], crc32.ChecksumIEEE(payload.Bytes()))
	n1, err := out.Write(h)
	if err != nil {
		return int64(n1), fmt.Errorf("write weights header: %w", err)
	}
	n2, err := out.Write(payload.Bytes())
	if err != nil {
		return int64(n1 + n2), fmt.Errorf("write weights payload: %w", err)
	}
	return int64(n1 + n2), nil
}

// ReadWeights reads a weights file, checking its header and checksum.
func ReadWeights(r io.Reader) (*Weights, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read weights: %w", err)
	}
	return ParseWeights(data)
}

// ParseWeights decodes a weights file held in memory.
func ParseWeights(data []byte) (*Weights, error) {
	if len(data) < headerSize || string(data[:4]) != weightsMagic {
		return nil, fmt.Errorf("%w: no BGNT header", ErrBadWeights)
	}
	le := binary.LittleEndian
	if v := le.Uint16(data[4:]); v != weightsVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrBadWeights, v, weightsVersion)
	}
	layout := int(le.Uint16(data[6:]))
	inputs := InputsOf(layout)
	if inputs == 0 {
		return nil, fmt.Errorf("%w: input layout %d, want %d..%d", ErrBadWeights, layout, LayoutV1, LayoutLast)
	}
	classes := int(le.Uint16(data[8:]))
	if o, in := le.Uint16(data[10:]), le.Uint32(data[12:]); (classes < minClasses || classes > NumClasses) || o != NumOutputs || int(in) != inputs {
		return nil, fmt.Errorf("%w: shape %d classes, %d outputs, %d inputs; want %d..%d, %d, %d for layout %d",
			ErrBadWeights, classes, o, in, minClasses, NumClasses, NumOutputs, inputs, layout)
	}
	hidden := int(le.Uint32(data[16:]))
	if hidden < 1 || hidden > 4096 {
		return nil, fmt.Errorf("%w: %d hidden units", ErrBadWeights, hidden)
	}
	payload := data[headerSize:]
	per := inputs*hidden + hidden + NumOutputs*hidden + NumOutputs
	if len(payload) != 4*per*classes {
		return nil, fmt.Errorf("%w: payload is %d bytes, want %d", ErrBadWeights, len(payload), 4*per*classes)
	}
	if got, want := crc32.ChecksumIEEE(payload), le.Uint32(data[28:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, header says %08x", ErrBadWeights, got, want)
	}
	w := &Weights{Layout: layout, Hidden: hidden, Games: le.Uint64(data[20:]), nets: make([]*net, classes)}
	off := 0
	next := func(dst []float32) {
		for i := range dst {
			dst[i] = math.Float32frombits(le.Uint32(payload[off:]))
			off += 4
		}
	}
	for c := range w.nets {
		n := newNet(inputs, hidden, nil)
		next(n.w1)
		next(n.b1)
		next(n.w2)
		next(n.b2[:])
		w.nets[c] = n
	}
	return w, nil
}

//go:embed weights/default.bgnet
var defaultWeights []byte

// DefaultWeights decodes the weights embedded in the binary
// (engine/bgbot/weights/default.bgnet). Each call returns a fresh copy.
func DefaultWeights() (*Weights, error) {
	w, err := ParseWeights(defaultWeights)
	if err != nil {
		return nil, fmt.Errorf("default weights: %w", err)
	}
	return w, nil
}

//go:embed weights/second.bgnet
var secondWeights []byte

// DefaultSecondWeights decodes the second network embedded in the binary
// (engine/bgbot/weights/second.bgnet), which the bgbot engine's default
// player asks for a second opinion on its best moves and its cube
// decisions (Config.MoveWeights, Config.CubeWeights). It was trained apart
// from the default network, so the two misjudge different positions.
// Each call returns a fresh copy.
func DefaultSecondWeights() (*Weights, error) {
	w, err := ParseWeights(secondWeights)
	if err != nil {
		return nil, fmt.Errorf("second weights: %w", err)
	}
	return w, nil
}

//go:embed weights/window1.bgnet
var window1Weights []byte

//go:embed weights/window2.bgnet
var window2Weights []byte

// DefaultWindowWeights decodes the two networks of the doubling window
// embedded in the binary (engine/bgbot/weights/window1.bgnet and
// window2.bgnet): the default network fitted to positions whose win
// chance lies between 55% and 95%, labelled by its own 1-ply and 2-ply
// searches (docs/bgbot.md, A network for the doubling window). The bgbot
// engine's default player judges its 0-ply cube decisions by their mean
// alone (Config.CubeWeights with Config.CubeAlone). Each call returns
// fresh copies.
func DefaultWindowWeights() ([]*Weights, error) {
	var ws []*Weights
	for i, raw := range [][]byte{window1Weights, window2Weights} {
		w, err := ParseWeights(raw)
		if err != nil {
			return nil, fmt.Errorf("window weights %d: %w", i+1, err)
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// NetEvaluator evaluates positions with a Weights' networks. It owns its
// scratch buffers: one per goroutine.
type NetEvaluator struct {
	w   *Weights
	enc encoder
	x   []float32
	nz  []int32
	hid []float32 // hidden activations of the last evaluation
	grd []float32 // hidden deltas while learning
	out [NumOutputs]float32
	cls int
	// inputRate scales learn's steps on the first layer (input weights
	// and hidden biases) against the output layer's; 1 unless set.
	inputRate float32
}

// NewEvaluator returns an evaluator using w.
func (w *Weights) NewEvaluator() *NetEvaluator {
	return &NetEvaluator{
		w:   w,
		enc: newEncoderFor(w.Layout),
		x:   make([]float32, InputsOf(w.Layout)),
		nz:  make([]int32, 0, InputsOf(w.Layout)),
		hid: make([]float32, w.Hidden),
		grd: make([]float32, w.Hidden),
		// The first layer learns at the output layer's rate unless
		// training sets it.
		inputRate: 1,
	}
}

// Class reports which network judges a position.
func Class(b *backgammon.Board) int {
	switch {
	case !Contact(b):
		return ClassRace
	case Crashed(&b[backgammon.OnRoll]) || Crashed(&b[backgammon.Opponent]):
		return ClassCrashed
	}
	return ClassContact
}

// Crashed reports whether a side's position has collapsed, the class
// gnubg gives its own network: at most crashedInPlay of its checkers are
// left in play once the spares piled on its 1- and 2-points are set
// aside. Such positions (a side stuck behind a prime with its board
// crunched, or bearing in against a late anchor) are rare in self-play
// and play differently from ordinary contact.
func Crashed(s *[25]int8) bool {
	inPlay := 0
	for _, n := range s {
		inPlay += int(n)
	}
	for _, n := range s[:2] {
		if n > 1 {
			inPlay -= int(n) - 1
		}
	}
	return inPlay <= crashedInPlay
}

// crashedInPlay is gnubg's threshold for a crashed side.
const crashedInPlay = 6

// Evaluate implements Evaluator.
func (e *NetEvaluator) Evaluate(b backgammon.Board) Probs {
	e.forward(&b)
	return Probs(e.out).Sanitize()
}

// forward encodes b and runs its class's network, leaving the inputs,
// hidden activations and outputs in e.
func (e *NetEvaluator) forward(b *backgammon.Board) {
	var n *net
	n, e.cls = e.w.netFor(e.w.netClassOf(b))
	e.nz = e.enc.encode(b, e.x, e.nz)
	h := e.hid
	H := n.hidden
	firstLayer(h, n.b1, n.w1, e.nz, e.x)
	sigmoids(h)
	for k := 0; k < NumOutputs; k++ {
		e.out[k] = sigmoid(n.b2[k] + dot(h, n.w2[k*H:k*H+H]))
	}
}

// learn moves the network that judges b toward target by one gradient step
// of the cross-entropy of each sigmoid output (whose gradient with respect
// to the output's input is simply target - output), with step alpha. The
// evaluator must own writable weights.
func (e *NetEvaluator) learn(b *backgammon.Board, target Probs, alpha float32) {
	e.forward(b)
	n := e.w.nets[e.cls] // the network forward used
	H := n.hidden
	var delta [NumOutputs]float32
	for k := range delta {
		delta[k] = alpha * (target[k] - e.out[k])
	}
	// Hidden deltas use the output weights before their update.
	g := e.grd
	for j, a := range e.hid {
		var s float32
		for k := range delta {
			s += delta[k] * n.w2[k*H+j]
		}
		g[j] = s * a * (1 - a) * e.inputRate
	}
	for k := range delta {
		axpy(n.w2[k*H:k*H+H], e.hid, delta[k])
		n.b2[k] += delta[k]
	}
	addTo(n.b1, g)
	for _, i := range e.nz {
		axpy(n.w1[int(i)*H:int(i)*H+H], g, e.x[i])
	}
}

// sigmoid is the logistic function, computed in float32 from a table with
// linear interpolation (error below 1e-5) for speed.
func sigmoid(x float32) float32 {
	// The table covers (-sigLimit, sigLimit). Everything else goes through
	// math.Exp, NaN included (written so that NaN fails the test): a NaN
	// must come out as NaN, never become a table index.
	if !(x > -sigLimit && x < sigLimit) {
		return 1 / (1 + float32(math.Exp(float64(-x))))
	}
	f := (x + sigLimit) * sigScale
	i := int(f)
	t := f - float32(i)
	return sigTable[i] + t*(sigTable[i+1]-sigTable[i])
}

const (
	sigLimit = 16
	sigSteps = 4096
	sigScale = sigSteps / (2 * sigLimit)
)

// sigTable is computed once at start-up and never written afterwards.
var sigTable = func() [sigSteps + 2]float32 {
	var t [sigSteps + 2]float32
	for i := range t {
		x := float64(i)/sigScale - sigLimit
		t[i] = float32(1 / (1 + math.Exp(-x)))
	}
	return t
}()
