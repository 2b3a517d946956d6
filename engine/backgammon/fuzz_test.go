package backgammon

import "testing"

// FuzzParseNotation feeds arbitrary text to the notation parser and the
// resolver: they must never panic, and whatever resolves must be a legal
// move that prints and resolves back to itself.
func FuzzParseNotation(f *testing.F) {
	for _, s := range []string{"24/18 13/11", "bar/22*", "6/off", "8/4(2)", "24/20*/16", "24 18 13 11", "none", "", "25/0", "b/22 o/1", "13/7*/1*(2)", "8/4(9)", "8/4(", "////", "24/18,13/11"} {
		f.Add(s, uint8(6), uint8(2))
	}
	gen := NewMoveGen()
	start := Standard.StartBoard()
	f.Fuzz(func(t *testing.T, text string, a, b uint8) {
		segs, err := ParseNotation(text)
		if err == nil {
			for _, s := range segs {
				if s.From < 1 || s.From > 25 || s.To < 0 || s.To >= s.From || s.Count < 1 {
					t.Fatalf("%q parsed to a bad segment %+v", text, s)
				}
			}
		}
		d1, d2 := int(a%6)+1, int(b%6)+1
		m, err := gen.ResolveMove(start, d1, d2, text)
		if err != nil {
			return
		}
		printed := Format(start, m)
		back, err := NewMoveGen().ResolveMove(start, d1, d2, printed)
		if err != nil || start.Apply(back) != start.Apply(m) {
			t.Fatalf("%q resolved to %q, which does not resolve back (%v)", text, printed, err)
		}
	})
}
