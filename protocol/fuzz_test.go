package protocol

import (
	"bufio"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"name", "12 genmove", "set_game standard 7 crawford # c", "\t\x00 x\r", "12", "#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd, err := ParseCommand(line)
		if err != nil {
			return
		}
		if cmd.Name == "" || !cmd.HasID && isDigits(cmd.Name) {
			t.Fatalf("ParseCommand(%q) gave bad name %q", line, cmd.Name)
		}
		for _, a := range append([]string{cmd.Name}, cmd.Args...) {
			if a == "" || strings.ContainsAny(a, " \t\n\r#\x00") {
				t.Fatalf("ParseCommand(%q) gave bad word %q", line, a)
			}
		}
		again, err := ParseCommand(cmd.String())
		if err != nil || !reflect.DeepEqual(again, cmd) {
			t.Fatalf("round trip of %q: %+v then %+v, %v", line, cmd, again, err)
		}
	})
}

func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{"= ok\n\n", "?3 bad\n\n", "= a\nb\n\n= c\n\n", "\n=\n\n", "= \x00\n\n", "=1", "hello\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		br := bufio.NewReaderSize(strings.NewReader(in), 16)
		for range 100 {
			resp, err := ReadResponse(br, 64)
			if err != nil {
				var pe *ProtocolError
				if !errors.As(err, &pe) && !errors.Is(err, ErrEngineExited) {
					t.Fatalf("unexpected error type %T: %v", err, err)
				}
				return
			}
			for _, line := range strings.Split(resp.Text, "\n") {
				if len(line) > 64 || badText(line) != "" {
					t.Fatalf("accepted bad line %q", line)
				}
			}
			// A response re-encoded by the server side reads back the same,
			// apart from blank lines, which the server side drops.
			var sb strings.Builder
			w := bufio.NewWriter(&sb)
			writeResponse(w, resp.Success, Command{HasID: resp.HasID, ID: resp.ID}, resp.Text)
			if err := flush(w); err != nil {
				t.Fatal(err)
			}
			back, err := ReadResponse(bufio.NewReader(strings.NewReader(sb.String())), 1<<20)
			if err != nil {
				t.Fatalf("re-read of %q: %v", sb.String(), err)
			}
			if back.Success != resp.Success || back.HasID != resp.HasID || back.ID != resp.ID || back.Text != sanitizeText(resp.Text) {
				t.Fatalf("re-read %+v, want %+v", back, resp)
			}
		}
	})
}
