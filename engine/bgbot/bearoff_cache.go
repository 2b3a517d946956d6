package bgbot

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gamemill/gamemill/internal/atomicfile"
)

// DefaultCacheDir is where engines keep what they build once and reuse:
// the user's cache directory (os.UserCacheDir, $XDG_CACHE_HOME on Linux)
// under "gamemill", or "" when there is none.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "gamemill")
}

// BearoffCacheFile is the file in a cache directory that holds the
// database of the given checker count.
func BearoffCacheFile(dir string, checkers int) string {
	return filepath.Join(dir, fmt.Sprintf("bearoff%d.bgbo", checkers))
}

// CachedBearoff returns the one-sided database of up to checkers checkers.
// It reads it from the cache directory dir when an earlier process left it
// there; otherwise it builds it (about 2 s of CPU for 15 checkers, where
// reading takes a few tens of milliseconds) and, when dir is not "",
// writes it there for the next process. The file is written under a
// temporary name and renamed, so engines started together never read half
// a file. A cache file that does not read back whole (a damaged file, or
// another checker count) is built again and replaced. Failing to write the
// cache is not an error: the built database is returned, and warn (when
// not nil) is told why, as it is told of a damaged file replaced.
func CachedBearoff(dir string, checkers int, warn func(error)) (*Bearoff, error) {
	if warn == nil {
		warn = func(error) {}
	}
	if dir == "" {
		return NewBearoff(checkers)
	}
	path := BearoffCacheFile(dir, checkers)
	db, readErr := ReadBearoffFile(path)
	if readErr == nil && db.Checkers == checkers {
		return db, nil
	}
	if readErr == nil {
		readErr = fmt.Errorf("%s: holds %d checkers, want %d", path, db.Checkers, checkers)
	}
	db, err := NewBearoff(checkers)
	if err != nil {
		return nil, err
	}
	if !errors.Is(readErr, os.ErrNotExist) {
		warn(fmt.Errorf("bearoff cache: replacing it: %w", readErr))
	}
	if err := writeBearoffCache(dir, path, db); err != nil {
		warn(fmt.Errorf("bearoff cache: %w", err))
	}
	return db, nil
}

func writeBearoffCache(dir, path string, db *Bearoff) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := db.WriteTo(w)
		return err
	})
}
