package ringmaster

import (
	"io"
	"os"

	"github.com/gamemill/gamemill/internal/term"
)

// terminalSize is the rows and columns of the terminal w writes to, or 0
// and 0 when w is no terminal or its size is unknown (the live view is
// then not cut).
func terminalSize(w io.Writer) (rows, cols int) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, 0
	}
	c, r, err := term.Size(f.Fd())
	if err != nil {
		return 0, 0
	}
	return r, c
}
