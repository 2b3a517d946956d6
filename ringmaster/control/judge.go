package control

import (
	"regexp"
	"slices"
	"strings"
)

// judgeSpecForm is a judge as the user names it: ENGINE or ENGINE:PLIES.
var judgeSpecForm = regexp.MustCompile(`^[a-z0-9_]+(:[0-9])?$`)

// judgeSpec reads a judge's name (luck_judge): its form, and, when the
// game lists its judges (a Judges method, as ringmaster/judge.Game has),
// that the engine is one of them.
func (l *loader) judgeSpec(p keyPath, v any) string {
	s, ok := l.str(p, v)
	if !ok {
		return ""
	}
	if !judgeSpecForm.MatchString(s) {
		l.errorf(p, "want ENGINE or ENGINE:PLIES, such as \"bgbot:0\" or \"gnubg:1\", got %q", s)
		return ""
	}
	engine, _, _ := strings.Cut(s, ":")
	if g, ok := l.game.(interface{ Judges() []string }); ok && !slices.Contains(g.Judges(), engine) {
		l.errorf(p, "no judge %q for %s (want %s)", engine, l.game.Name(), orList(g.Judges()))
		return ""
	}
	return s
}
