package contest

import "strings"

// MaxIdentifier is the longest player code or matchup id: game ids and
// record file names are built from them, and file systems take 255 bytes
// a name.
const MaxIdentifier = 64

// IdentifierChars says what IsIdentifier accepts, for messages.
const IdentifierChars = "at most 64 letters, digits and -!$%&*+.:;<=>?^_~"

// IsIdentifier reports whether s is a valid player code or matchup id:
// non-empty, of ASCII letters, digits and -!$%&*+.:;<=>?^_~ (as gomill).
func IsIdentifier(s string) bool {
	if s == "" || len(s) > MaxIdentifier {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			continue
		}
		if !strings.ContainsRune("-!$%&*+.:;<=>?^_~", rune(c)) {
			return false
		}
	}
	return true
}
