package gogame

import (
	"errors"
	"strings"
	"testing"
)

func TestVertexRoundTrip(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		seen := map[string]bool{}
		for row := range size {
			for col := range size {
				m := At(col, row)
				if m.Col() != col || m.Row() != row || !m.OnBoard(size) {
					t.Fatalf("At(%d, %d) = %d: col %d row %d", col, row, m, m.Col(), m.Row())
				}
				s := m.String()
				if seen[s] {
					t.Fatalf("size %d: %s printed twice", size, s)
				}
				seen[s] = true
				for _, text := range []string{s, strings.ToLower(s)} {
					back, err := ParseVertex(text, size)
					if err != nil || back != m {
						t.Fatalf("size %d: %q parses to %v, %v; want %v", size, text, back, err, m)
					}
				}
				sgf := m.SGF(size)
				back, err := ParseSGFPoint(sgf, size)
				if err != nil || back != m {
					t.Fatalf("size %d: SGF %q parses to %v, %v; want %v", size, sgf, back, err, m)
				}
			}
		}
	}
}

func TestParseVertex(t *testing.T) {
	for _, tc := range []struct {
		in   string
		size int
		want Move
		err  error
	}{
		{"A1", 19, At(0, 0), nil},
		{"a1", 19, At(0, 0), nil},
		{"J1", 19, At(8, 0), nil},
		{"T19", 19, At(18, 18), nil},
		{"D04", 19, At(3, 3), nil},
		{"Z25", 25, At(24, 24), nil},
		{"pass", 9, Pass, nil},
		{"PaSs", 9, Pass, nil},
		{"I1", 19, 0, ErrBadVertex},
		{"A0", 19, 0, ErrBadVertex},
		{"A", 19, 0, ErrBadVertex},
		{"1A", 19, 0, ErrBadVertex},
		{"A-1", 19, 0, ErrBadVertex},
		{"A+1", 19, 0, ErrBadVertex},
		{" A1", 19, 0, ErrBadVertex},
		{"A1 ", 19, 0, ErrBadVertex},
		{"", 19, 0, ErrBadVertex},
		{"resign", 19, 0, ErrBadVertex},
		{"U1", 19, 0, ErrOffBoard},
		{"A20", 19, 0, ErrOffBoard},
		{"J9", 9, At(8, 8), nil},
		{"K9", 9, 0, ErrOffBoard},
		{"A26", 25, 0, ErrOffBoard},
		{"A99999999999", 25, 0, ErrOffBoard},
	} {
		m, err := ParseVertex(tc.in, tc.size)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("ParseVertex(%q, %d) = %v, %v; want %v", tc.in, tc.size, m, err, tc.err)
			}
			continue
		}
		if err != nil || m != tc.want {
			t.Errorf("ParseVertex(%q, %d) = %v, %v; want %v", tc.in, tc.size, m, err, tc.want)
		}
	}
	if s := At(25, 0).String(); s != "Move(-2)" {
		t.Errorf("off-board move prints as %q", s)
	}
}

func TestSGFPoint(t *testing.T) {
	for _, tc := range []struct {
		in   string
		size int
		want Move
		err  error
	}{
		{"aa", 19, At(0, 18), nil},
		{"ss", 19, At(18, 0), nil},
		{"dp", 19, At(3, 3), nil},
		{"", 19, Pass, nil},
		{"tt", 19, Pass, nil},
		{"tt", 9, Pass, nil},
		{"tt", 21, At(19, 1), nil},
		{"yy", 25, At(24, 0), nil},
		{"ja", 9, 0, ErrOffBoard},
		{"a", 9, 0, ErrBadVertex},
		{"a1", 9, 0, ErrBadVertex},
		{"aaa", 9, 0, ErrBadVertex},
	} {
		m, err := ParseSGFPoint(tc.in, tc.size)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("ParseSGFPoint(%q, %d) = %v, %v; want %v", tc.in, tc.size, m, err, tc.err)
			}
			continue
		}
		if err != nil || m != tc.want {
			t.Errorf("ParseSGFPoint(%q, %d) = %v, %v; want %v", tc.in, tc.size, m, err, tc.want)
		}
	}
	if s := Pass.SGF(19); s != "" {
		t.Errorf("pass in SGF: %q", s)
	}
}

// FuzzParseVertex checks that the vertex parsers never panic and that
// whatever they accept is on the board and prints back to itself.
func FuzzParseVertex(f *testing.F) {
	for _, s := range []string{"A1", "t19", "pass", "I5", "Z25", "A00", "tt", "aa", ""} {
		f.Add(s, uint8(17))
	}
	f.Fuzz(func(t *testing.T, s string, sz uint8) {
		size := MinSize + int(sz)%(MaxSize-MinSize+1)
		if m, err := ParseVertex(s, size); err == nil {
			if m != Pass && !m.OnBoard(size) {
				t.Fatalf("%q on %d: %v is off the board", s, size, m)
			}
			back, err := ParseVertex(m.String(), size)
			if err != nil || back != m {
				t.Fatalf("%q -> %v -> %v, %v", s, m, back, err)
			}
		} else if !errors.Is(err, ErrBadVertex) && !errors.Is(err, ErrOffBoard) {
			t.Fatalf("%q: error %v wraps neither ErrBadVertex nor ErrOffBoard", s, err)
		}
		if m, err := ParseSGFPoint(s, size); err == nil {
			if m != Pass && !m.OnBoard(size) {
				t.Fatalf("SGF %q on %d: %v is off the board", s, size, m)
			}
			back, err := ParseSGFPoint(m.SGF(size), size)
			if err != nil || back != m {
				t.Fatalf("SGF %q -> %v -> %v, %v", s, m, back, err)
			}
		}
	})
}
