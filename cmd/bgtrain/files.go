package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/internal/atomicfile"
)

// writeAtomic writes path whole or not at all (a checkpoint, a database,
// a set), so that a stopped command never leaves half a file.
func writeAtomic(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, write)
}

// loadWeights reads a weights file, or the embedded weights for "".
func loadWeights(path string) (*bgbot.Weights, error) {
	return loadFile(path, "weights", bgbot.DefaultWeights, bgbot.ParseWeights)
}

// loadWeightsList reads each of paths ("" is not allowed: it would
// silently stand for the embedded network).
func loadWeightsList(paths []string) ([]*bgbot.Weights, error) {
	var out []*bgbot.Weights
	for _, p := range paths {
		if p == "" {
			return nil, fmt.Errorf("empty file name")
		}
		w, err := loadWeights(p)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// loadPruner reads a pruner file, or the embedded pruner for "".
func loadPruner(path string) (*bgbot.Pruner, error) {
	return loadFile(path, "pruner", bgbot.DefaultPruner, bgbot.ParsePruner)
}

// loadFile reads and parses path, or returns the embedded default for "".
func loadFile[T any](path, what string, embedded func() (T, error), parse func([]byte) (T, error)) (T, error) {
	if path == "" {
		return embedded()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: %w", what, err)
	}
	v, err := parse(data)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
