package sgf_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/formats/sgf"
)

func TestParse(t *testing.T) {
	in := "\ufeff (;FF[4]GM[6]C[a \\] b\\\\ c\\\nd\\x]AB[aa][bb]\n  ;W[52lhjh]( ;B[x] ;B[y])(;W[z]))\n(;GaMe[1])"
	trees, err := sgf.Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 2 {
		t.Fatalf("%d trees", len(trees))
	}
	root := trees[0].Nodes[0]
	if c, _ := root.Value("C"); c != "a ] b\\ cdx" {
		t.Errorf("escapes: %q", c)
	}
	if v := root.Values("AB"); !reflect.DeepEqual(v, []string{"aa", "bb"}) {
		t.Errorf("AB = %q", v)
	}
	main := trees[0].MainLine()
	var got []string
	for _, n := range main {
		for _, p := range n.Props {
			if p.ID == "W" || p.ID == "B" {
				got = append(got, p.ID+p.Values[0])
			}
		}
	}
	if !reflect.DeepEqual(got, []string{"W52lhjh", "Bx", "By"}) {
		t.Errorf("main line %q", got)
	}
	if main[1].Line != 3 || main[1].Column != 3 {
		t.Errorf("node position %d:%d", main[1].Line, main[1].Column)
	}
	if len(trees[0].Variations) != 2 {
		t.Errorf("%d variations", len(trees[0].Variations))
	}
	if v, ok := trees[1].Nodes[0].Value("GM"); !ok || v != "1" {
		t.Errorf("FF[3] lower-case identifier: %q %v", v, ok)
	}
	again, err := sgf.Parse([]byte(sgf.Format(trees)))
	if err != nil || !reflect.DeepEqual(strip(again), strip(trees)) {
		t.Errorf("Format does not parse back the same: %v\n%s", err, sgf.Format(trees))
	}
}

// strip clears positions so trees can be compared.
func strip(ts []*sgf.Tree) []*sgf.Tree {
	for _, t := range ts {
		t.Line = 0
		for _, n := range t.Nodes {
			n.Line, n.Column = 0, 0
		}
		strip(t.Variations)
	}
	return ts
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "line 1, column 1: no game tree"},
		{"x(;)", "line 1, column 1: unexpected 'x' outside"},
		{"(;FF[4]\n;W[52", "line 2, column 3: value not closed"},
		{"(;FF[4]", "line 1, column 8: unexpected end of file"},
		{"(;FF[4]))", "line 1, column 9: ')' without"},
		{"(;FF[4] x)", "line 1, column 9: property \"x\" has no upper-case"},
		{"(;FF)", "line 1, column 3: property FF has no value"},
		{"(;A[](;B[]);C[])", "line 1, column 12: node after a variation"},
		{"((;A[]))", "line 1, column 2: a variation must follow"},
		{"()", "line 1, column 2: empty game tree"},
		{";A[]", "line 1, column 1: node outside"},
		{"(;A[]#)", "line 1, column 6: unexpected '#'"},
		{strings.Repeat("(;A[]", 10001), "nested more than"},
	} {
		_, err := sgf.Parse([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.20q: got %v, want %q", tc.in, err, tc.want)
		}
	}
}
