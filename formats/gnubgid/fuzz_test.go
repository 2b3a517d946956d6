package gnubgid

import (
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func FuzzDecodePosition(f *testing.F) {
	for _, s := range []string{"4HPwATDgc/ABMA", "4HPMwQCMz+AIIQ", "CgAAEAEAAAAAAA", "AAAAAAAAAAAAAA", "//////////////", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		b, err := DecodePosition(id)
		if err != nil {
			return
		}
		for side := 0; side < 2; side++ {
			if n := b.OnBoard(side); n > 15 {
				t.Fatalf("%q: side %d has %d checkers", id, side, n)
			}
		}
		again, err := DecodePosition(EncodePosition(b))
		if err != nil || again != b {
			t.Fatalf("%q: re-encoding gives %v, %v", id, again, err)
		}
		_, _ = DecodeState(id, "cAkAAAAAAAAA", backgammon.Rules{Cube: true})
	})
}

func FuzzDecodeMatchKey(f *testing.F) {
	for _, s := range []string{"QYkqASAAIAAA", "cAkAAAAAAAAA", "cBGgAEAAEAAE", "MAIAAAAACAAA", "cEEAAAAAAAAA", "////////////", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		k, err := DecodeMatchKey(id)
		if err != nil {
			return
		}
		if got := EncodeMatchKey(k); got != id {
			t.Fatalf("%q decodes to %+v, which encodes to %q", id, k, got)
		}
		s, err := DecodeState("4HPwATDgc/ABMA", id, backgammon.Rules{Cube: true, Crawford: true})
		if err != nil {
			return
		}
		_ = s.Decision()
		_, _ = Encode(s)
	})
}
