//go:build amd64 && !purego

package bgbot

// addTo adds src to dst; src must be at least as long as dst.
func addTo(dst, src []float32) { addToSSE(dst, src[:len(dst)]) }

// axpy adds v*src to dst; src must be at least as long as dst.
func axpy(dst, src []float32, v float32) { axpySSE(dst, src[:len(dst)], v) }

// dot is the inner product of a and b; b must be at least as long as a.
func dot(a, b []float32) float32 { return dotSSE(a, b[:len(a)]) }

// The assembly in vec_amd64.s; each reads len(dst) (or len(a)) elements
// of both slices, which the wrappers above guarantee exist.

//go:noescape
func addToSSE(dst, src []float32)

//go:noescape
func axpySSE(dst, src []float32, v float32)

//go:noescape
func dotSSE(a, b []float32) float32
