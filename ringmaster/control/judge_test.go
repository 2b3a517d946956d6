package control_test

import (
	"strings"
	"testing"

	. "github.com/gamemill/gamemill/ringmaster/control"
)

// One rule reads a judge's name wherever it is written: a depth is decimal
// digits from 0 to 9, "07" among them; the engine is checked against the
// game's judges only in a control file.
func TestParseJudgeSpec(t *testing.T) {
	for _, tc := range []struct {
		text string
		want JudgeSpec
		err  string // in ParseJudgeSpec's error; "" for none
		file string // in the control file's error; "" for none
	}{
		{"gnubg:07", JudgeSpec{Engine: "gnubg", Plies: 7}, "", ""},
		{"bgbot:0", JudgeSpec{Engine: "bgbot", Plies: 0}, "", ""},
		{"gnubg", JudgeSpec{Engine: "gnubg", Plies: 1}, "", ""},
		{"gnubg:x", JudgeSpec{}, "whole number from 0 to 9", "whole number from 0 to 9"},
		{"other:1", JudgeSpec{Engine: "other", Plies: 1}, "", `no judge "other" for backgammon`},
		{"gnubg:10", JudgeSpec{}, "whole number from 0 to 9", "whole number from 0 to 9"},
		{"gnubg:+1", JudgeSpec{}, "whole number from 0 to 9", "whole number from 0 to 9"},
		{"gnubg:-0", JudgeSpec{}, "whole number from 0 to 9", "whole number from 0 to 9"},
		{"gnubg:", JudgeSpec{}, "whole number from 0 to 9", "whole number from 0 to 9"},
		{"gnubg:1:2", JudgeSpec{}, "whole number from 0 to 9", "whole number from 0 to 9"},
		{"Gnubg:1", JudgeSpec{}, "want ENGINE:PLIES", "want ENGINE:PLIES"},
		{"", JudgeSpec{}, "want ENGINE:PLIES", "want ENGINE:PLIES"},
	} {
		got, err := ParseJudgeSpec(tc.text, 1)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %v, %v; want %v", tc.text, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want an error with %q", tc.text, err, tc.err)
		}
		if err == nil && got.String() != tc.want.Engine+":"+string(rune('0'+tc.want.Plies)) {
			t.Errorf("%q: String %q", tc.text, got.String())
		}

		text := "luck_judge = \"" + tc.text + "\"\n" + playoffHead + "\n[[matchups]]\nplayers = [\"a\", \"b\"]\n"
		c, err := parse("judge.toml", []byte(text))
		switch {
		case tc.file == "" && (err != nil || c.LuckJudge != tc.text):
			t.Errorf("luck_judge = %q: %v", tc.text, err)
		case tc.file != "" && (err == nil || !strings.Contains(err.Error(), tc.file) || !strings.Contains(err.Error(), "luck_judge")):
			t.Errorf("luck_judge = %q: %v, want an error with %q", tc.text, err, tc.file)
		}
	}
}
