//go:build amd64 && !purego

package bgbot

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRowKernelsMatchGo runs each first-layer kernel the processor can
// run, whichever firstLayer picks, against the plain Go loops bit for bit.
func TestRowKernelsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range []struct {
		name  string
		ok    bool
		block int
		run   func(dst, w []float32, stride int, nz []int32, x []float32)
	}{
		{"AVX-512", hasAVX512, 256, rowsAVX512},
		{"AVX2", hasAVX2, 64, rowsAVX2},
	} {
		if !k.ok {
			t.Logf("%s: not on this processor", k.name)
			continue
		}
		for _, hidden := range []int{256, 512} {
			for range 20 {
				b1, w1, nz, x := randomLayer(rng, 280, hidden)
				want, got := make([]float32, hidden), make([]float32, hidden+8)
				firstLayerGo(want, b1, w1, nz, x)
				copy(got, b1)
				for c := 0; c < hidden; c += k.block {
					k.run(got[c:c+k.block], w1[c:], 4*hidden, nz, x)
				}
				for _, g := range got[hidden:] {
					if g != 0 {
						t.Fatalf("%s wrote past its block", k.name)
					}
				}
				sameBits(t, k.name, hidden, want, got[:hidden])
			}
		}
	}
}

// TestExpSigmoidsMatchGo runs the saturated units' kernel over a sweep of
// magnitudes from 16 to beyond 700, both signs, and checks that it does
// every unit it should, leaves the rest, and matches sigmoid (math.Exp)
// bit for bit.
func TestExpSigmoidsMatchGo(t *testing.T) {
	if !hasAVX512 || !mathFMA {
		t.Skip("no AVX-512 or no FMA on this processor")
	}
	rng := rand.New(rand.NewPCG(19, 20))
	for rep := range 200 {
		h := make([]float32, 1024)
		for i := range h {
			var v float64
			switch rng.IntN(3) {
			case 0:
				v = 16 + rng.ExpFloat64()*8
			case 1:
				v = 16 + rng.Float64()*700
			default:
				v = rng.Float64() * 32
			}
			if rng.IntN(2) == 0 {
				v = -v
			}
			h[i] = float32(v)
		}
		if rep == 0 {
			copy(h, []float32{16, -16, 700, -700, 700.0001, -700.0001, 16.000002, -16.000002, 88.72, -88.72, 103.9, -103.9})
		}
		want := append([]float32(nil), h...)
		sigmoidsGo(want)
		out := make([]uint16, len(h)/16)
		sigmoidsAVX512(h, &sigTable[0], out)
		expSigmoidsAVX512(h, out)
		for b, m := range out {
			for j := range 16 {
				k := 16*b + j
				left := m&(1<<j) != 0
				if a := math.Abs(float64(h[k])); left != (a > 700) {
					t.Fatalf("unit %d (%v): left for the caller %v", k, h[k], left)
				}
				if left {
					h[k] = sigmoid(h[k])
				}
			}
		}
		sameBits(t, "expSigmoids", len(h), want, h)
	}
}
