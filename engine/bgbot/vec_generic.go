//go:build !amd64 || purego

package bgbot

func addTo(dst, src []float32)           { addToGo(dst, src) }
func axpy(dst, src []float32, v float32) { axpyGo(dst, src, v) }
func dot(a, b []float32) float32         { return dotGo(a, b) }

func firstLayer(h, b1, w1 []float32, nz []int32, x []float32) { firstLayerGo(h, b1, w1, nz, x) }

func sigmoids(h []float32) { sigmoidsGo(h) }

func pruneRows(h, w1 []float32, in []rawInput) { pruneRowsGo(h, w1, in) }
