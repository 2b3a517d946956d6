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
