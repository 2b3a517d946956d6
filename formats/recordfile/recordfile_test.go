package recordfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadAndExpand(t *testing.T) {
	const dir = "../../player/gnubg/verdict/testdata"
	files, err := Expand([]string{dir, filepath.Join(dir, "statistics-money.txt")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "bgbot-gnubg0-match5.mat"), filepath.Join(dir, "bgbot-gnubg0-money.mat"), filepath.Join(dir, "gnubg-3pt-match.mat"), filepath.Join(dir, "statistics-money.txt")}
	if len(files) != len(want) {
		t.Fatalf("Expand: %v, want %v", files, want)
	}
	for i := range want {
		if files[i] != want[i] {
			t.Errorf("Expand[%d] = %s, want %s", i, files[i], want[i])
		}
	}
	m, err := Load(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.MatchLength != 5 || len(m.Games) == 0 {
		t.Errorf("a 5-point match read as length %d with %d games", m.MatchLength, len(m.Games))
	}
	if _, err := Load(files[3]); !errors.Is(err, ErrFormat) {
		t.Errorf("a .txt file: %v, want ErrFormat", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.mat")
	if err := os.WriteFile(bad, []byte(" 5 point match\n\n Game 1\n x : 0   y : 0\n  1) 31: 8/5 9/5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil {
		t.Error("an illegal move: no error")
	}
	twins := t.TempDir()
	for _, name := range []string{"a.mat", "a.sgf", "b.sgf", "c.txt"} {
		if err := os.WriteFile(filepath.Join(twins, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := Expand([]string{twins}); err != nil || len(got) != 2 || filepath.Base(got[0]) != "a.mat" || filepath.Base(got[1]) != "b.sgf" {
		t.Errorf("a directory with a.mat, a.sgf, b.sgf and c.txt: %v (%v), want a.mat and b.sgf", got, err)
	}
	if _, err := Expand([]string{"missing-dir"}); err == nil {
		t.Error("a missing path: no error")
	}
}
