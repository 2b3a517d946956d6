package judge

import (
	"io"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/ringmaster/control"
)

type twoJudges struct{}

func (twoJudges) Judges() []string                       { return []string{"first", "second"} }
func (twoJudges) NewJudge(Spec) (Judge, error)           { return nil, nil }
func (twoJudges) WriteSides(io.Writer, [2]Player) error  { return nil }
func (twoJudges) WritePlayers(io.Writer, []Player) error { return nil }
func (twoJudges) PlayerJSON(Player) any                  { return nil }
func (twoJudges) WinScaled(control.GameSettings) bool    { return false }

// Resolve fills in the default judge and refuses one the game lacks.
func TestResolve(t *testing.T) {
	if s, err := Resolve(twoJudges{}, Spec{Plies: 2}); err != nil || s != (Spec{Engine: "first", Plies: 2}) {
		t.Errorf("default: %v, %v", s, err)
	}
	if s, err := Resolve(twoJudges{}, Spec{Engine: "second", Plies: 0}); err != nil || s != (Spec{Engine: "second", Plies: 0}) {
		t.Errorf("second: %v, %v", s, err)
	}
	if _, err := Resolve(twoJudges{}, Spec{Engine: "third", Plies: 0}); err == nil || !strings.Contains(err.Error(), `no judge "third" (the judges: first, second)`) {
		t.Errorf("third: %v", err)
	}
}
