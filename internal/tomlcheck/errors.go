// Package tomlcheck is what a checked TOML file needs beyond the decoder:
// where each key is (Lines: BurntSushi/toml reports no positions for
// decoded values) and errors naming file, line and key (Error, ErrorList).
// The ringmaster's control files use it; any TOML settings file can.
package tomlcheck

import (
	"fmt"
	"strings"
)

// Error is one problem in a file.
type Error struct {
	File string // the name the file was loaded under
	Line int    // 1-based; 0 when the problem has no place (a missing key)
	Key  string // the key path, e.g. `matchups[1].players`; may be empty
	Msg  string
}

// Error formats e as `file:line: key: msg`, leaving out the parts that are
// unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem found in a file, in file order (those without
// a line first).
type ErrorList []*Error

// Error joins the errors, one a line.
func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As reach the individual errors.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
