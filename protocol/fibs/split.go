package fibs

import "strings"

// Split breaks a line as read from the server into the messages it holds.
// FIBS sometimes sends two messages on one line: the login prompt has no
// line ending, so the welcome message follows it on the same line; and a
// message ending in "." may run straight into the next one (CookieMonster
// pushes back such "run-on" text; Gibbon's reader does the same). A line
// that Parse knows as a whole is never split; a "** " line only where a
// message Parse knows by name ends before the run-on text.
func Split(line string) []string {
	line = strings.TrimRight(line, "\r\n")
	var out []string
	for len(out) < 16 {
		if rest, ok := strings.CutPrefix(line, "login: "); ok && strings.TrimSpace(rest) != "" {
			out = append(out, "login: ")
			line = rest
			continue
		}
		if k := Parse(line).Kind; k != Unknown && k != Error {
			break
		}
		// A board line glued after other text.
		if i := strings.Index(line, "board:"); i > 0 {
			out = append(out, line[:i])
			line = line[i:]
			continue
		}
		cut := -1
		for i := 1; i < len(line); i++ {
			c := line[i-1]
			if c != '.' && c != '!' {
				continue
			}
			if k := Parse(line[:i]).Kind; k != Unknown && k != Error && strings.TrimSpace(line[i:]) != "" {
				cut = i
				break
			}
		}
		if cut < 0 {
			break
		}
		out = append(out, line[:cut])
		line = strings.TrimLeft(line[cut:], " ")
	}
	return append(out, line)
}
