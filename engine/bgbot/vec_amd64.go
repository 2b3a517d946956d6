//go:build amd64 && !purego

package bgbot

import (
	"math/bits"

	"golang.org/x/sys/cpu"
)

// addTo adds src to dst; src must be at least as long as dst.
func addTo(dst, src []float32) { addToSSE(dst, src[:len(dst)]) }

// axpy adds v*src to dst; src must be at least as long as dst.
func axpy(dst, src []float32, v float32) { axpySSE(dst, src[:len(dst)], v) }

// dot is the inner product of a and b; b must be at least as long as a.
func dot(a, b []float32) float32 { return dotSSE(a, b[:len(a)]) }

// The processor's vector extensions, read once at start-up: the first
// layer keeps its sums in registers where AVX-512 (blocks of 256) or AVX2
// (blocks of 64) is there.
var (
	hasAVX512 = cpu.X86.HasAVX512F
	hasAVX2   = cpu.X86.HasAVX2
	// mathFMA is whether package math's Exp takes its FMA path (it
	// tests the same two bits), which expSigmoidsAVX512 repeats.
	mathFMA = cpu.X86.HasAVX && cpu.X86.HasFMA
)

// firstLayer is firstLayerGo, bit for bit, in the widest registers the
// processor has. The kernels read rows of w1 unchecked, so the indexes are
// checked here.
func firstLayer(h, b1, w1 []float32, nz []int32, x []float32) {
	H := len(h)
	block := 0
	switch {
	case hasAVX512 && H%256 == 0:
		block = 256
	case hasAVX2 && H%64 == 0:
		block = 64
	default:
		firstLayerGo(h, b1, w1, nz, x)
		return
	}
	if len(w1) < len(x)*H || len(b1) < H {
		panic("bgbot: first layer weights smaller than the inputs")
	}
	for _, i := range nz {
		if uint(i) >= uint(len(x)) {
			panic("bgbot: active input out of range")
		}
	}
	copy(h, b1)
	for c := 0; c < H; c += block {
		if block == 256 {
			rowsAVX512(h[c:c+256], w1[c:], 4*H, nz, x)
		} else {
			rowsAVX2(h[c:c+64], w1[c:], 4*H, nz, x)
		}
	}
}

// sigmoids applies sigmoid to every element of h, bit for bit, sixteen
// at a time with AVX-512 where the processor has it and len(h) allows:
// the table's units, then the saturated ones by math.Exp's own steps,
// and what is left (beyond 700, or not a number) one at a time.
func sigmoids(h []float32) {
	blocks := len(h) / 16
	if !hasAVX512 || len(h)%16 != 0 || blocks > 64 {
		sigmoidsGo(h)
		return
	}
	var out [64]uint16
	sigmoidsAVX512(h, &sigTable[0], out[:blocks])
	if mathFMA {
		expSigmoidsAVX512(h, out[:blocks])
	}
	for b, m := range out[:blocks] {
		for ; m != 0; m &= m - 1 {
			j := 16*b + bits.TrailingZeros16(m)
			h[j] = sigmoid(h[j])
		}
	}
}

// pruneRows adds to h (the pruner's hidden sums) each input's value times
// its row of w1, len(h) wide, as axpy does, bit for bit: in one AVX-512
// register where the processor has it and h is 16 wide.
func pruneRows(h, w1 []float32, in []rawInput) {
	H := len(h)
	if !hasAVX512 || H != 16 {
		pruneRowsGo(h, w1, in)
		return
	}
	for _, x := range in {
		if uint(x.index) >= uint(len(w1)/H) {
			panic("bgbot: pruner input out of range")
		}
	}
	pruneRowsAVX512(h, w1, in)
}

// The assembly in vec_amd64.s; each reads len(dst) (or len(a)) elements
// of both slices, which the wrappers above guarantee exist.

//go:noescape
func addToSSE(dst, src []float32)

//go:noescape
func axpySSE(dst, src []float32, v float32)

//go:noescape
func dotSSE(a, b []float32) float32

// rowsAVX512 and rowsAVX2 add to dst (256 or 64 sums) the rows of nz, row
// i starting stride bytes times i into w, as firstLayerGo does.
//
//go:noescape
func rowsAVX512(dst, w []float32, stride int, nz []int32, x []float32)

// sigmoidsAVX512 computes sigmoid's table interpolation for the elements
// of h (a multiple of 16 of them) within (-sigLimit, sigLimit), leaving
// the others and setting their bits in out, one mask a block of 16.
//
//go:noescape
func sigmoidsAVX512(h []float32, table *float32, out []uint16)

// pruneRowsAVX512 is pruneRows for 16 hidden units, unchecked.
//
//go:noescape
func pruneRowsAVX512(dst, w []float32, in []rawInput)

// expSigmoidsAVX512 finishes the saturated units sigmoidsAVX512 left in
// out whose magnitude is at most 700, computing math.Exp's FMA steps
// sixteen at a time, and clears their bits.
//
//go:noescape
func expSigmoidsAVX512(h []float32, out []uint16)

//go:noescape
func rowsAVX2(dst, w []float32, stride int, nz []int32, x []float32)
