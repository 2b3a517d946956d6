package fibs

import (
	"strings"
	"testing"
)

// FuzzParse: Parse and Split never panic, keep the raw line, and a board
// they accept writes back to an equal board.
func FuzzParse(f *testing.F) {
	for _, c := range transcript {
		f.Add(c.line)
	}
	f.Add("login: 1 myname 1041253132 192.168.1.308")
	f.Add("You roll 3 and 1.Please move 2 pieces.")
	// A hostile server's lines: lengths no match has, all-digit names.
	f.Add("** You are now playing a 99999999999999999999 point match with alice")
	f.Add("12 moves 8-5 6-5 .")
	f.Add("123 wants to play a 5 point match with you.")
	f.Add("7 12 12 logs in.")
	f.Fuzz(func(t *testing.T, line string) {
		m := Parse(line)
		if len(line) <= MaxLine && m.Raw != strings.TrimRight(line, "\r\n") {
			t.Fatalf("raw %q for %q", m.Raw, line)
		}
		switch m.Kind {
		case MatchStarted, Invitation, Score, WinsMatch, SavedMatch:
			if m.N < 0 || m.N > MaxMatchLength {
				t.Fatalf("%v of length %d: %q", m.Kind, m.N, line)
			}
		case YouInvited:
			if m.N < -1 || m.N > MaxMatchLength {
				t.Fatalf("%v of length %d: %q", m.Kind, m.N, line)
			}
		}
		if m.Kind != SettingValue && m.Name != "" && !validName(m.Name) {
			t.Fatalf("%v about %q, no user name: %q", m.Kind, m.Name, line)
		}
		if m.Kind == Board {
			again := Parse(m.Board.String())
			if again.Kind != Board || *again.Board != *m.Board {
				t.Fatalf("board %q writes %q", line, m.Board.String())
			}
		}
		if m.Kind == Moves && len(m.Steps) == 0 {
			t.Fatalf("moves without steps: %q", line)
		}
		parts := Split(line)
		if len(parts) == 0 {
			t.Fatalf("Split(%q) is empty", line)
		}
		for _, p := range parts {
			_ = Parse(p)
		}
	})
}

// FuzzParseSteps: what ParseSteps accepts, FormatSteps writes so that it
// reads back the same, and ToMove never panics on it.
func FuzzParseSteps(f *testing.F) {
	for _, s := range []string{"8-4 6-4", "bar-22", "5-off", "8 4 6 4", "24-off 22-off .", "bar-off", "1-2 3-4 5-6 7-8 9-10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		steps, err := ParseSteps(text)
		if err != nil {
			return
		}
		again, err := ParseSteps(FormatSteps(steps))
		if err != nil || FormatSteps(again) != FormatSteps(steps) {
			t.Fatalf("%q: %q reads back %q, %v", text, FormatSteps(steps), FormatSteps(again), err)
		}
		for _, dir := range []int{-1, 1} {
			if m, err := ToMove(steps, dir); err == nil && FormatSteps(FromMove(m, dir)) != FormatSteps(steps) {
				t.Fatalf("%q direction %d: %q", text, dir, FormatSteps(FromMove(m, dir)))
			}
		}
	})
}
