package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/record/recordtest"
	"github.com/gamemill/gamemill/formats/sgf"
)

// convertIn runs 'bgtool convert ARGS...' in process.
func convertIn(args []string, stdout, stderr io.Writer) int {
	return run(context.Background(), append([]string{"convert"}, args...), nil, stdout, stderr)
}

const (
	gnubgMat = "../../formats/mat/testdata/gnubg-3pt-match.mat"
	gnubgSGF = "../../formats/sgf/testdata/gnubg-3pt-match.sgf"
)

// readRecord reads and replays a record file with read (mat.Read or sgf.Read).
func readRecord(t *testing.T, path string, read func(io.Reader) (*record.Match, error)) *record.Match {
	t.Helper()
	return recordtest.Replayed(t, recordtest.Load(t, read, path))
}

func TestConvert(t *testing.T) {
	dir := t.TempDir()
	want := readRecord(t, gnubgMat, mat.Read)
	for _, tc := range []struct {
		in, out string
		read    func(io.Reader) (*record.Match, error)
	}{
		{gnubgMat, "a.sgf", sgf.Read},
		{gnubgSGF, "b.MAT", mat.Read},
		{gnubgMat, "c.mat", mat.Read},
	} {
		out := filepath.Join(dir, tc.out)
		var stdout, stderr bytes.Buffer
		if code := convertIn([]string{tc.in, out}, &stdout, &stderr); code != 0 {
			t.Fatalf("convert %s %s: exit %d: %s", tc.in, tc.out, code, stderr.String())
		}
		if stdout.Len() != 0 || stderr.Len() != 0 {
			t.Errorf("convert printed %q %q", stdout.String(), stderr.String())
		}
		if d := record.Diff(want, readRecord(t, out, tc.read)); d != "" {
			t.Errorf("%s: %s", tc.out, d)
		}
	}
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.mat")
	if err := os.WriteFile(bad, []byte(" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 52: 13/8 13/4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "want 2 arguments"},
		{[]string{"a.mat"}, 2, "want 2 arguments"},
		{[]string{"a.txt", "b.sgf"}, 2, "a.txt: unknown record format"},
		{[]string{gnubgMat, "b.pdf"}, 2, "b.pdf: unknown record format"},
		{[]string{"--bogus", "a.mat", "b.sgf"}, 2, "unknown flag"},
		{[]string{filepath.Join(dir, "missing.mat"), filepath.Join(dir, "x.sgf")}, 1, "no such file"},
		{[]string{bad, filepath.Join(dir, "x.sgf")}, 1, "game 1: action 1"},
	} {
		var stdout, stderr bytes.Buffer
		code := convertIn(tc.args, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("convert %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.sgf")); err == nil {
		t.Error("a failed conversion wrote its output")
	}
	var stdout, stderr bytes.Buffer
	if code := convertIn([]string{"--help"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "usage: bgtool convert") {
		t.Errorf("--help: exit %d, %q", code, stdout.String())
	}
}

// TestConvertCommand runs the built binary end to end.
func TestConvertCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.sgf")
	if _, errOut, code := runTool(t, "convert", gnubgMat, out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if d := record.Diff(readRecord(t, gnubgMat, mat.Read), readRecord(t, out, sgf.Read)); d != "" {
		t.Error(d)
	}
}
