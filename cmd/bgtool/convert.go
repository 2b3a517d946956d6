package main

import (
	"fmt"
	"io"
)

// runConvert is a stub until the converter is written.
func runConvert(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "convert: not built yet")
	return 1
}
