package server

import "strings"

// cleanText makes a client's line safe to pass on to other clients: no
// control characters (an escape sequence could rewrite a telnet screen,
// a NUL cut a line short) and only valid UTF-8 (a browser drops a
// WebSocket whose text frame is not). A tab becomes a space.
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return -1
		}
		return r
	}, s)
}
