package bgbot

import (
	"os"
	"reflect"
	"slices"
	"testing"
)

// TestPreviousWeights reads the previous default networks
// (weights/previous, not embedded; docs/bgbot.md): V8 and W9, whose
// contact and crashed networks V11/W12 and V13/W14 fitted again; V11 and
// W12, whose crashed networks V13/W14 fitted with the race features; V13,
// whose contact and crashed networks the default V15 fitted to gnubg's
// labels of trailing positions; and V15, whose crashed network the
// default V17 fitted again and which has no leading network. Each is the default network of its role but for those
// networks (a network it lacks counts as differing).
func TestPreviousWeights(t *testing.T) {
	for _, c := range []struct {
		file     string
		defaults func() (*Weights, error)
		differ   []int // the classes whose networks are not the default's
	}{
		{"weights/previous/v8.bgnet", DefaultWeights, []int{ClassContact, ClassCrashed, ClassLeading}},
		{"weights/previous/w9.bgnet", DefaultSecondWeights, []int{ClassContact, ClassCrashed}},
		{"weights/previous/v11.bgnet", DefaultWeights, []int{ClassContact, ClassCrashed, ClassLeading}},
		{"weights/previous/v13.bgnet", DefaultWeights, []int{ClassContact, ClassCrashed, ClassLeading}},
		{"weights/previous/v15.bgnet", DefaultWeights, []int{ClassCrashed, ClassLeading}},
		{"weights/previous/w12.bgnet", DefaultSecondWeights, []int{ClassCrashed}},
	} {
		base, err := c.defaults()
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ReadWeights(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(w.nets) > len(base.nets) {
			t.Fatalf("%s: %d networks, the default %d", c.file, len(w.nets), len(base.nets))
		}
		for class := range base.nets {
			same := class < len(w.nets) && reflect.DeepEqual(w.nets[class], base.nets[class])
			if same == slices.Contains(c.differ, class) {
				t.Errorf("%s: %s network the same as the default's: %v", c.file, ClassName(class), same)
			}
		}
	}
}
