package referee

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/protocol"
)

// TestDocsErrorTable reads docs/protocol.md's outcome table and checks
// each row against IsForfeit, so that the documentation and the referees
// cannot disagree (they once did: the docs voided timeouts, the code
// forfeited them).
func TestDocsErrorTable(t *testing.T) {
	data, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "<!-- outcome table")
	end := strings.Index(text, "<!-- end of outcome table")
	if start < 0 || end < start {
		t.Fatal("docs/protocol.md has no outcome table between its markers")
	}
	// Errors as the controller returns them, by the name the table uses.
	samples := map[string][]error{
		"*protocol.FailureError":  {fmt.Errorf("genmove: %w", &protocol.FailureError{Command: "genmove", Message: "cannot"})},
		"*protocol.ReplyError":    {&protocol.ReplyError{Command: "gencube", Reply: "maybe", Reason: "want yes or no"}},
		"*protocol.ProtocolError": {&protocol.ProtocolError{Command: "genmove", Reason: "garbage"}},
		"protocol.ErrTimeout":     {fmt.Errorf("genmove: %w", protocol.ErrTimeout)},
		"protocol.ErrEngineExited": {
			fmt.Errorf("genmove: %w", protocol.ErrEngineExited),
			&protocol.ProtocolError{Command: "genmove", Reason: "output ended mid-response", Err: protocol.ErrEngineExited},
		},
	}
	rows := 0
	for _, line := range strings.Split(text[start:end], "\n") {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 3 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") || strings.TrimSpace(cells[2]) == "the game" {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		outcome := strings.TrimSpace(cells[2])
		errs, ok := samples[name]
		if !ok {
			t.Errorf("the table names %q, which this test does not know", name)
			continue
		}
		delete(samples, name)
		rows++
		for _, e := range errs {
			if got := IsForfeit(e); got != (outcome == "forfeit") || outcome != "forfeit" && outcome != "void" {
				t.Errorf("%s (%v): docs say %s, IsForfeit says %v", name, e, outcome, got)
			}
		}
	}
	for name := range samples {
		t.Errorf("the table has no row for %s", name)
	}
	if rows == 0 {
		t.Fatal("no rows read")
	}
	if !errors.Is(&VoidError{Reason: protocol.ErrEngineExited}, ErrVoid) {
		t.Error("a VoidError is not ErrVoid")
	}
}
