package backgammon

import (
	"fmt"
	"strings"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/ringmaster/control"
)

// Dice modes.
const (
	// DiceIndependent gives every game its own dice.
	DiceIndependent = "independent"
	// DicePaired plays games 2k and 2k+1 with the same dice and the seats
	// swapped.
	DicePaired = "paired"
)

// Settings are a matchup's backgammon settings.
type Settings struct {
	MatchLength int  // 0 = money game
	Crawford    bool // match play only
	Jacoby      bool // money play only
	Beavers     bool
	Cube        bool // false = cubeless
	Variant     string
	Dice        string // DiceIndependent or DicePaired
	SkipForced  bool   // forced moves and rolls with no legal move are not asked
	MaxCube     int    // money play with the cube: the cube never goes above this (0: no limit)
	// PositionsPath names a suite of start positions (LoadPositions):
	// each position is played by a pair of games with the same dice and
	// the seats swapped. Positions holds the suite once read.
	PositionsPath string
	Positions     *Positions
	// SettleRaces ends a money game at a no-contact race that the bearoff
	// databases can value, scoring each side its expected points
	// (Referee.Races).
	SettleRaces bool
}

// DefaultSettings are the settings of a control file that sets none.
func DefaultSettings() *Settings {
	return &Settings{Crawford: true, Jacoby: true, Cube: true, Variant: bg.Standard.String(), Dice: DiceIndependent, SkipForced: true}
}

// settingsTable is every backgammon key, each named once with how it is
// read and checked.
func settingsTable() []control.Setting {
	boolean := func(key string, dst func(*Settings) *bool) control.Setting {
		return control.Setting{Key: key, Read: func(v control.Value, s control.GameSettings) {
			if b, ok := v.Bool(); ok {
				*dst(s.(*Settings)) = b
			}
		}}
	}
	return []control.Setting{
		{Key: "match_length", Read: func(v control.Value, s control.GameSettings) {
			if n, ok := v.Int(0, 1000); ok {
				s.(*Settings).MatchLength = n
			}
		}},
		{Key: "max_cube", Read: func(v control.Value, s control.GameSettings) {
			if n, ok := v.Int(0, bg.MaxCube/2); ok {
				s.(*Settings).MaxCube = n
			}
		}},
		boolean("crawford", func(s *Settings) *bool { return &s.Crawford }),
		boolean("jacoby", func(s *Settings) *bool { return &s.Jacoby }),
		boolean("beavers", func(s *Settings) *bool { return &s.Beavers }),
		boolean("cube", func(s *Settings) *bool { return &s.Cube }),
		boolean("skip_forced", func(s *Settings) *bool { return &s.SkipForced }),
		boolean("settle_races", func(s *Settings) *bool { return &s.SettleRaces }),
		{Key: "variant", Read: func(v control.Value, s control.GameSettings) {
			if x, ok := v.Choice("variant", bg.Variants()...); ok {
				s.(*Settings).Variant = x
			}
		}},
		{Key: "positions", Read: func(v control.Value, s control.GameSettings) {
			path, ok := v.Path()
			if !ok {
				return
			}
			p, err := LoadPositions(path)
			if err != nil {
				v.Errorf("%v", err)
				return
			}
			s.(*Settings).PositionsPath, s.(*Settings).Positions = path, p
		}},
		{Key: "dice", Read: func(v control.Value, s control.GameSettings) {
			if x, ok := v.Choice("dice mode", DiceIndependent, DicePaired); ok {
				s.(*Settings).Dice = x
			}
		}},
	}
}

// Clone implements control.GameSettings.
func (s *Settings) Clone() control.GameSettings { c := *s; return &c }

// PairedGames implements control.GameSettings: a positions suite is always
// played in pairs, so that each position is played from both sides with
// the same dice.
func (s *Settings) PairedGames() bool { return s.Dice == DicePaired || s.Positions != nil }

// Check implements control.GameSettings: max_cube must be a power of two
// and needs money play with the cube; settle_races needs money play
// without a cube limit, the bearoff databases' equities being money
// equities with the cube free to rise (the other keys are checked as they
// are read).
func (s *Settings) Check(report func(key, format string, args ...any)) {
	switch {
	case !s.SettleRaces:
	case s.MatchLength > 0:
		report("settle_races", "applies to money games only (match_length is %d)", s.MatchLength)
	case s.MaxCube > 0:
		report("settle_races", "the bearoff database's cubeful equity has no cube limit (max_cube is %d)", s.MaxCube)
	}
	switch {
	case s.MaxCube == 0:
	case !bg.IsCubeLimit(s.MaxCube):
		report("max_cube", "%d is not a power of two from 2 to %d", s.MaxCube, bg.MaxCube/2)
	case s.MatchLength > 0:
		report("max_cube", "applies to money games only (match_length is %d)", s.MatchLength)
	case !s.Cube:
		report("max_cube", "needs the cube (cube = false)")
	}
}

// Rules turns the settings into the rules of the game. Each rule applies
// only where it means something, so that records and engines see the
// rules actually in force.
func (s *Settings) Rules() bg.Rules {
	v, err := bg.ParseVariant(s.Variant)
	if err != nil {
		// The settings table accepts only the variants' names.
		panic(fmt.Sprintf("backgammon settings: %v", err))
	}
	r := bg.Rules{Variant: v, MatchLength: s.MatchLength, Cube: s.Cube,
		Crawford: s.Crawford, Jacoby: s.Jacoby, Beavers: s.Beavers, CubeLimit: s.MaxCube}
	return r.InForce()
}

// Canonical implements control.GameSettings: the rules in force and the
// dice mode. skip_forced is left out: it changes no result. max_cube and
// settle_races are named only when set, so that competitions begun before
// they existed still resume.
func (s *Settings) Canonical() string {
	r := s.Rules()
	c := fmt.Sprintf("variant=%s match_length=%d cube=%t crawford=%t jacoby=%t beavers=%t dice=%s",
		r.Variant, r.MatchLength, r.Cube, r.Crawford, r.Jacoby, r.Beavers, s.Dice)
	if r.CubeLimit > 0 {
		c += fmt.Sprintf(" max_cube=%d", r.CubeLimit)
	}
	if s.Positions != nil {
		c += fmt.Sprintf(" positions=%d:%s", len(s.Positions.IDs), s.Positions.Hash)
	}
	if s.SettleRaces {
		c += " settle_races=true"
	}
	return c
}

// Describe implements control.GameSettings.
func (s *Settings) Describe() string {
	var parts []string
	if s.MatchLength == 0 {
		parts = append(parts, "money game")
	} else {
		parts = append(parts, fmt.Sprintf("%d-point match", s.MatchLength))
	}
	if !s.Cube {
		parts = append(parts, "cubeless")
	} else if s.MatchLength == 0 {
		if s.Jacoby {
			parts = append(parts, "Jacoby")
		}
		if s.Beavers {
			parts = append(parts, "beavers")
		}
		if s.MaxCube > 0 {
			parts = append(parts, fmt.Sprintf("cube at most %d", s.MaxCube))
		}
	} else if s.Crawford {
		parts = append(parts, "Crawford")
	}
	if s.Variant != "" && s.Variant != bg.Standard.String() {
		parts = append(parts, s.Variant)
	}
	if s.SettleRaces {
		parts = append(parts, "races settled")
	}
	if s.Positions != nil {
		parts = append(parts, fmt.Sprintf("%d start positions, paired dice", len(s.Positions.IDs)))
	} else {
		parts = append(parts, s.Dice+" dice")
	}
	return strings.Join(parts, ", ")
}
