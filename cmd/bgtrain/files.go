package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gamemill/gamemill/engine/bgbot"
)

// writeAtomic writes path through write into a temporary file beside it
// and renames that into place, so that a stopped command never leaves
// half a file (a checkpoint, a database, a set) where a whole one was.
func writeAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// loadWeights reads a weights file, or the embedded weights for "".
func loadWeights(path string) (*bgbot.Weights, error) {
	return loadFile(path, "weights", bgbot.DefaultWeights, bgbot.ParseWeights)
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
