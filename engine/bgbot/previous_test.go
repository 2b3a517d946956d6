package bgbot

import (
	"os"
	"reflect"
	"testing"
)

// TestPreviousWeights reads the previous default pair (weights/previous,
// not embedded; V8 and W9, docs/bgbot.md): each is the default network of
// its role with only the contact network different, as the seventeenth
// session's new defaults (V11 and W12) fitted the contact networks alone.
func TestPreviousWeights(t *testing.T) {
	for file, defaults := range map[string]func() (*Weights, error){
		"weights/previous/v8.bgnet": DefaultWeights,
		"weights/previous/w9.bgnet": DefaultSecondWeights,
	} {
		base, err := defaults()
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ReadWeights(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(w.nets) != len(base.nets) {
			t.Fatalf("%s: %d networks, the default %d", file, len(w.nets), len(base.nets))
		}
		for c := range w.nets {
			same := reflect.DeepEqual(w.nets[c], base.nets[c])
			if same != (c != ClassContact) {
				t.Errorf("%s: network %d the same as the default's: %v", file, c, same)
			}
		}
	}
}
