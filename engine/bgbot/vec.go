package bgbot

// The first layer of a network is a sum of weight rows, one per active
// input, so these loops are most of an evaluation's time. On amd64 they
// run in assembly (vec_amd64.s): the first layer with its sums held in
// AVX-512 or AVX2 registers where the processor has them (firstLayer),
// and SSE loops, which SSE2, part of every amd64 processor, makes safe
// without a feature check; elsewhere (or with the purego build tag) the
// Go versions below run. All give bit-identical results: the assembly
// keeps the Go code's order of additions.

// addToGo adds src to dst (same length), four at a time.
func addToGo(dst, src []float32) {
	src = src[:len(dst)]
	j := 0
	for ; j+4 <= len(dst); j += 4 {
		d, s := dst[j:j+4:j+4], src[j:j+4:j+4]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
	}
	for ; j < len(dst); j++ {
		dst[j] += src[j]
	}
}

// axpyGo adds v*src to dst (same length), four at a time.
func axpyGo(dst, src []float32, v float32) {
	src = src[:len(dst)]
	j := 0
	for ; j+4 <= len(dst); j += 4 {
		d, s := dst[j:j+4:j+4], src[j:j+4:j+4]
		d[0] += v * s[0]
		d[1] += v * s[1]
		d[2] += v * s[2]
		d[3] += v * s[3]
	}
	for ; j < len(dst); j++ {
		dst[j] += v * src[j]
	}
}

// dotGo is the inner product of a and b (same length), in four running
// sums, one per lane of four.
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(a); j += 4 {
		x, y := a[j:j+4:j+4], b[j:j+4:j+4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
	}
	for ; j < len(a); j++ {
		s0 += a[j] * b[j]
	}
	return (s0 + s1) + (s2 + s3)
}

// firstLayerGo sets h to the first layer's sums: the biases b1 plus, for
// each active input i of nz in order, its weight row of w1 (len(h) wide),
// times its value x[i] where that is not 1.
func firstLayerGo(h, b1, w1 []float32, nz []int32, x []float32) {
	H := len(h)
	copy(h, b1)
	for _, i := range nz {
		v := x[i]
		row := w1[int(i)*H : int(i)*H+H]
		if v == 1 {
			addTo(h, row)
		} else {
			axpy(h, row, v)
		}
	}
}

// sigmoidsGo applies sigmoid to every element of h.
func sigmoidsGo(h []float32) {
	for j, v := range h {
		h[j] = sigmoid(v)
	}
}

// pruneRowsGo adds to h each input's value times its row of w1 (len(h)
// wide).
func pruneRowsGo(h, w1 []float32, in []rawInput) {
	H := len(h)
	for _, x := range in {
		axpy(h, w1[x.index*H:(x.index+1)*H], x.value)
	}
}
