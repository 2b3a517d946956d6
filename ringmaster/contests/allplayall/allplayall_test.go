package allplayall

import "testing"

func TestLetter(t *testing.T) {
	for i, want := range map[int]string{0: "A", 1: "B", 25: "Z", 26: "AA", 27: "AB", 51: "AZ", 52: "BA", 701: "ZZ"} {
		if got := Letter(i); got != want {
			t.Errorf("Letter(%d) = %q, want %q", i, got, want)
		}
	}
	seen := make(map[string]bool)
	for i := range MaxCompetitors {
		l := Letter(i)
		if seen[l] {
			t.Fatalf("letter %s repeats at %d", l, i)
		}
		seen[l] = true
	}
}
