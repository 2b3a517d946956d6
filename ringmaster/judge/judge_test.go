package judge

import (
	"io"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/control"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Spec
		err  string
	}{
		{"gnubg:2", Spec{"gnubg", 2}, ""},
		{"bgbot", Spec{"bgbot", 1}, ""}, // the default depth
		{"bgbot:0", Spec{"bgbot", 0}, ""},
		{"", Spec{}, "want ENGINE:PLIES"},
		{"Gnubg:1", Spec{}, "want ENGINE:PLIES"},
		{"gnubg:", Spec{}, "whole number from 0 to 9"},
		{"gnubg:10", Spec{}, "whole number from 0 to 9"},
		{"gnubg:-1", Spec{}, "whole number from 0 to 9"},
		{"gnubg:1:2", Spec{}, "whole number from 0 to 9"},
	} {
		got, err := ParseSpec(tc.text, 1)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %v, %v; want %v", tc.text, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want an error with %q", tc.text, err, tc.err)
		}
		if err == nil && got.String() != tc.want.Engine+":"+string(rune('0'+tc.want.Plies)) {
			t.Errorf("%q: String %q", tc.text, got.String())
		}
	}
}

type twoJudges struct{}

func (twoJudges) Judges() []string                       { return []string{"first", "second"} }
func (twoJudges) NewJudge(Spec) (Judge, error)           { return nil, nil }
func (twoJudges) WriteSides(io.Writer, [2]Player) error  { return nil }
func (twoJudges) WritePlayers(io.Writer, []Player) error { return nil }
func (twoJudges) PlayerJSON(Player) any                  { return nil }
func (twoJudges) WinScaled(control.GameSettings) bool    { return false }

// Resolve fills in the default judge and refuses one the game lacks.
func TestResolve(t *testing.T) {
	if s, err := Resolve(twoJudges{}, Spec{Plies: 2}); err != nil || s != (Spec{"first", 2}) {
		t.Errorf("default: %v, %v", s, err)
	}
	if s, err := Resolve(twoJudges{}, Spec{"second", 0}); err != nil || s != (Spec{"second", 0}) {
		t.Errorf("second: %v, %v", s, err)
	}
	if _, err := Resolve(twoJudges{}, Spec{"third", 0}); err == nil || !strings.Contains(err.Error(), `no judge "third" (the judges: first, second)`) {
		t.Errorf("third: %v", err)
	}
}
