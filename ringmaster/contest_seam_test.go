package ringmaster

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCompetitionTypesPlugInOnePlace keeps the competition-type seam
// honest: a type is one package under ringmaster/contests, and the only
// package that imports it is the registry, ringmaster/contests (tests
// aside); no generic package names a type.
func TestCompetitionTypesPlugInOnePlace(t *testing.T) {
	const root = "github.com/gamemill/gamemill/"
	const types = root + "ringmaster/contests/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	found := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if strings.HasPrefix(pkg, types) {
			found++
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, types) && pkg != root+"ringmaster/contests" {
				t.Errorf("%s imports the competition type %s: only the registry ringmaster/contests may", pkg, imp)
			}
		}
	}
	if found < 3 {
		t.Fatalf("found %d competition type packages under %s, want at least playoff, allplayall and gauntlet", found, types)
	}
}
