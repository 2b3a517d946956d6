package online

import (
	"errors"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "unknown",
		"fibs.com:4321":     "fibs.com_4321",
		"bgbot-0.9_test":    "bgbot-0.9_test",
		"../etc/passwd":     ".._etc_passwd",
		"wss://bgammon.org": "wss___bgammon.org",
		"héllo wörld":       "h_llo_w_rld",
	} {
		if got := FileName(in); got != want {
			t.Errorf("FileName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A beaver the rules refused is a take, its error kept for the log and
// marked; a beaver without an error (the rules allow it), another
// answer, or another error passes through.
func TestBeaverAsTake(t *testing.T) {
	refused := errors.New("gentake: beaver when beavers are not allowed")
	a, err := BeaverAsTake(backgammon.Beaver, refused)
	if a != backgammon.Take || !errors.Is(err, ErrBeaverTaken) || !errors.Is(err, refused) {
		t.Errorf("refused beaver: %v, %v", a, err)
	}
	broken := errors.New("engine died")
	for _, c := range []struct {
		a   backgammon.Answer
		err error
	}{{backgammon.Beaver, nil}, {backgammon.Drop, nil}, {backgammon.Take, nil}, {0, broken}, {backgammon.Drop, broken}} {
		a, err := BeaverAsTake(c.a, c.err)
		if a != c.a || err != c.err {
			t.Errorf("BeaverAsTake(%v, %v) = %v, %v; want it unchanged", c.a, c.err, a, err)
		}
	}
}
