// Package gogame is Go's (weiqi's) side of the ringmaster's game seam: its
// settings table (gomill's names and checks), its referee (GTP v2 as
// gomill speaks it, every move judged by engine/gogame), its startup check
// and its report rows. The generic ringmaster reaches it only through the
// ringmaster.Game interface.
package gogame

import (
	"fmt"
	"strconv"
	"strings"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/ringmaster/control"
)

// Handicap styles, scorers and handicap compensations, as gomill names them.
const (
	HandicapFixed = "fixed"
	HandicapFree  = "free"

	ScorerPlayers  = "players"
	ScorerInternal = "internal"

	CompensationNo    = "no"
	CompensationShort = "short"
	CompensationFull  = "full"
)

// Settings are a matchup's Go settings.
type Settings struct {
	BoardSize     int // 2 to 25; required
	Komi          float64
	komiSet       bool // komi is required: 0 must be written
	Handicap      int  // 0: none; else at least 2
	HandicapStyle string
	Scorer        string
	Compensation  string // internal_scorer_handicap_compensation
	Superko       bool   // positional superko (our extension; gomill has none)
}

// DefaultSettings are the settings of a control file that sets none but
// the required board_size and komi.
func DefaultSettings() *Settings {
	return &Settings{HandicapStyle: HandicapFixed, Scorer: ScorerPlayers, Compensation: CompensationFull}
}

func settingsTable() []control.Setting {
	return []control.Setting{
		{Key: "board_size", Read: func(v control.Value, s control.GameSettings) {
			if n, ok := v.Int(2, rules.MaxSize); ok {
				s.(*Settings).BoardSize = n
			}
		}},
		{Key: "komi", Read: func(v control.Value, s control.GameSettings) {
			if f, ok := v.Float(-1000, 1000); ok {
				s.(*Settings).Komi, s.(*Settings).komiSet = f, true
			}
		}},
		{Key: "handicap", Read: func(v control.Value, s control.GameSettings) {
			if n, ok := v.Int(0, rules.MaxSize*rules.MaxSize); ok {
				if n == 1 {
					v.Errorf("handicap too small: 1 (0 for none, or at least 2)")
					return
				}
				s.(*Settings).Handicap = n
			}
		}},
		{Key: "handicap_style", Read: func(v control.Value, s control.GameSettings) {
			if x, ok := v.Choice("handicap style", HandicapFixed, HandicapFree); ok {
				s.(*Settings).HandicapStyle = x
			}
		}},
		{Key: "scorer", Read: func(v control.Value, s control.GameSettings) {
			if x, ok := v.Choice("scorer", ScorerPlayers, ScorerInternal); ok {
				s.(*Settings).Scorer = x
			}
		}},
		{Key: "internal_scorer_handicap_compensation", Read: func(v control.Value, s control.GameSettings) {
			if x, ok := v.Choice("handicap compensation", CompensationNo, CompensationShort, CompensationFull); ok {
				s.(*Settings).Compensation = x
			}
		}},
		{Key: "superko", Read: func(v control.Value, s control.GameSettings) {
			if b, ok := v.Bool(); ok {
				s.(*Settings).Superko = b
			}
		}},
	}
}

// Clone implements control.GameSettings.
func (s *Settings) Clone() control.GameSettings { c := *s; return &c }

// PairedGames implements control.GameSettings: Go has no dice to pair.
func (s *Settings) PairedGames() bool { return false }

// Check implements control.GameSettings: the required keys and gomill's
// range checks.
func (s *Settings) Check(report func(key, format string, args ...any)) {
	if s.BoardSize == 0 {
		report("board_size", "required for game \"go\" (2 to %d)", rules.MaxSize)
		return
	}
	if !s.komiSet {
		report("komi", "required for game \"go\"")
	}
	if s.Handicap == 0 {
		return
	}
	max := rules.MaxFixedHandicap(s.BoardSize)
	if s.HandicapStyle == HandicapFree {
		max = rules.MaxFreeHandicap(s.BoardSize)
	}
	if s.Handicap > max {
		report("handicap", "%s handicap out of range for board size %d (at most %d)", s.HandicapStyle, s.BoardSize, max)
	}
}

// compensation is what the internal scorer adds to White for the handicap.
func (s *Settings) compensation() float64 {
	switch {
	case s.Handicap == 0:
		return 0
	case s.Compensation == CompensationFull:
		return float64(s.Handicap)
	case s.Compensation == CompensationShort:
		return float64(s.Handicap - 1)
	}
	return 0
}

// Canonical implements control.GameSettings.
func (s *Settings) Canonical() string {
	return fmt.Sprintf("board_size=%d komi=%s handicap=%d handicap_style=%s scorer=%s compensation=%s superko=%t",
		s.BoardSize, komiText(s.Komi), s.Handicap, s.HandicapStyle, s.Scorer, s.Compensation, s.Superko)
}

// Describe implements control.GameSettings, as gomill's matchup line.
func (s *Settings) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "board size: %d   ", s.BoardSize)
	if s.Handicap > 0 {
		fmt.Fprintf(&b, "handicap: %d (%s)   ", s.Handicap, s.HandicapStyle)
	}
	fmt.Fprintf(&b, "komi: %s", komiText(s.Komi))
	if s.Scorer == ScorerInternal {
		b.WriteString("   scored internally")
	}
	if s.Superko {
		b.WriteString("   positional superko")
	}
	return b.String()
}

// komiText prints komi as gomill does: a float, so 6 is "6.0".
func komiText(k float64) string {
	t := strconv.FormatFloat(k, 'f', -1, 64)
	if !strings.ContainsAny(t, ".e") {
		t += ".0"
	}
	return t
}
