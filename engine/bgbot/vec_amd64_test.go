//go:build amd64 && !purego

package bgbot

import (
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
