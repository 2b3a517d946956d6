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
	ScorerReferee  = "referee" // a third engine's final_score (RefereePlayer)

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

	// RefereePlayer is the player code of the engine that scores games
	// under ScorerReferee.
	RefereePlayer string
	// OpeningsPath names the openings (LoadOpenings); Check loads them.
	OpeningsPath  string
	openings      []Opening
	openingsError error
	openingsHash  string
	openingsSize  int // the board size they were read for
	// Clock is the game's time control; nil for none.
	Clock *TimeControl
}

// Openings returns the openings the games start from (none when unset).
func (s *Settings) Openings() []Opening { return s.openings }

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
			if x, ok := v.Choice("scorer", ScorerPlayers, ScorerInternal, ScorerReferee); ok {
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
		{Key: "referee", Read: func(v control.Value, s control.GameSettings) {
			if code, ok := v.Str(); ok {
				if code == "" {
					v.Errorf("want a player code")
					return
				}
				s.(*Settings).RefereePlayer = code
			}
		}},
		{Key: "openings", Read: func(v control.Value, s control.GameSettings) {
			if path, ok := v.Path(); ok {
				s.(*Settings).OpeningsPath = path
			}
		}},
		{Key: "time_settings", Read: func(v control.Value, s control.GameSettings) {
			if tc, ok := readTimeControl(v.Raw(), v.Errorf); ok {
				s.(*Settings).Clock = tc
			}
		}},
	}
}

// Clone implements control.GameSettings.
func (s *Settings) Clone() control.GameSettings { c := *s; return &c }

// PairedGames implements control.GameSettings: games from openings are
// played in pairs, each opening once with each player as Black.
func (s *Settings) PairedGames() bool { return s.OpeningsPath != "" }

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
	switch {
	case s.Scorer == ScorerReferee && s.RefereePlayer == "":
		report("scorer", "scorer \"referee\" needs referee = \"PLAYER\", the code of the engine that scores the games")
	case s.Scorer != ScorerReferee && s.RefereePlayer != "":
		report("referee", "a referee player scores only under scorer = \"referee\"")
	}
	if s.OpeningsPath != "" {
		s.loadOpenings()
		if s.openingsError != nil {
			report("openings", "%v", s.openingsError)
		}
		if s.Handicap > 0 {
			report("openings", "openings are played on an empty board: not with a handicap")
		}
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
	text := fmt.Sprintf("board_size=%d komi=%s handicap=%d handicap_style=%s scorer=%s compensation=%s superko=%t",
		s.BoardSize, komiText(s.Komi), s.Handicap, s.HandicapStyle, s.Scorer, s.Compensation, s.Superko)
	// Later settings appear only when set, so that results stored before
	// they existed keep their text.
	if s.RefereePlayer != "" {
		text += " referee=" + s.RefereePlayer
	}
	if s.OpeningsPath != "" {
		text += fmt.Sprintf(" openings=%d:%s", len(s.openings), s.openingsHash)
	}
	if s.Clock != nil {
		text += " " + s.Clock.canonical()
	}
	return text
}

// loadOpenings reads OpeningsPath once for the board size.
func (s *Settings) loadOpenings() {
	if s.openingsSize == s.BoardSize && (s.openings != nil || s.openingsError != nil) {
		return
	}
	s.openingsSize = s.BoardSize
	s.openings, s.openingsHash, s.openingsError = LoadOpenings(s.OpeningsPath, s.BoardSize)
}

// Describe implements control.GameSettings, as gomill's matchup line.
func (s *Settings) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "board size: %d   ", s.BoardSize)
	if s.Handicap > 0 {
		fmt.Fprintf(&b, "handicap: %d (%s)   ", s.Handicap, s.HandicapStyle)
	}
	fmt.Fprintf(&b, "komi: %s", komiText(s.Komi))
	switch s.Scorer {
	case ScorerInternal:
		b.WriteString("   scored internally")
	case ScorerReferee:
		b.WriteString("   scored by " + s.RefereePlayer)
	}
	if s.OpeningsPath != "" {
		fmt.Fprintf(&b, "   %d openings", len(s.openings))
	}
	if s.Clock != nil {
		b.WriteString("   time: " + s.Clock.String())
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
