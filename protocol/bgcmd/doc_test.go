package bgcmd

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol"
)

// docEngine answers like the engine in docs/protocol.md's example.
type docEngine struct{ pos, match string }

func (e *docEngine) SetGame(GameRules) error { return nil }
func (e *docEngine) SetPosition(p, m string) error {
	e.pos, e.match = p, m
	return nil
}
func (e *docEngine) GenMove(context.Context) (string, error)            { return "8/5 6/5", nil }
func (e *docEngine) GenCube(context.Context) (bool, error)              { return false, nil }
func (e *docEngine) GenTake(context.Context) (backgammon.Answer, error) { return backgammon.Take, nil }
func (e *docEngine) Evaluate(context.Context) ([6]float64, error) {
	return [6]float64{0.521, 0.149, 0.008, 0.126, 0.006, 0.067}, nil
}

// TestDocExample replays the example transcript in docs/protocol.md through
// a real Server, so the documentation cannot drift from the code.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Skipf("docs not available: %v", err)
	}
	_, rest, ok := strings.Cut(string(doc), "### Example")
	if !ok {
		t.Fatal("no example section")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, _, _ := strings.Cut(rest, "```")
	var in, want strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "> "):
			in.WriteString(line[2:] + "\n")
		case strings.HasPrefix(line, "<"):
			want.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "<"), " ") + "\n")
		default:
			t.Fatalf("unexpected example line %q", line)
		}
	}
	srv := protocol.NewServer("docbot", "1")
	Register(srv, &docEngine{})
	var out bytes.Buffer
	if err := srv.Serve(context.Background(), strings.NewReader(in.String()), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() {
		t.Errorf("server output:\n%s\ndocumented:\n%s", out.String(), want.String())
	}
}
