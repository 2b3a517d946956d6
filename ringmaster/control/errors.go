package control

import "github.com/gamemill/gamemill/internal/tomlcheck"

// Error is one problem in a control file: file, line, key path and
// message (internal/tomlcheck's, which any checked TOML file shares).
type Error = tomlcheck.Error

// ErrorList is every problem found in a control file, in file order (those
// without a line first). Parse and Load return an ErrorList as their error.
type ErrorList = tomlcheck.ErrorList

// keyPath is a key's place in the document, "matchups[1].players".
type keyPath = tomlcheck.Path
