//go:build !linux

package player

// awaitExit returns at once: elsewhere than Linux the caller's wait for
// the process blocks by itself.
func awaitExit(pid int) {}
