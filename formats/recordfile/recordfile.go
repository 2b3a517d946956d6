// Package recordfile reads match records from files, choosing the format
// (Jellyfish .mat or gnubg SGF) by the file's extension, and replays them
// through the rules so that every move is checked.
package recordfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/sgf"
)

// ErrFormat is wrapped by Load's error for a name with an extension other
// than .mat or .sgf.
var ErrFormat = errors.New("unknown record format (want .mat or .sgf)")

// Reader is the reading function for path's format.
func Reader(path string) (func(io.Reader) (*record.Match, error), error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mat":
		return mat.Read, nil
	case ".sgf":
		return sgf.Read, nil
	}
	return nil, fmt.Errorf("%s: %w", path, ErrFormat)
}

// Writer is the writing function for path's format.
func Writer(path string) (func(io.Writer, *record.Match) error, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mat":
		return mat.Write, nil
	case ".sgf":
		return sgf.Write, nil
	}
	return nil, fmt.Errorf("%s: %w", path, ErrFormat)
}

// Load reads and replays one record.
func Load(path string) (*record.Match, error) {
	read, err := Reader(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := record.Replay(m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Expand lists the record files that paths name: a file as it is, a
// directory as the .mat and .sgf files in it (not below it), in name
// order. A directory's X.sgf is left out when X.mat is there too: the
// ringmaster writes every record in both formats.
func Expand(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		have := map[string]bool{}
		for _, e := range entries {
			have[e.Name()] = !e.IsDir()
		}
		var names []string
		for _, e := range entries {
			name := e.Name()
			if _, err := Reader(name); err != nil || e.IsDir() {
				continue
			}
			if ext := filepath.Ext(name); strings.EqualFold(ext, ".sgf") && have[strings.TrimSuffix(name, ext)+".mat"] {
				continue
			}
			names = append(names, filepath.Join(p, name))
		}
		slices.Sort(names)
		out = append(out, names...)
	}
	return out, nil
}
