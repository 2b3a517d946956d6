// Package bgcmd is the backgammon command set on top of the protocol
// package's framing: set_game, set_position, genmove, gencube, gentake and
// evaluate, for both sides of the pipe ([Client] for the controller,
// [Register] for an engine). It works at the string level: positions and
// match states travel as gnubg position and match IDs, which it never
// decodes (protocol/bgstate does that for engines). See docs/protocol.md.
package bgcmd

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Backgammon command names.
const (
	CmdSetGame     = "set_game"
	CmdSetPosition = "set_position"
	CmdGenMove     = "genmove"
	CmdGenCube     = "gencube"
	CmdGenTake     = "gentake"
	CmdEvaluate    = "evaluate"
	CmdGenResign   = "genresign"
	CmdGenAccept   = "genaccept"
)

// NoResignation is the genresign reply of a player who plays on.
const NoResignation = "none"

// ParseResignation reads a genresign reply: "none" (NoResult), "single",
// "gammon" or "backgammon", case-insensitive.
func ParseResignation(s string) (backgammon.Result, error) {
	switch strings.ToLower(s) {
	case NoResignation:
		return backgammon.NoResult, nil
	case "single":
		return backgammon.Single, nil
	case "gammon":
		return backgammon.Gammon, nil
	case "backgammon":
		return backgammon.Backgammon, nil
	}
	return backgammon.NoResult, fmt.Errorf("%s is not none, single, gammon or backgammon", quoteShort(s))
}

// MaxMatchLength is the longest match a gnubg match ID can describe.
const MaxMatchLength = 32767

// NoMove is the genmove reply for a roll with no legal move.
const NoMove = "none"

// GameRules are the arguments of set_game: the variant, the match length
// (0 for a money game) and the optional rules.
type GameRules struct {
	Variant     string // one of backgammon.Variants()
	MatchLength int    // 0 for money play
	Crawford    bool   // Crawford rule (matches only)
	Jacoby      bool   // Jacoby rule (money games only)
	Beavers     bool   // beavers allowed (money games only)
	Cubeless    bool   // no doubling cube at all
	MaxCube     int    // money games: the cube never goes above this (0: no limit); sent as max_cube=N
}

// Args returns the set_game arguments for r:
// VARIANT MATCH_LENGTH followed by the flag words in a fixed order.
func (r GameRules) Args() []string {
	args := []string{r.Variant, strconv.Itoa(r.MatchLength)}
	if r.Crawford {
		args = append(args, "crawford")
	}
	if r.Jacoby {
		args = append(args, "jacoby")
	}
	if r.Beavers {
		args = append(args, "beavers")
	}
	if r.Cubeless {
		args = append(args, "cubeless")
	}
	if r.MaxCube > 0 {
		args = append(args, maxCubeWord+strconv.Itoa(r.MaxCube))
	}
	return args
}

// Validate reports rules that are unknown or contradictory: an unknown
// variant, a match length out of range, Crawford in a money game or
// without a cube, Jacoby or beavers in a match or without a cube.
func (r GameRules) Validate() error {
	if !validVariant(r.Variant) {
		return fmt.Errorf("unknown variant %q (want one of %s)", r.Variant, strings.Join(backgammon.Variants(), ", "))
	}
	if r.MatchLength < 0 || r.MatchLength > MaxMatchLength {
		return fmt.Errorf("match length %d out of range 0..%d", r.MatchLength, MaxMatchLength)
	}
	if r.Crawford && r.MatchLength == 0 {
		return errors.New("crawford applies to matches only, not to money games (match length 0)")
	}
	if r.Jacoby && r.MatchLength > 0 {
		return errors.New("jacoby applies to money games only (match length 0)")
	}
	if r.Beavers && r.MatchLength > 0 {
		return errors.New("beavers apply to money games only (match length 0)")
	}
	if r.Cubeless && (r.Crawford || r.Jacoby || r.Beavers || r.MaxCube > 0) {
		return errors.New("crawford, jacoby, beavers and max_cube need a cube; they conflict with cubeless")
	}
	if r.MaxCube > 0 && r.MatchLength > 0 {
		return errors.New("max_cube applies to money games only (match length 0)")
	}
	if r.MaxCube != 0 && !backgammon.IsCubeLimit(r.MaxCube) {
		return fmt.Errorf("max_cube %d is not a power of two from 2 to %d", r.MaxCube, backgammon.MaxCube/2)
	}
	return nil
}

func validVariant(v string) bool {
	return slices.Contains(backgammon.Variants(), v)
}

// Rules returns the rules r stands for: the one conversion from set_game's
// words to the rules engine/backgammon plays.
func (r GameRules) Rules() (backgammon.Rules, error) {
	if err := r.Validate(); err != nil {
		return backgammon.Rules{}, err
	}
	v, err := backgammon.ParseVariant(r.Variant)
	if err != nil {
		return backgammon.Rules{}, err
	}
	return backgammon.Rules{Variant: v, MatchLength: r.MatchLength, Crawford: r.Crawford,
		Jacoby: r.Jacoby, Beavers: r.Beavers, Cube: !r.Cubeless, CubeLimit: r.MaxCube}, nil
}

