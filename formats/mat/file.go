package mat

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/internal/atomicfile"
)

// WriteFile writes m to path as Write does, creating path's folder if
// need be, whole or not at all: a reader, or a program stopped halfway,
// sees the file as it was or as it is now, never half of it.
func WriteFile(path string, m *record.Match) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return Write(w, m) })
}
