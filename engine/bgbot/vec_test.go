package bgbot

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVecMatchesGo checks the platform's vector loops against the Go ones
// bit for bit, over lengths that exercise every tail, and that they touch
// nothing past the end of dst.
func TestVecMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	fill := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	for n := 0; n <= 70; n++ {
		src, base := fill(n+3), fill(n+3) // 3 guard elements past n
		v := float32(rng.NormFloat64())

		want, got := append([]float32(nil), base...), append([]float32(nil), base...)
		addToGo(want[:n], src)
		addTo(got[:n], src)
		sameBits(t, "addTo", n, want, got)

		want, got = append([]float32(nil), base...), append([]float32(nil), base...)
		axpyGo(want[:n], src, v)
		axpy(got[:n], src, v)
		sameBits(t, "axpy", n, want, got)

		if w, g := dotGo(base[:n], src), dot(base[:n], src); math.Float32bits(w) != math.Float32bits(g) {
			t.Errorf("dot, length %d: %v, want %v", n, g, w)
		}
	}
}

func sameBits(t *testing.T, name string, n int, want, got []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			t.Fatalf("%s, length %d: element %d is %v, want %v", name, n, i, got[i], want[i])
		}
	}
}

func BenchmarkAddTo128(b *testing.B) {
	dst, src := make([]float32, 128), make([]float32, 128)
	for b.Loop() {
		addTo(dst, src)
	}
}

func BenchmarkAddTo128Go(b *testing.B) {
	dst, src := make([]float32, 128), make([]float32, 128)
	for b.Loop() {
		addToGo(dst, src)
	}
}

// randomLayer is a first layer of inputs x hidden random weights, with
// an input vector whose active inputs (nz, in a shuffled order) are half
// ones and half other values, as the encoder's are.
func randomLayer(rng *rand.Rand, inputs, hidden int) (b1, w1 []float32, nz []int32, x []float32) {
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	b1, w1 = fill(hidden), fill(inputs*hidden)
	x = make([]float32, inputs)
	for _, i := range rng.Perm(inputs)[:inputs/3] {
		if rng.IntN(2) == 0 {
			x[i] = 1
		} else {
			x[i] = float32(rng.Float64() * 3)
		}
		nz = append(nz, int32(i))
	}
	return b1, w1, nz, x
}

// TestFirstLayerMatchesGo checks the platform's first layer against the
// plain Go one bit for bit, for hidden sizes the vector kernels take and
// sizes they leave to the Go loops.
func TestFirstLayerMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, hidden := range []int{256, 512, 64, 192, 100, 7} {
		for range 20 {
			b1, w1, nz, x := randomLayer(rng, 280, hidden)
			want, got := make([]float32, hidden), make([]float32, hidden)
			firstLayerGo(want, b1, w1, nz, x)
			firstLayer(got, b1, w1, nz, x)
			sameBits(t, "firstLayer", hidden, want, got)
		}
	}
}

func BenchmarkFirstLayer256(b *testing.B) {
	b1, w1, nz, x := randomLayer(rand.New(rand.NewPCG(1, 2)), 240, 256)
	h := make([]float32, 256)
	for b.Loop() {
		firstLayer(h, b1, w1, nz, x)
	}
}

func BenchmarkFirstLayer256Go(b *testing.B) {
	b1, w1, nz, x := randomLayer(rand.New(rand.NewPCG(1, 2)), 240, 256)
	h := make([]float32, 256)
	for b.Loop() {
		firstLayerGo(h, b1, w1, nz, x)
	}
}

// TestSigmoidsMatchGo checks the platform's sigmoid over a vector against
// sigmoid element by element, bit for bit, across the table's range, its
// edges, the saturated units beyond it and values that are not numbers.
func TestSigmoidsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	edges := []float32{-16, 16, -15.999999, 15.999999, -16.000002, 16.000002, 0, -0, 17, -17, 1e30, -1e30,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for _, n := range []int{256, 16, 64, 1024, 1040, 100, 7} {
		for range 20 {
			h := make([]float32, n)
			for i := range h {
				switch rng.IntN(4) {
				case 0:
					h[i] = edges[rng.IntN(len(edges))]
				case 1:
					h[i] = float32(rng.NormFloat64() * 40)
				default:
					h[i] = float32(rng.NormFloat64() * 6)
				}
			}
			want := append([]float32(nil), h...)
			sigmoidsGo(want)
			sigmoids(h)
			sameBits(t, "sigmoids", n, want, h)
		}
	}
}

func BenchmarkSigmoids256(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 256)
	for i := range src {
		src[i] = float32(rng.NormFloat64() * 10)
	}
	h := make([]float32, 256)
	for b.Loop() {
		copy(h, src)
		sigmoids(h)
	}
}

func BenchmarkSigmoids256Go(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 256)
	for i := range src {
		src[i] = float32(rng.NormFloat64() * 10)
	}
	h := make([]float32, 256)
	for b.Loop() {
		copy(h, src)
		sigmoidsGo(h)
	}
}

// TestPruneRowsMatchGo checks the pruner's first layer on this platform
// against axpy row by row, bit for bit, at the pruner's 16 hidden units
// and at a width the vector kernel leaves to the Go loop.
func TestPruneRowsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, hidden := range []int{16, 24} {
		for range 50 {
			b1, w1, nz, x := randomLayer(rng, 196, hidden)
			var in []rawInput
			for _, i := range nz {
				in = append(in, rawInput{int(i), x[i]})
			}
			want, got := append([]float32(nil), b1...), append([]float32(nil), b1...)
			pruneRowsGo(want, w1, in)
			pruneRows(got, w1, in)
			sameBits(t, "pruneRows", hidden, want, got)
		}
	}
}
