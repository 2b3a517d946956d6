package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the repository root, seen from this package's directory.
const root = ".."

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeShort keeps the README a front page: short, and carrying the
// two commands that CI and the examples test rely on.
func TestReadmeShort(t *testing.T) {
	readme := readFile(t, "README.md")
	if n := strings.Count(readme, "\n"); n > 200 {
		t.Errorf("README.md has %d lines; keep it near 150 and move the rest to docs/", n)
	}
	for _, cmd := range []string{"go run ./cmd/ringmaster run examples/quick.toml", "go test ./..."} {
		if !strings.Contains(readme, "    "+cmd+"\n") {
			t.Errorf("README.md lacks the command %q on a line of its own", cmd)
		}
	}
}

// workSession matches phrases that date text by the work session that
// wrote it (an ordinal, or "this", "next" and the like, before the word)
// rather than by what the program does or when a result was measured. A
// GTP, FIBS or money session is not one of them.
var workSession = regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|[a-z]+teenth|twenty|twentieth|thirty|thirtieth|forty|fifty|[0-9]+(st|nd|rd|th))[a-z-]*(\s+|-)sessions?\b|\b(this|that|last|previous|next|earlier|later)\s+sessions?\b|\bsessions?\s+(ago|later|earlier)\b`)

// TestNoWorkSessions reads every Go, Markdown, TOML, shell and text file
// in the tree for phrases about work sessions.
func TestNoWorkSessions(t *testing.T) {
	exts := []string{".go", ".md", ".toml", ".sh", ".txt", ".py"}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin":
				return filepath.SkipDir
			}
			if strings.HasSuffix(d.Name(), ".games") || strings.HasSuffix(d.Name(), ".paired") {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.Contains(exts, filepath.Ext(path)) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := workSession.FindString(line); m != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: %q: say what the program does, or date the result", rel, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestWorkSessionPattern(t *testing.T) {
	// The phrases are built from parts so that this file does not hold them.
	const s = "session"
	for _, p := range []string{"the twenty-seventh " + s, "as before the twentieth " + s, "the nineteenth " + s + "'s margin", "this " + s, "the fifteenth\t" + s, "sixth-" + s + " default", "two " + s + "s ago"} {
		if !workSession.MatchString(p) {
			t.Errorf("%q is not caught", p)
		}
	}
	for _, phrase := range []string{"a GTP session", "the FIBS session ends", "a money session caps the cube", "new session ; set turn 1", "the session's cube limit"} {
		if workSession.MatchString(phrase) {
			t.Errorf("%q is caught", phrase)
		}
	}
}

// TestDocsIndexed checks that docs/README.md links every page in docs/ and
// docs/results/.
func TestDocsIndexed(t *testing.T) {
	index := readFile(t, "docs/README.md")
	for _, pattern := range []string{"docs/*.md", "docs/results/*.md"} {
		pages, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			rel, _ := filepath.Rel(filepath.Join(root, "docs"), p)
			if rel == "README.md" {
				continue
			}
			if !strings.Contains(index, "]("+filepath.ToSlash(rel)+")") {
				t.Errorf("docs/README.md does not link %s", rel)
			}
		}
	}
}

// TestExamplesListed checks that the README names every control file and
// script in examples/.
func TestExamplesListed(t *testing.T) {
	readme := readFile(t, "README.md")
	entries, err := os.ReadDir(filepath.Join(root, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	strength := regexp.MustCompile(`^strength(-.+)\.toml$`)
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || (filepath.Ext(name) != ".toml" && filepath.Ext(name) != ".sh") {
			continue
		}
		if m := strength.FindStringSubmatch(name); m != nil {
			// The strength files share one row: `strength-*.toml` and each suffix.
			if !strings.Contains(readme, "`strength-*.toml`") || !strings.Contains(readme, "`"+m[1]+"`") {
				t.Errorf("README.md does not list examples/%s", name)
			}
			continue
		}
		if !strings.Contains(readme, "`"+name+"`") {
			t.Errorf("README.md does not list examples/%s", name)
		}
	}
}

// TestPackagesListed checks that docs/architecture.md names every package
// of the module.
func TestPackagesListed(t *testing.T) {
	arch := readFile(t, "docs/architecture.md")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch name := d.Name(); {
		case name == "testdata" || name == "bin" || strings.HasPrefix(name, ".") && path != root:
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		if rel == "." {
			return nil
		}
		files, err := filepath.Glob(filepath.Join(path, "*.go"))
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") }) {
			return nil
		}
		if !strings.Contains(arch, "`"+filepath.ToSlash(rel)+"`") {
			t.Errorf("package %s: add a row to the table Every package in docs/architecture.md", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// markdownLink is a relative link target in a Markdown page.
var markdownLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)

// TestLinksResolve checks that every relative link in the README and the
// docs points at a file or directory that exists.
func TestLinksResolve(t *testing.T) {
	pages := []string{"README.md", "engine/bgbot/weights/previous/README.md"}
	for _, pattern := range []string{"docs/*.md", "docs/results/*.md"} {
		found, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			rel, _ := filepath.Rel(root, f)
			pages = append(pages, rel)
		}
	}
	for _, page := range pages {
		for _, m := range markdownLink.FindAllStringSubmatch(readFile(t, page), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.Dir(page), target)); err != nil {
				t.Errorf("%s links %s, which does not exist", page, target)
			}
		}
	}
}
