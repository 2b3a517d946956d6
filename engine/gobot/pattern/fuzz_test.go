package pattern

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that whatever Parse accepts prints and parses back to
// the same patterns, and that compiling it fails cleanly or gives
// transformations of the sizes the classes allow.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("patterns/*.db")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(string(data))
		}
	}
	f.Add("Pattern A\n\n|..\n|*X\n+--\n\n:/,value(3)\n")
	f.Add("Pattern A\n\n?X?\n.*.\n\n:|\n\n?A?\n.b.\n\n;lib(A)==1 && !(olib(b)<2) || size(A)+1>=-3\n")
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := ParseString("fuzz.db", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.db:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		var b strings.Builder
		if err := Format(&b, ps); err != nil {
			t.Fatal(err)
		}
		again, err := ParseString("fuzz.db", b.String())
		if err != nil {
			t.Fatalf("printed patterns do not parse: %v\n%s", err, b.String())
		}
		if len(again) != len(ps) {
			t.Fatalf("%d patterns, %d after printing", len(ps), len(again))
		}
		for i := range ps {
			x, y := *ps[i], *again[i]
			x.Line, y.Line = 0, 0
			if !reflect.DeepEqual(x, y) {
				t.Fatalf("round trip changed a pattern:\n%+v\n%+v", x, y)
			}
		}
		db, err := Compile(ps)
		if err != nil {
			return
		}
		for _, p := range db.Patterns {
			if n := len(p.Variants); n < 1 || n > 8 || 8%n != 0 {
				t.Fatalf("pattern %s: %d transformations", p.Name, n)
			}
		}
	})
}
