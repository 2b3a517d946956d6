package tomlcheck

import (
	"strings"
	"testing"
)

func TestKeyLines(t *testing.T) {
	src := `a = 1
"b.c" = """
x = 2
[not.a.table]
"""
d = '''
'''
e.f = [
  1,
  # comment ]
  { g = "}", h = [2, 3] },
]
[t] # header
'k' = 1979-05-27 07:32:00Z
[[arr]]
x = 1
[[arr]]
[arr.sub]
y = "a\"b"
[[arr.list]]
z = 1
[[arr.list]]
z = 2
[[arr]]
`
	got := Lines(src)
	want := map[string]int{
		"a":                 1,
		`"b.c"`:             2,
		"d":                 6,
		"e":                 8,
		"e.f":               8,
		"e.f[0]":            9,
		"e.f[1]":            11,
		"e.f[1].g":          11,
		"e.f[1].h":          11,
		"e.f[1].h[1]":       11,
		"e.f[2]":            0,
		"t":                 13,
		"t.k":               14,
		"arr":               15,
		"arr[0]":            15,
		"arr[0].x":          16,
		"arr[1]":            17,
		"arr[1].sub":        18,
		"arr[1].sub.y":      19,
		"arr[1].list":       20,
		"arr[1].list[0]":    20,
		"arr[1].list[1].z":  23,
		"arr[2]":            24,
		"x":                 0,
		"not":               0,
		"not.a.table":       0,
		"arr[1].list[0].z2": 0,
	}
	for k, line := range want {
		if got[k] != line {
			t.Errorf("line of %s = %d, want %d", k, got[k], line)
		}
	}
}

// TestKeyLinesNeverPanics feeds the scanner broken input: it runs only on
// input the toml package accepted, but must never panic or loop.
func TestKeyLinesNeverPanics(t *testing.T) {
	for _, src := range []string{
		"", "[", "[[", "a", "a =", "a = [", "a = {", `a = "`, `a = """`, "a = '''", `"\`, `"\u12`,
		"a = [1 2]", "a = {b = 1 c}", "[a.\n", "= 1", "a = [[[[[[[[", strings.Repeat("a = [", 1000),
	} {
		Lines(src)
	}
}

// FuzzKeyLines runs the position scanner on arbitrary input, valid TOML or
// not: it must neither panic nor hang, and every line it reports must lie
// in the input.
func FuzzKeyLines(f *testing.F) {
	f.Add("competition_type = \"playoff\"\n[players.a]\ncommand = [\"x\", \"y\"]\n[[matchups]]\nplayers = [\"a\", \"a\"]\n")
	f.Add("a = [1, {b = \"}\"}]\n[[c]]\n[c.d]\ne = '''\n'''\n")
	f.Add(`"\u00e9" = 1`)
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Count(src, "\n") + 1
		for k, line := range Lines(src) {
			if line < 1 || line > lines {
				t.Fatalf("key %s at line %d of %d", k, line, lines)
			}
		}
	})
}
