package bgbot

import (
	"os"
	"reflect"
	"testing"
)

// TestCandidateWeights reads the sixteenth session's candidate pair
// (weights/candidates, not embedded; docs/bgbot.md, Training): each is
// the default network of its role with the contact network fitted again
// and the other networks exactly as they were.
func TestCandidateWeights(t *testing.T) {
	for file, defaults := range map[string]func() (*Weights, error){
		"weights/candidates/v11.bgnet": DefaultWeights,
		"weights/candidates/w12.bgnet": DefaultSecondWeights,
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
