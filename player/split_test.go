package player

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   \t\n", nil},
		{"gnugo --mode gtp", []string{"gnugo", "--mode", "gtp"}},
		{"  a   b  ", []string{"a", "b"}},
		{`'a b' "c d"`, []string{"a b", "c d"}},
		{`"a"'b'c`, []string{"abc"}},
		{`'' ""`, []string{"", ""}},
		{`a\ b`, []string{"a b"}},
		{`a\\b`, []string{`a\b`}},
		{`'it''s'`, []string{"its"}},
		{`'a\b'`, []string{`a\b`}},
		{`"a\b"`, []string{`a\b`}},
		{`"a\"b\\c\$d\` + "`" + `"`, []string{"a\"b\\c$d`"}},
		{`"$HOME" ~ *.go # x`, []string{"$HOME", "~", "*.go", "#", "x"}},
		{"a\\\nb", []string{"ab"}},
		{"\"a\\\nb\"", []string{"ab"}},
		{`bot --weights="/path with space/w.bin"`, []string{"bot", "--weights=/path with space/w.bin"}},
		{`"it's"`, []string{"it's"}},
		{`'say "hi"'`, []string{`say "hi"`}},
		{"héllo wörld", []string{"héllo", "wörld"}},
	}
	for _, tt := range tests {
		got, err := SplitCommand(tt.in)
		if err != nil {
			t.Errorf("SplitCommand(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitCommandErrors(t *testing.T) {
	tests := map[string]string{
		`'abc`:     "unterminated single quote",
		`"abc`:     "unterminated double quote",
		`a "b\"`:   "unterminated double quote",
		`abc\`:     "trailing backslash",
		`x 'y' 'z`: "unterminated single quote",
	}
	for in, want := range tests {
		_, err := SplitCommand(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("SplitCommand(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestJoinCommand(t *testing.T) {
	words := []string{"bot", "", "a b", "it's", `"q"`, `back\slash`, "$x", "plain-word_1.2"}
	joined := JoinCommand(words)
	got, err := SplitCommand(joined)
	if err != nil || !reflect.DeepEqual(got, words) {
		t.Errorf("SplitCommand(JoinCommand(%q)) = %q, %v (joined %q)", words, got, err, joined)
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"gnugo --mode gtp", `'a b' "c\"d" e\ f`, `"unterminated`, "a\\\nb", `x\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitCommand(s)
		if err != nil {
			return
		}
		again, err := SplitCommand(JoinCommand(words))
		if err != nil {
			t.Fatalf("re-split of %q: %v", JoinCommand(words), err)
		}
		if len(words) == 0 && len(again) == 0 {
			return
		}
		if !reflect.DeepEqual(again, words) {
			t.Fatalf("SplitCommand(%q) = %q; join and split again = %q", s, words, again)
		}
	})
}
