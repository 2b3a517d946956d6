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

// loadWeights reads a weights file, or the embedded default for "".
func loadWeights(path string) (*bgbot.Weights, error) {
	if path == "" {
		return bgbot.DefaultWeights()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	w, err := bgbot.ParseWeights(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

// loadPruner reads a pruner file, or the embedded pruner for "".
func loadPruner(path string) (*bgbot.Pruner, error) {
	if path == "" {
		return bgbot.DefaultPruner()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("pruner: %w", err)
	}
	p, err := bgbot.ParsePruner(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
