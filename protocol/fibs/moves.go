package fibs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Step is one checker moved by one die in FIBS notation. FIBS numbers the
// points absolutely: O moves from 24 down to 1, X from 1 up to 24 (the
// board line's direction field says which a player does). From is 0 for
// the bar and To is 0 for borne off; neither is ambiguous, since no checker
// moves from the home or to the bar.
type Step struct{ From, To int }

func (s Step) String() string {
	from, to := strconv.Itoa(s.From), strconv.Itoa(s.To)
	if s.From == 0 {
		from = "bar"
	}
	if s.To == 0 {
		to = "off"
	}
	return from + "-" + to
}

// FormatSteps writes steps as FIBS writes them: "8-4 6-4", "bar-22", "5-off".
func FormatSteps(steps []Step) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = s.String()
	}
	return strings.Join(parts, " ")
}

// ParseSteps reads FIBS move notation: steps "from-to" separated by
// spaces, or, as FIBS also accepts, bare points in pairs ("8 4 6 4");
// "bar" (or "b") and "off" (or "o", "home") name the bar and home. A
// trailing "." (as in "NAME moves 8-5 6-5 .") is ignored.
func ParseSteps(text string) ([]Step, error) {
	words := strings.Fields(strings.ToLower(strings.TrimSpace(text)))
	if n := len(words); n > 0 && words[n-1] == "." {
		words = words[:n-1]
	}
	var bare []string
	var steps []Step
	for _, w := range words {
		w = strings.TrimSuffix(w, ".")
		if a, b, ok := strings.Cut(w, "-"); ok {
			if len(bare) != 0 {
				return nil, fmt.Errorf("FIBS move %q: point %q has no destination", text, bare[0])
			}
			s, err := step(a, b)
			if err != nil {
				return nil, fmt.Errorf("FIBS move %q: %w", text, err)
			}
			steps = append(steps, s)
			continue
		}
		bare = append(bare, w)
		if len(bare) == 2 {
			s, err := step(bare[0], bare[1])
			if err != nil {
				return nil, fmt.Errorf("FIBS move %q: %w", text, err)
			}
			steps, bare = append(steps, s), bare[:0]
		}
	}
	if len(bare) != 0 {
		return nil, fmt.Errorf("FIBS move %q: point %q has no destination", text, bare[0])
	}
	if len(steps) > 4 {
		return nil, fmt.Errorf("FIBS move %q: %d steps, at most 4", text, len(steps))
	}
	return steps, nil
}

func step(a, b string) (Step, error) {
	var s Step
	switch a {
	case "bar", "b":
		s.From = 0
	default:
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 || n > 24 {
			return s, fmt.Errorf("%q is not a point to move from (1-24, bar)", a)
		}
		s.From = n
	}
	switch b {
	case "off", "o", "home":
		s.To = 0
	default:
		n, err := strconv.Atoi(b)
		if err != nil || n < 1 || n > 24 {
			return s, fmt.Errorf("%q is not a point to move to (1-24, off)", b)
		}
		s.To = n
	}
	if s.From == 0 && s.To == 0 {
		return s, fmt.Errorf("bar-off is not a move")
	}
	return s, nil
}

// ours converts a FIBS point to the mover's own point number (1..24,
// counted from its home) for a player moving in direction.
func ours(p, direction int) int8 {
	if direction == 1 {
		return int8(25 - p)
	}
	return int8(p)
}

// ToMove converts FIBS steps of a player moving in direction (-1: from 24
// to 1, as O; 1: from 1 to 24, as X) to a move in the mover's own point
// numbers. It checks the form only; legality is the rules' business.
func ToMove(steps []Step, direction int) (backgammon.Move, error) {
	var m backgammon.Move
	if len(steps) > 4 {
		return m, fmt.Errorf("FIBS move %s: %d steps, at most 4", FormatSteps(steps), len(steps))
	}
	for _, s := range steps {
		var bs backgammon.Step
		if s.From == 0 {
			bs.From = 25
		} else {
			bs.From = ours(s.From, direction)
		}
		if s.To != 0 {
			bs.To = ours(s.To, direction)
		}
		if bs.To >= bs.From {
			return m, fmt.Errorf("FIBS move %s: step %s goes the wrong way for direction %d", FormatSteps(steps), s, direction)
		}
		m.Steps[m.N] = bs
		m.N++
	}
	return m, nil
}

// FromMove converts a move in the mover's own point numbers to FIBS steps
// for a player moving in direction, in the order played.
func FromMove(m backgammon.Move, direction int) []Step {
	steps := make([]Step, 0, m.N)
	for _, s := range m.StepList() {
		var fs Step
		if s.From < 25 {
			fs.From = int(s.From)
			if direction == 1 {
				fs.From = 25 - int(s.From)
			}
		}
		if s.To > 0 {
			fs.To = int(s.To)
			if direction == 1 {
				fs.To = 25 - int(s.To)
			}
		}
		steps = append(steps, fs)
	}
	return steps
}