// FromRules returns set_game's words for r, the inverse of
// [GameRules.Rules]. Only the options in force are sent
// ([backgammon.Rules.InForce]), so what an engine is told is always valid.
func FromRules(r backgammon.Rules) GameRules {
	r = r.InForce()
	return GameRules{Variant: r.Variant.String(), MatchLength: r.MatchLength, Crawford: r.Crawford,
		Jacoby: r.Jacoby, Beavers: r.Beavers, Cubeless: !r.Cube, MaxCube: r.CubeLimit}
}

// maxCubeWord starts set_game's cube-limit word, max_cube=N.
const maxCubeWord = "max_cube="

// ParseGameRules parses set_game arguments:
// VARIANT MATCH_LENGTH [crawford] [jacoby] [beavers] [cubeless] [max_cube=N].
// Words are case-insensitive; each flag may appear once, in any order. The
// result is validated with [GameRules.Validate].
func ParseGameRules(args []string) (GameRules, error) {
	if len(args) < 2 {
		return GameRules{}, fmt.Errorf("set_game: want VARIANT MATCH_LENGTH [crawford] [jacoby] [beavers] [cubeless] [max_cube=N], got %d arguments", len(args))
	}
	r := GameRules{Variant: strings.ToLower(args[0])}
	if !isDigits(args[1]) || len(args[1]) > 6 {
		return GameRules{}, fmt.Errorf("set_game: match length %q is not a small non-negative integer", args[1])
	}
	r.MatchLength, _ = strconv.Atoi(args[1])
	for _, a := range args[2:] {
		if v, ok := strings.CutPrefix(strings.ToLower(a), maxCubeWord); ok {
			if r.MaxCube != 0 {
				return GameRules{}, errors.New("set_game: max_cube given twice")
			}
			if !isDigits(v) || len(v) > 5 || v == "0" {
				return GameRules{}, fmt.Errorf("set_game: max_cube %q is not a power of two from 2 to %d", v, backgammon.MaxCube/2)
			}
			r.MaxCube, _ = strconv.Atoi(v)
			continue
		}
		var flag *bool
		switch strings.ToLower(a) {
		case "crawford":
			flag = &r.Crawford
		case "jacoby":
			flag = &r.Jacoby
		case "beavers":
			flag = &r.Beavers
		case "cubeless":
			flag = &r.Cubeless
		default:
			return GameRules{}, fmt.Errorf("set_game: unknown rule %q (want crawford, jacoby, beavers, cubeless or max_cube=N)", a)
		}
		if *flag {
			return GameRules{}, fmt.Errorf("set_game: rule %q given twice", a)
		}
		*flag = true
	}
	if err := r.Validate(); err != nil {
		return GameRules{}, fmt.Errorf("set_game: %w", err)
	}
	return r, nil
}

// moveWord matches one word of gnubg move notation: a chain of hops from
// "bar" or a point, each hop to a point or "off", optionally marked "*" for
// a hit, optionally followed by a repeat count such as "(2)".
var moveWord = regexp.MustCompile(`^(bar|[0-9]{1,2})(/([0-9]{1,2}|off)\*?)+(\([1-4]\))?$`)

// CheckMoveSyntax reports whether s (already lower case, single spaces)
// looks like a gnubg move or "none". It checks the notation only, never
// legality: that is the referee's job.
func CheckMoveSyntax(s string) error {
	if s == NoMove {
		return nil
	}
	words := strings.Split(s, " ")
	if len(words) > 8 {
		return fmt.Errorf("move %s has more than 8 parts", quoteShort(s))
	}
	for _, w := range words {
		if !moveWord.MatchString(w) {
			return fmt.Errorf("move %s: %s is not gnubg move notation", quoteShort(s), quoteShort(w))
		}
	}
	return nil
}

// NormalizeMove lower-cases a move and collapses its white space.
func NormalizeMove(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// ParseEvaluation parses an evaluate reply; see [Client.Evaluate].
func ParseEvaluation(text string) ([6]float64, error) {
	var v [6]float64
	fields := strings.Fields(text)
	if len(fields) != 6 {
		return v, fmt.Errorf("evaluation %s: want 6 numbers, got %d fields", quoteShort(text), len(fields))
	}
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return v, fmt.Errorf("evaluation field %d: %s is not a finite number", i+1, quoteShort(f))
		}
		if i < 5 && (x < 0 || x > 1) {
			return v, fmt.Errorf("evaluation field %d: probability %v outside 0..1", i+1, x)
		}
		v[i] = x
	}
	return v, nil
}

// FormatEvaluation formats an evaluation as the evaluate reply, six
// numbers with six decimals.
func FormatEvaluation(v [6]float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'f', 6, 64)
	}
	return strings.Join(parts, " ")
}

// quoteShort quotes s for an error message, shortening long text.
func quoteShort(s string) string {
	const max = 80
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
