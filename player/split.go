package player

import (
	"fmt"
	"strings"
)

// SplitCommand splits a command line into words the way a POSIX shell
// would, without running a shell and without any expansion:
//
//   - unquoted blanks (space, tab, newline) separate words;
//   - a backslash outside quotes takes the next character literally, and a
//     backslash-newline pair is removed;
//   - single quotes keep everything up to the next single quote literally;
//   - inside double quotes a backslash escapes only $, `, ", \ and newline,
//     and stays literal before anything else;
//   - quotes can be glued to other text ("a"'b'c is one word abc), and ""
//     is an empty word.
//
// Variables, globs, ~, comments and operators such as | or > have no
// special meaning. An unterminated quote or a trailing backslash is an
// error. A string holding only blanks yields no words.
func SplitCommand(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("split command: trailing backslash in %q", s)
			}
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
			cur.WriteByte(s[i])
			inWord = true
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("split command: unterminated single quote at offset %d in %q", i, s)
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case '"':
			start := i
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] != '\n' {
						cur.WriteByte(s[i])
					}
					continue
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("split command: unterminated double quote at offset %d in %q", start, s)
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// JoinCommand quotes words so that SplitCommand returns them unchanged.
func JoinCommand(words []string) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = quoteWord(w)
	}
	return strings.Join(parts, " ")
}

func quoteWord(w string) string {
	if w == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
