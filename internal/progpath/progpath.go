// Package progpath finds the programs Gamemill runs by bare name: on PATH,
// and then in /usr/games, where Debian installs gnubg and GNU Go and which
// is often not on PATH. It is the one place that knows that directory.
package progpath

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// GamesDir is where Debian installs games.
const GamesDir = "/usr/games"

// Find returns the program to run for name: name itself when it holds a
// path separator, else name looked up on PATH, else GamesDir/name when
// that is an executable file. The error names both places looked in.
func Find(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("no program name")
	}
	if strings.ContainsRune(name, os.PathSeparator) {
		return name, nil
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	candidate := filepath.Join(GamesDir, name)
	if fi, err := os.Stat(candidate); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
		return candidate, nil
	}
	return "", fmt.Errorf("%s: not found on PATH or in %s", name, GamesDir)
}
