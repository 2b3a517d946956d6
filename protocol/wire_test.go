package protocol

import (
	"bufio"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestPreprocess(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"\t", ""},
		{"# comment", ""},
		{"name", "name"},
		{"  name  ", "name"},
		{"boardsize\t19", "boardsize 19"},
		{"play b c3 # a move", "play b c3"},
		{"na\x00me\r", "name"},
		{"a\x01b\x7fc", "abc"},
		{"\x1b[0m", "[0m"},
	}
	for _, tt := range tests {
		if got := Preprocess(tt.in); got != tt.want {
			t.Errorf("Preprocess(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in      string
		want    Command
		wantErr bool
		empty   bool
	}{
		{in: "", empty: true},
		{in: "  # only a comment", empty: true},
		{in: "name", want: Command{Name: "name"}},
		{in: "12 name", want: Command{HasID: true, ID: 12, Name: "name"}},
		{in: "0 genmove", want: Command{HasID: true, ID: 0, Name: "genmove"}},
		{in: "set_game\tstandard  7 crawford\r", want: Command{Name: "set_game", Args: []string{"standard", "7", "crawford"}}},
		{in: "3 set_position 4HPwATDgc/ABMA cAkAAAAAAAAA # state", want: Command{HasID: true, ID: 3, Name: "set_position", Args: []string{"4HPwATDgc/ABMA", "cAkAAAAAAAAA"}}},
		{in: "12", wantErr: true},
		{in: "99999999999999999999999 name", wantErr: true},
		{in: "-1 name", want: Command{Name: "-1", Args: []string{"name"}}},
	}
	for _, tt := range tests {
		got, err := ParseCommand(tt.in)
		switch {
		case tt.empty:
			if !errors.Is(err, ErrEmptyLine) {
				t.Errorf("ParseCommand(%q) error = %v, want ErrEmptyLine", tt.in, err)
			}
		case tt.wantErr:
			if err == nil || errors.Is(err, ErrEmptyLine) {
				t.Errorf("ParseCommand(%q) error = %v, want a parse error", tt.in, err)
			}
		default:
			if err != nil {
				t.Errorf("ParseCommand(%q) error = %v", tt.in, err)
			} else if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseCommand(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		}
	}
}

func TestCommandString(t *testing.T) {
	c := Command{HasID: true, ID: 7, Name: "set_game", Args: []string{"standard", "0"}}
	if got, want := c.String(), "7 set_game standard 0"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestReadResponse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Response
		proto   bool // want *ProtocolError
		exited  bool // want ErrEngineExited
		maxLine int
	}{
		{name: "empty success", in: "=\n\n", want: Response{Success: true}},
		{name: "text", in: "= gnubg\n\n", want: Response{Success: true, Text: "gnubg"}},
		{name: "crlf", in: "= gnubg\r\n\r\n", want: Response{Success: true, Text: "gnubg"}},
		{name: "id", in: "=12 double\n\n", want: Response{Success: true, HasID: true, ID: 12, Text: "double"}},
		{name: "id no text", in: "=12\n\n", want: Response{Success: true, HasID: true, ID: 12}},
		{name: "failure", in: "? unknown command\n\n", want: Response{Text: "unknown command"}},
		{name: "failure id", in: "?3 illegal\n\n", want: Response{HasID: true, ID: 3, Text: "illegal"}},
		{name: "multi", in: "= a\nb\n c\n\n", want: Response{Success: true, Text: "a\nb\n c"}},
		{name: "multi first empty", in: "= \nboard\n\n", want: Response{Success: true, Text: "\nboard"}},
		{name: "leading blank lines", in: "\n\n= x\n\n", want: Response{Success: true, Text: "x"}},
		{name: "leading space keeps rest", in: "=  two spaces\n\n", want: Response{Success: true, Text: " two spaces"}},
		{name: "digits glued to text", in: "=2x2\n\n", want: Response{Success: true, Text: "2x2"}},
		{name: "no indicator", in: "hello\n\n", proto: true},
		{name: "nul", in: "= a\x00b\n\n", proto: true},
		{name: "invalid utf8", in: "= \xff\xfe\n\n", proto: true},
		{name: "control", in: "= \x1b[31m\n\n", proto: true},
		{name: "too long", in: "= " + strings.Repeat("x", 100) + "\n\n", maxLine: 50, proto: true},
		{name: "too long later line", in: "= a\n" + strings.Repeat("x", 100) + "\n\n", maxLine: 50, proto: true},
		{name: "huge id", in: "=99999999999999999999999 x\n\n", proto: true},
		{name: "eof", in: "", exited: true},
		{name: "eof after blank", in: "\n", exited: true},
		{name: "eof partial line", in: "= abc", proto: true, exited: true},
		{name: "eof mid response", in: "= abc\n", proto: true, exited: true},
		{name: "eof multi", in: "= abc\ndef\n", proto: true, exited: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tt.in), 16)
			got, err := ReadResponse(br, tt.maxLine)
			var pe *ProtocolError
			if tt.proto != errors.As(err, &pe) {
				t.Fatalf("error = %v, want ProtocolError: %v", err, tt.proto)
			}
			if tt.exited != errors.Is(err, ErrEngineExited) {
				t.Fatalf("error = %v, want ErrEngineExited: %v", err, tt.exited)
			}
			if tt.proto || tt.exited {
				return
			}
			if err != nil {
				t.Fatalf("error = %v", err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestReadResponseSequence(t *testing.T) {
	br := bufio.NewReader(strings.NewReader("= one\n\n?2 two\n\n=3 three\nlines\n\n"))
	want := []Response{
		{Success: true, Text: "one"},
		{HasID: true, ID: 2, Text: "two"},
		{Success: true, HasID: true, ID: 3, Text: "three\nlines"},
	}
	for _, w := range want {
		got, err := ReadResponse(br, 0)
		if err != nil || got != w {
			t.Fatalf("got %+v, %v; want %+v", got, err, w)
		}
	}
	if _, err := ReadResponse(br, 0); !errors.Is(err, ErrEngineExited) {
		t.Fatalf("at end: error = %v, want ErrEngineExited", err)
	}
}

func TestSanitizeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\n\nb", "a\nb"},
		{"a\r\nb\r\n", "a\nb"},
		{"\nboard\n", "\nboard"},
		{"x\x00y", "xy"},
		{"a\n   \nb", "a\nb"},
	}
	for _, tt := range tests {
		if got := sanitizeText(tt.in); got != tt.want {
			t.Errorf("sanitizeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// An engine could answer "= 24/23" and then stream short lines without
// the blank line that ends a response; every line was kept, growing the
// controller by hundreds of megabytes a second until the timeout.
func TestReadResponseCapped(t *testing.T) {
	// n lines of text: the first after "=", all of the same length.
	response := func(n, length int) string {
		line := strings.Repeat("y", length)
		return "=" + line + "\n" + strings.Repeat(line+"\n", n-1) + "\n"
	}
	mib := DefaultMaxLineLength
	for _, tc := range []struct {
		name      string
		n, length int
		ok        bool
	}{
		{"at the line limit", DefaultMaxResponseLines, 1, true},
		{"one line over", DefaultMaxResponseLines + 1, 1, false},
		{"flood of short lines", 200000, 1, false},
		{"at the byte limit", 4, mib - 1, true}, // 4 lines of 1 MiB with their line feeds
		{"a fifth line of 1 MiB", 5, mib - 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := ReadResponse(bufio.NewReader(strings.NewReader(response(tc.n, tc.length))), 0)
			var pe *ProtocolError
			switch {
			case tc.ok && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.ok && len(resp.Text) != tc.n*(tc.length+1)-1:
				t.Fatalf("text of %d bytes, want %d", len(resp.Text), tc.n*(tc.length+1)-1)
			case !tc.ok && (!errors.Is(err, ErrResponseTooLong) || !errors.As(err, &pe)):
				t.Fatalf("error %v, want a protocol error wrapping ErrResponseTooLong", err)
			}
		})
	}
}
