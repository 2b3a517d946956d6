package control

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// JudgeSpec names a judge of a game's records: an engine and its depth,
// as a user writes it ("gnubg:2"). Its text is the key under which the
// store keeps the judge's analyses, so that two judges' analyses of one
// game sit side by side. ringmaster/judge calls it Spec.
type JudgeSpec struct {
	Engine string
	Plies  int
}

// String is the spec as ParseJudgeSpec reads it: "ENGINE:PLIES".
func (s JudgeSpec) String() string { return fmt.Sprintf("%s:%d", s.Engine, s.Plies) }

// MaxJudgePlies bounds the depth a spec may name; each engine has its own
// lower bound, which the game checks when it makes the judge.
const MaxJudgePlies = 9

// ParseJudgeSpec reads "ENGINE:PLIES", or "ENGINE" alone for
// defaultPlies: the engine in lower-case letters, digits and '_', the
// depth in decimal digits from 0 to MaxJudgePlies ("07" is 7). It checks
// the form only; the game checks that it offers the engine. The control
// file's luck_judge and `ringmaster analyse --judge` both read it so.
func ParseJudgeSpec(text string, defaultPlies int) (JudgeSpec, error) {
	engine, plies, hasPlies := strings.Cut(text, ":")
	s := JudgeSpec{Engine: engine, Plies: defaultPlies}
	if engine == "" || strings.IndexFunc(engine, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') }) >= 0 {
		return s, fmt.Errorf("judge %q: want ENGINE:PLIES, such as bgbot:0 or gnubg:2", text)
	}
	if hasPlies {
		n, err := strconv.Atoi(plies)
		if err != nil || plies == "" || strings.IndexFunc(plies, func(r rune) bool { return r < '0' || r > '9' }) >= 0 || n > MaxJudgePlies {
			return s, fmt.Errorf("judge %q: the depth after ':' must be a whole number from 0 to %d", text, MaxJudgePlies)
		}
		s.Plies = n
	}
	return s, nil
}

// judgeSpec reads a judge's name (luck_judge) by ParseJudgeSpec's rule
// and, when the game lists its judges (a Judges method, as
// ringmaster/judge.Game has), checks that the engine is one of them.
func (l *loader) judgeSpec(p keyPath, v any) string {
	s, ok := l.str(p, v)
	if !ok {
		return ""
	}
	spec, err := ParseJudgeSpec(s, 0)
	if err != nil {
		l.errorf(p, "%v", err)
		return ""
	}
	if g, ok := l.game.(interface{ Judges() []string }); ok && !slices.Contains(g.Judges(), spec.Engine) {
		l.errorf(p, "no judge %q for %s (want %s)", spec.Engine, l.game.Name(), orList(g.Judges()))
		return ""
	}
	return s
}
