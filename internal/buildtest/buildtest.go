// Package buildtest compiles programs for tests that run them as real
// subprocesses (the commands themselves, scripted fake engines).
package buildtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Main builds each package (a path as `go build` takes it, relative to the
// test's directory) into a temporary directory, stores the binary's path
// in the matching variable, runs the tests and exits. It is the whole body
// of a TestMain.
func Main(m *testing.M, binaries map[string]*string) {
	dir, err := os.MkdirTemp("", "gamemill-test-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for pkg, dst := range binaries {
		bin := filepath.Join(dir, filepath.Base(filepath.Clean(pkg)))
		if pkg == "." {
			wd, _ := os.Getwd()
			bin = filepath.Join(dir, filepath.Base(wd))
		}
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", pkg, err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
		*dst = bin
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
