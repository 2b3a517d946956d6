package pattern

import "embed"

// files holds gobot's own pattern database.
//
//go:embed patterns/*.db
var files embed.FS

// Default compiles the embedded database (patterns/*.db).
func Default() (*DB, error) { return Load(files, "patterns") }
